/// A 64-bit identifier of one replica (a device, or a synthetic editor such as an import).
///
/// Replica ids break ties between equal hybrid-logical-clock timestamps and name the author of
/// every CRDT element, so two live replicas must never share one. ``random()`` draws 64 random
/// bits, which makes a collision between a user's devices vanishingly unlikely; zero is never
/// drawn so it stays free as a "no replica" sentinel for callers that want one.
///
/// ```swift
/// let me = ReplicaID.random()
/// let parsed = ReplicaID("0x2a")      // ReplicaID(rawValue: 42)
/// print(ReplicaID(42))                // "42"
/// ```
public struct ReplicaID: RawRepresentable, Hashable, Comparable, Sendable {
    /// The identifier's bits.
    public var rawValue: UInt64

    /// Wraps an existing identifier.
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Orders by the integer value, so ties between equal timestamps break the same way on every replica.
    @inlinable
    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// A fresh random identifier from the system's secure generator; never zero.
    public static func random() -> ReplicaID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A random identifier drawn from `generator` (seed it in tests for reproducible ids); never zero.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> ReplicaID {
        while true {
            let bits = generator.next()
            if bits != 0 { return ReplicaID(rawValue: bits) }
        }
    }
}

extension ReplicaID: ExpressibleByIntegerLiteral {
    /// Lets tests and examples write `let a: ReplicaID = 7`.
    @inlinable
    public init(integerLiteral value: UInt64) {
        self.init(rawValue: value)
    }
}

extension ReplicaID: CustomStringConvertible, LosslessStringConvertible {
    /// The identifier in decimal, e.g. `"42"`.
    public var description: String {
        String(rawValue)
    }

    /// Parses a decimal (`"42"`) or `0x`-prefixed hexadecimal (`"0x2a"`, hex digits in either case) identifier.
    ///
    /// Returns `nil` for anything else: an empty string, a sign, whitespace, separators, non-ASCII
    /// digits, a bare `"0x"`, or a value that does not fit in 64 bits. Unlike `UInt64(_:radix:)` this
    /// rejects a leading `+`, so only canonical-looking ids are accepted from files and command lines.
    public init?(_ description: String) {
        let bytes = Array(description.utf8)
        let isHex = bytes.count >= 2 && bytes[0] == UInt8(ascii: "0")
            && (bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "X"))
        let digits = isHex ? bytes[2...] : bytes[...]
        guard !digits.isEmpty else { return nil }
        let radix: UInt64 = isHex ? 16 : 10
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = ReplicaID.digitValue(byte), digit < radix else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: radix)
            let (next, overflowB) = shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = next
        }
        self.init(rawValue: value)
    }

    /// The value of one ASCII hex digit, or `nil` for any other byte.
    private static func digitValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt64(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}

extension ReplicaID: Codable {
    /// Decodes the identifier from a single unsigned integer (not a string).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(UInt64.self))
    }

    /// Encodes the identifier as a single unsigned integer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
