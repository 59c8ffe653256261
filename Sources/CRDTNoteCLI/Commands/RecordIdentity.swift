import CRDTNote
import CRDTNoteSupport

/// Which record a file holds, as `show` reports it for notes and device records alike.
struct RecordIdentity: Sendable {
    /// The file as named in messages.
    var file: String
    /// CloudKit record name.
    var recordName: String
    /// CloudKit record type.
    var recordType: String
    /// The server's change tag, if the record has one.
    var changeTag: String?
    /// The record zone's name, if given.
    var zoneName: String?
    /// Whether the record is marked deleted.
    var deleted: Bool

    /// The identity of `record`, read from `file`.
    init(_ record: CloudRecord, file: String) {
        self.file = file
        recordName = record.recordName
        recordType = record.recordType
        changeTag = record.recordChangeTag
        zoneName = record.zoneID?.zoneName
        deleted = record.deleted ?? false
    }

    /// The text rows: `nameLabel` (the record name), type, change tag, zone and deleted when set.
    func rows(nameLabel: String) -> [(String, String)] {
        var rows = [(nameLabel, recordName), ("type", recordType), ("change tag", changeTag ?? "(none)")]
        if let zoneName { rows.append(("zone", zoneName)) }
        if deleted { rows.append(("deleted", "yes")) }
        return rows
    }

    /// The JSON keys, in the order `show --json` writes them.
    var jsonPairs: [(String, JSONValue)] {
        [
            ("file", .string(file)),
            ("recordName", .string(recordName)),
            ("recordType", .string(recordType)),
            ("recordChangeTag", changeTag.map(JSONValue.string) ?? .null),
            ("zoneName", zoneName.map(JSONValue.string) ?? .null),
            ("deleted", .bool(deleted)),
        ]
    }
}
