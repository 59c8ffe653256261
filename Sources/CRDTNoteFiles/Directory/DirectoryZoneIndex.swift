import CRDTNoteSupport
import CRDTNote
/// A directory zone's `zone.json`: its incarnation and the change log behind change tokens and
/// change tags — the zone's **commit point**. A save writes each new version to its history file
/// (`history/<name>/<tag>.json`) first, then replaces this file (one atomic rename commits the
/// whole batch), then refreshes the copies in `records/`; a delete commits here before removing
/// files. Readers take a record's current version from here (its tag names the history file), so
/// a writer killed at any moment leaves every record at its old or its new version, the feed
/// consistent with what fetches return, and every delete in the feed.
struct DirectoryZoneIndex: Sendable {
    /// Unique per zone creation; part of every change tag and token.
    var incarnation: String
    /// The last change sequence number handed out.
    var sequence: Int64
    /// Per record: sequence number of its latest change and whether that was a delete.
    var changes: [String: Entry]

    struct Entry: Sendable {
        var sequence: Int64
        var deleted: Bool
    }

    init(incarnation: String) {
        self.incarnation = incarnation
        self.sequence = 0
        self.changes = [:]
    }

    /// Reads the index; `path` names the file in errors.
    init(bytes: [UInt8], path: String) throws(RecordStoreError) {
        func bad(_ what: String) -> RecordStoreError {
            RecordStoreError(.storageFailure, "zone index \(path) is damaged: \(what)")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw bad("\(error)")
        }
        guard case .object(let object) = json else { throw bad("not a JSON object") }
        guard let incarnation = object["incarnation"]?.stringValue else { throw bad("no \"incarnation\"") }
        guard let sequence = object["sequence"]?.numberValue?.int64Value else { throw bad("no \"sequence\"") }
        self.init(incarnation: incarnation)
        self.sequence = sequence
        if case .object(let changes)? = object["changes"] {
            for member in changes {
                guard case .array(let pair) = member.value, pair.count == 2,
                      let seq = pair[0].numberValue?.int64Value, let deleted = pair[1].boolValue
                else { throw bad("entry \"\(member.key)\" is not [sequence, deleted]") }
                self.changes[member.key] = Entry(sequence: seq, deleted: deleted)
            }
        }
    }

    /// The JSON form, entries sorted by sequence number.
    func bytes() -> [UInt8] {
        var entries = JSONObject()
        for (name, entry) in changes.sorted(by: { $0.value.sequence < $1.value.sequence }) {
            entries.append(key: name, value: .array([.number(JSONNumber(entry.sequence)), .bool(entry.deleted)]))
        }
        let object = JSONObject([
            ("format", .string("crdtnote-directory-zone")), ("formatVersion", .number(JSONNumber(1))),
            ("incarnation", .string(incarnation)), ("sequence", .number(JSONNumber(sequence))), ("changes", .object(entries)),
        ])
        var out = JSONValue.object(object).serialized(pretty: true)
        out.append(0x0A)
        return out
    }

    /// The change tag of `name`'s current version: nil when the index holds no such record or
    /// its latest change was a delete.
    func currentTag(of name: String) -> String? {
        guard let entry = changes[name], !entry.deleted else { return nil }
        return "\(incarnation)-\(entry.sequence)"
    }

    /// Records the next change of `name` and returns its change tag.
    mutating func recordChange(of name: String, deleted: Bool) -> String {
        sequence += 1
        changes[name] = Entry(sequence: sequence, deleted: deleted)
        return "\(incarnation)-\(sequence)"
    }
}
