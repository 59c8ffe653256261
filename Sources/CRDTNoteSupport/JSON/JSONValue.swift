/// A JSON document as a value: what `JSONValue(parsing:)` reads and `serialized(pretty:)` writes.
///
/// Unlike `JSONSerialization`, it keeps object key order and the exact source text of
/// numbers, refuses duplicate keys and invalid UTF-8, and reports errors with byte offset,
/// line and column.
///
/// ```swift
/// let value = try JSONValue(parsing: Array(#"{"a": [1, 2.5, "x"]}"#.utf8))
/// value["a"]?[1]?.numberValue?.doubleValue   // 2.5
/// ```
package enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its source text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object with ordered keys.
    case object(JSONObject)
}

extension JSONValue {
    /// The string, if this is a string.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, if this is a number.
    package var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The Boolean, if this is `true` or `false`.
    package var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, if this is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, if this is an object.
    package var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether this is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the value's JSON type, for error messages ("a string", "an object", ...).
    package var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The member named `key` (last one wins), if this is an object holding it.
    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, if this is an array and the index is in range.
    package subscript(index: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }
}
