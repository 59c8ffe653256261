/// A timestamp together with the replica that issued it: a total order over all events.
///
/// Two replicas can issue the same ``HLCTimestamp``; ordering by timestamp first and replica id
/// second makes every pair of distinct events comparable, identically on every device.
///
/// ```swift
/// let a = ClockStamp(timestamp: t, replica: ReplicaID(rawValue: 1))
/// let b = ClockStamp(timestamp: t, replica: ReplicaID(rawValue: 2))
/// a < b   // true: same time, lower replica id first
/// ```
package struct ClockStamp: Hashable, Comparable, Sendable, Codable {
    /// When the event happened.
    package var timestamp: HLCTimestamp
    /// Who issued it.
    package var replica: ReplicaID

    /// Pairs `timestamp` with the `replica` that issued it.
    @inlinable
    package init(timestamp: HLCTimestamp, replica: ReplicaID) {
        self.timestamp = timestamp
        self.replica = replica
    }

    /// Orders by timestamp, then by replica id.
    @inlinable
    package static func < (lhs: ClockStamp, rhs: ClockStamp) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        return lhs.replica < rhs.replica
    }
}

extension ClockStamp: CustomStringConvertible {
    /// The timestamp, `@`, then the replica id: `"2026-11-21T12:00:00.123Z#5@42"`.
    package var description: String {
        "\(timestamp)@\(replica)"
    }
}
