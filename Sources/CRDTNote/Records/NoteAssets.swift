/// The bytes behind a note record's ASSET fields, by field name (`text`, `payloadAsset`).
///
/// Records only carry ``AssetReference``s; this is how bytes travel beside them, the one way
/// used by ``NoteRecord``, ``RecordMerger``, the CLI and the stores:
/// - reading: load them with ``load(for:using:)`` (any resolver, e.g. an ``AssetLocator``)
///   before reading or merging;
/// - writing: a written ``NoteRecord`` holds the bytes of every asset it references. New assets
///   are those whose reference has no `downloadURL` yet (see ``NoteRecord/assetsToSave``); store
///   their bytes (``NoteRecord/savingAssets(in:)`` writes files) and fill in where they went.
public struct NoteAssets: Hashable, Sendable {
    /// Asset bytes by field name.
    public var bytesByField: [String: [UInt8]]

    /// Assets from a field-name-to-bytes dictionary.
    public init(_ bytesByField: [String: [UInt8]] = [:]) {
        self.bytesByField = bytesByField
    }

    /// The bytes of field `name`, if present.
    public subscript(field name: String) -> [UInt8]? {
        get { bytesByField[name] }
        set { bytesByField[name] = newValue }
    }

    /// Whether no bytes are held.
    public var isEmpty: Bool { bytesByField.isEmpty }

    /// Loads the note fields of `record` that are ASSETs (`text`, `payloadAsset`) through `read`,
    /// which gets the reference and the field name. Records newer than this library are not
    /// touched (reading them fails later with `.newerVersion`).
    public static func load(
        for record: CloudRecord,
        using read: (AssetReference, String) throws -> [UInt8]
    ) throws(NoteRecordError) -> NoteAssets {
        var assets = NoteAssets()
        if case .int64(let v)? = record[field: NoteSchema.Field.version], v > NoteSchema.currentVersion {
            return assets
        }
        for name in [NoteSchema.Field.text, NoteSchema.Field.payloadAsset] {
            guard case .asset(let ref)? = record[field: name] else { continue }
            do {
                assets[field: name] = try read(ref, name)
            } catch {
                throw NoteRecordError(.assetUnavailable, recordName: record.recordName, field: name, "\(error)")
            }
        }
        return assets
    }
}
