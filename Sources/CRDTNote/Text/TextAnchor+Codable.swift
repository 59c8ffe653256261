extension TextAnchor: Codable {
    /// Reads the compact string form (``description``): `"start"`, `"end"`, or `"a"`/`"b"`
    /// followed by the replica id and the sequence number in decimal, joined by a dot (`"b42.17"`).
    /// Only that one spelling is accepted (no signs, no leading zeros, no spaces).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let anchor = TextAnchor(compact: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a text anchor (start, end, a<replica>.<seq> or b<replica>.<seq>)")
        }
        self = anchor
    }

    /// Writes the compact string form (``description``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Parses ``description``'s form; nil for anything else.
    init?(compact text: String) {
        if text == "start" { self = .start; return }
        if text == "end" { self = .end; return }
        let utf8 = Array(text.utf8)
        guard let first = utf8.first, first == UInt8(ascii: "a") || first == UInt8(ascii: "b"),
              let dot = utf8.firstIndex(of: UInt8(ascii: ".")),
              let replica = Self.decimal(utf8[1..<dot], as: UInt64.self),
              let seq = Self.decimal(utf8[(dot + 1)...], as: UInt32.self) else { return nil }
        self.init(target: .character(replica: ReplicaID(rawValue: replica), seq: seq),
                  bias: first == UInt8(ascii: "b") ? .before : .after)
    }

    /// A canonical decimal number (digits only, no leading zero except "0") that fits `T`.
    private static func decimal<T: FixedWidthInteger>(_ digits: ArraySlice<UInt8>, as: T.Type) -> T? {
        guard let first = digits.first, digits.count == 1 || first != UInt8(ascii: "0") else { return nil }
        var value: T = 0
        for d in digits {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(T(d - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }
}
