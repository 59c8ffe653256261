import CRDTNoteSupport

/// A CloudKit record: identity, metadata, typed fields and, like a `CKRecord` with its
/// `CKAsset`s, the bytes of its ASSET fields (``AssetReference/bytes``). It is what a
/// ``RecordStore`` saves and returns; ``NoteRecord`` is the typed view of a note record.
///
/// Everything the model does not know (top-level keys, field keys, field types) is kept and
/// written back unchanged, so an app's own fields survive every merge and rewrite.
///
/// ```swift
/// var record = CloudRecord(recordName: "note-1", recordType: "Note")
/// record[field: "version"] = .int64(2)
/// ```
public struct CloudRecord: Hashable, Sendable {
    /// The record's unique name.
    public var recordName: String
    /// The record type, `Note` for notes.
    public var recordType: String
    /// The server's change tag; saving with a stale tag is a conflict.
    public var recordChangeTag: String?
    /// The record's zone, if given.
    public var zoneID: RecordZoneID?
    /// Creation info, if given.
    public var created: RecordTimestampInfo?
    /// Last modification info, if given.
    public var modified: RecordTimestampInfo?
    /// Whether the record is deleted, if given.
    public var deleted: Bool?
    /// The fields by name.
    public var fields: [String: RecordField]
    /// The output order of field names: the order read, then fields added later. Names not in
    /// `fields` are skipped on write; fields missing from it are written after it, sorted by name.
    package var fieldOrder: [String]
    /// Unknown top-level keys (e.g. `pluginFields`, `shortGUID`), kept verbatim.
    package var extra: JSONObject
    /// CloudKit's archived system fields (`CKRecord.encodeSystemFields`), opaque: the CloudKit
    /// adapter rebuilds the `CKRecord` from them so a save is checked against this record's
    /// change tag. `nil` for records that never came from CloudKit.
    package var systemFields: [UInt8]?

    /// An empty record.
    public init(recordName: String, recordType: String) {
        self.recordName = recordName
        self.recordType = recordType
        self.fields = [:]
        self.fieldOrder = []
        self.extra = JSONObject()
    }

    /// The value of a field. Setting keeps the field's extra keys (and its `type` spelling
    /// when it still fits), appends new names to `fieldOrder`, and `nil` removes the field.
    public subscript(field name: String) -> RecordFieldValue? {
        get { fields[name]?.value }
        set {
            guard let newValue else {
                fields[name] = nil
                fieldOrder.removeAll { $0 == name }
                return
            }
            if var field = fields[name] {
                field.value = newValue
                field.typeName = field.writtenTypeName
                fields[name] = field
            } else {
                fields[name] = RecordField(newValue)
                if !fieldOrder.contains(name) { fieldOrder.append(name) }
            }
        }
    }

    /// Field names in output order: `fieldOrder` first, then unlisted fields by name.
    package var orderedFieldNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        for name in fieldOrder where fields[name] != nil && seen.insert(name).inserted {
            names.append(name)
        }
        if names.count < fields.count {
            names += fields.keys.filter { !seen.contains($0) }.sorted()
        }
        return names
    }

    /// Equality ignores field order: two records with the same content are equal.
    public static func == (a: CloudRecord, b: CloudRecord) -> Bool {
        a.recordName == b.recordName && a.recordType == b.recordType && a.recordChangeTag == b.recordChangeTag
            && a.zoneID == b.zoneID && a.created == b.created && a.modified == b.modified && a.deleted == b.deleted
            && a.fields == b.fields && a.extra == b.extra && a.systemFields == b.systemFields
    }

    /// Hashes the same content as `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordName)
        hasher.combine(recordType)
        hasher.combine(recordChangeTag)
        hasher.combine(zoneID)
        hasher.combine(created)
        hasher.combine(modified)
        hasher.combine(deleted)
        hasher.combine(fields)
        hasher.combine(extra)
        hasher.combine(systemFields)
    }

    /// This record as a new record: no change tag, no CloudKit system fields and no server
    /// timestamps, so saving it creates the record again (used when an edit resurrects a deleted
    /// note or after a reset).
    package func withoutServerIdentity() -> CloudRecord {
        var copy = self
        copy.recordChangeTag = nil
        copy.systemFields = nil
        copy.created = nil
        copy.modified = nil
        return copy
    }

    /// The bytes of ASSET field `name`, when the field is an asset and its bytes are held.
    package func assetBytes(_ name: String) -> [UInt8]? {
        if case .asset(let ref)? = self[field: name] { return ref.bytes }
        return nil
    }
}
