import CRDTNoteSupport

/// `--json` output: the package's `JSONValue`, with the bench's number spellings, on one line.
extension JSONValue {
    /// An integer.
    static func int(_ v: Int) -> JSONValue { .number(JSONNumber(v)) }

    /// A measurement with four decimals, as `Format.fixed` prints it; null when not finite.
    static func double(_ v: Double) -> JSONValue {
        guard v.isFinite, let number = JSONNumber(text: Format.fixed(v, 4)) else { return .null }
        return .number(number)
    }

    /// Serialized on one line: `{"a": 1, "b": [2, 3]}`.
    var text: String { serializedString(layout: .singleLine) }
}
