/// Where asset bytes live outside a record: the one way they come in and go out, provided by
/// the caller (a folder beside JSON exports, an app's cache, a test's dictionary). The model
/// itself does no I/O.
///
/// ```swift
/// let note = try NoteRecord(record, loadingAssetsFrom: storage)   // bytes in
/// let saved = try updated.savingAssets(to: storage)              // new bytes out
/// ```
public protocol AssetStorage: Sendable {
    /// What reading or writing can fail with.
    associatedtype Failure: Error

    /// The bytes `reference` points at; `field` names the record field it is in.
    func readAsset(_ reference: AssetReference, field: String) throws(Failure) -> [UInt8]

    /// Stores `bytes` of field `field` and returns a reference to them (with a `downloadURL`
    /// that ``readAsset(_:field:)`` resolves).
    func writeAsset(_ bytes: [UInt8], field: String) throws(Failure) -> AssetReference
}

extension NoteRecord {
    /// Wraps `record`, loading from `storage` the bytes of its ASSET note fields (`text`,
    /// `payloadAsset`, `formattingAsset`, `historyAsset`) that are not held yet. A record newer than this library is not touched
    /// (reading it fails later with `.newerVersion`). Throws what `storage` throws.
    public init<Storage: AssetStorage>(_ record: CloudRecord, loadingAssetsFrom storage: Storage) throws(Storage.Failure) {
        self.init(record)
        if case .int64(let v)? = record[field: NoteSchema.Field.version], v > NoteSchema.newestVersion { return }
        for name in [NoteSchema.Field.text, NoteSchema.Field.payloadAsset, NoteSchema.Field.formattingAsset, NoteSchema.Field.historyAsset] {
            guard case .asset(var ref)? = record[field: name], ref.bytes == nil else { continue }
            ref.bytes = try storage.readAsset(ref, field: name)
            self.record[field: name] = .asset(ref)
        }
    }

    /// A copy whose new note assets (``assetsToSave``), or with `all` every note asset whose
    /// bytes are held, are written to `storage`, each reference taking the `downloadURL` and
    /// size it returned (and its checksum, unless the reference has CloudKit's own). The bytes
    /// stay in the copy. Throws what `storage` throws.
    public func savingAssets<Storage: AssetStorage>(to storage: Storage, all: Bool = false) throws(Storage.Failure) -> NoteRecord {
        var copy = self
        for name in NoteSchema.Field.written.sorted() {
            guard case .asset(var ref)? = record[field: name], let bytes = ref.bytes, all || ref.downloadURL == nil else { continue }
            let written = try storage.writeAsset(bytes, field: name)
            ref.downloadURL = written.downloadURL
            ref.size = written.size
            if ref.fileChecksum == nil || AssetChecksum.isLocalChecksum(ref.fileChecksum ?? "") { ref.fileChecksum = written.fileChecksum }
            copy.record[field: name] = .asset(ref)
        }
        return copy
    }
}
