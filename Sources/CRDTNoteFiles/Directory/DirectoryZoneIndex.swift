import CRDTNoteSupport
import CRDTNote
/// A directory zone's `zone.json`: its incarnation and the change log behind change tokens and
/// change tags. Written atomically after a save's history files and before its record files, so
/// the change feed may name a change whose record file is still the older version (the feed
/// then returns that older version again, which is harmless) but never misses one.
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

    /// Records the next change of `name` and returns its change tag.
    mutating func recordChange(of name: String, deleted: Bool) -> String {
        sequence += 1
        changes[name] = Entry(sequence: sequence, deleted: deleted)
        return "\(incarnation)-\(sequence)"
    }
}
