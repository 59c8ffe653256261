import CRDTNoteSupport
import CRDTNote
/// Typed key access on JSON objects for the record codec, with errors naming the path.
struct RecordJSONReader {
    let object: JSONObject
    let path: String

    /// Requires `json` to be an object; `what` names it in the error ("a record dictionary").
    init(_ json: JSONValue, path: String, what: String) throws(RecordJSONError) {
        guard case .object(let object) = json else {
            throw RecordJSONError(.wrongType, path: path, "expected \(what), found \(json.typeDescription)")
        }
        self.object = object
        self.path = path
    }

    func keyPath(_ key: String) -> String { JSONPath.member(path, key) }

    func string(_ key: String) throws(RecordJSONError) -> String {
        guard let s = try optionalString(key) else {
            throw RecordJSONError(.missingKey, path: path, "missing \"\(key)\"")
        }
        return s
    }

    /// Absent and `null` both read as nil.
    func optionalString(_ key: String) throws(RecordJSONError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .string(let s) = value else {
            throw RecordJSONError(.wrongType, path: keyPath(key), "expected a string, found \(value.typeDescription)")
        }
        return s
    }

    func optionalInt64(_ key: String) throws(RecordJSONError) -> Int64? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let n) = value else {
            throw RecordJSONError(.wrongType, path: keyPath(key), "expected an integer, found \(value.typeDescription)")
        }
        guard let v = n.int64Value else {
            throw RecordJSONError(.invalidValue, path: keyPath(key), "\(n.text) is not a 64-bit integer")
        }
        return v
    }

    func optionalBool(_ key: String) throws(RecordJSONError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .bool(let b) = value else {
            throw RecordJSONError(.wrongType, path: keyPath(key), "expected true or false, found \(value.typeDescription)")
        }
        return b
    }

    /// Members whose keys are not in `known`, in order (duplicates kept).
    func extra(excluding known: Set<String>) -> JSONObject {
        object.removing(known)
    }
}

extension JSONObject {
    /// Appends `value` under `key` when it is not nil.
    mutating func appendIfPresent(_ key: String, _ value: JSONValue?) {
        if let value { append(key: key, value: value) }
    }

    /// Appends every member of `other`.
    mutating func append(contentsOf other: JSONObject) {
        for member in other.members { append(key: member.key, value: member.value) }
    }
}
