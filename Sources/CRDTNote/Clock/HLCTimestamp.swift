/// A hybrid-logical-clock timestamp packed into 64 bits.
///
/// The high 48 bits hold physical milliseconds since 1970-01-01 UTC (enough until the year 10889),
/// the low 16 bits a logical counter that orders events within one millisecond. Because the
/// milliseconds sit above the counter, comparing the packed integers is exactly the
/// lexicographic order on `(milliseconds, counter)`, and `rawValue + 1` carries a full counter
/// into the next millisecond.
///
/// ```swift
/// if let modified = note.lastModified {
///     print(modified)                         // "2026-11-21T12:00:00.123Z#5"
///     print(modified.milliseconds, modified.counter)
/// }
/// ```
public struct HLCTimestamp: RawRepresentable, Hashable, Comparable, Sendable {
    /// The packed bits: `milliseconds << 16 | counter`.
    public var rawValue: UInt64

    /// Wraps packed bits, e.g. read back from an encoded record. Every `UInt64` is a valid timestamp.
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Packs `milliseconds` and `counter`; `nil` when `milliseconds` does not fit in 48 bits.
    @inlinable
    package init?(milliseconds: UInt64, counter: UInt16) {
        guard milliseconds <= HLCTimestamp.maxMilliseconds else { return nil }
        self.init(rawValue: milliseconds << HLCTimestamp.counterBits | UInt64(counter))
    }

    /// Packs `milliseconds` and `counter`, clamping `milliseconds` to ``maxMilliseconds``.
    ///
    /// For physical-clock readings, which are never worth trapping or failing over.
    @inlinable
    package init(clampingMilliseconds milliseconds: UInt64, counter: UInt16) {
        let clamped = Swift.min(milliseconds, HLCTimestamp.maxMilliseconds)
        self.init(rawValue: clamped << HLCTimestamp.counterBits | UInt64(counter))
    }

    /// Physical milliseconds since 1970 (the high 48 bits).
    @inlinable
    public var milliseconds: UInt64 {
        rawValue >> HLCTimestamp.counterBits
    }

    /// The logical counter (the low 16 bits).
    @inlinable
    public var counter: UInt16 {
        UInt16(truncatingIfNeeded: rawValue)
    }

    /// Number of bits given to the counter.
    @usableFromInline
    static let counterBits: UInt64 = 16

    /// The smallest timestamp: 1970-01-01T00:00:00.000Z, counter 0. A fresh clock starts here.
    public static let zero = HLCTimestamp(rawValue: 0)

    /// The largest timestamp: ``maxMilliseconds`` with counter 65,535. ``successor()`` saturates here.
    package static let max = HLCTimestamp(rawValue: .max)

    /// The largest representable milliseconds value, 2^48 - 1 (year 10889).
    @usableFromInline package static let maxMilliseconds: UInt64 = (1 << 48) - 1

    /// The next timestamp: counter + 1, a full counter carrying into the milliseconds.
    ///
    /// Saturates at ``max`` instead of trapping; a clock this far in the future has no better answer.
    @inlinable
    package func successor() -> HLCTimestamp {
        rawValue == .max ? self : HLCTimestamp(rawValue: rawValue + 1)
    }

    /// Orders by milliseconds, then counter (the packed integer order).
    @inlinable
    public static func < (lhs: HLCTimestamp, rhs: HLCTimestamp) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension HLCTimestamp: Codable {
    /// Decodes the timestamp from its packed bits as one unsigned integer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(UInt64.self))
    }

    /// Encodes the timestamp as its packed bits, one unsigned integer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
