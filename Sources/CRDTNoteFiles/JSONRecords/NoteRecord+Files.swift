import CRDTNote
import CRDTNoteSupport

/// Note records whose asset bytes live in files beside their JSON.
extension NoteRecord {
    /// Wraps a record read from JSON, loading its ASSET note fields through `locator`.
    public init(_ record: CloudRecord, locator: AssetLocator) throws(NoteRecordError) {
        self.init(record, assets: try NoteAssets.load(for: record, from: locator))
    }

    /// Writes asset bytes as files in `directory` (named `<field>-<checksum>.bin`, via
    /// ``AssetLocator/writeAsset(_:named:in:)``) and points each reference's `downloadURL` at
    /// its file. Writes the ``assetsToSave``, or with `all`, every note asset whose bytes are
    /// held (for output written somewhere other than the inputs).
    public func savingAssets(in directory: String, all: Bool = false) throws(NoteRecordError) -> NoteRecord {
        var copy = self
        let names = all ? Array(assets.bytesByField.keys) : Array(assetsToSave.keys)
        for name in names.sorted() {
            guard let bytes = assets[field: name], case .asset(var ref)? = record[field: name] else { continue }
            let written: AssetReference
            do {
                written = try AssetLocator.writeAsset(bytes, named: "\(name)-\(AssetChecksum.fnv1a64Hex(bytes)).bin", in: directory)
            } catch {
                throw self.error(.assetUnavailable, name, "cannot save the asset: \(error)")
            }
            ref.downloadURL = written.downloadURL
            ref.size = written.size
            if ref.fileChecksum == nil || AssetChecksum.isLocalChecksum(ref.fileChecksum ?? "") { ref.fileChecksum = written.fileChecksum }
            copy.record[field: name] = .asset(ref)
        }
        return copy
    }
}

extension NoteAssets {
    /// Loads the note's ASSET fields from local files found by `locator`.
    public static func load(for record: CloudRecord, from locator: AssetLocator) throws(NoteRecordError) -> NoteAssets {
        try load(for: record) { (ref, field) throws(RecordJSONError) in try locator.readAsset(ref, field: field) }
    }
}
