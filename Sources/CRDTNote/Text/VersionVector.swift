/// How many characters each replica has inserted, as far as one document knows.
///
/// Deletions are not counted: they travel with every set of changes (see
/// ``NoteText/changes(since:)``), so two documents with equal version vectors hold the
/// same characters but may still differ in which are deleted until they merge.
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
    /// Inserted-character counts per replica (replicas with zero are absent).
    public private(set) var counts: [ReplicaID: UInt64]

    /// Creates a version vector from counts; zero entries are dropped.
    public init(_ counts: [ReplicaID: UInt64] = [:]) {
        self.counts = counts.filter { $0.value > 0 }
    }

    /// The number of characters `replica` has inserted that this vector covers.
    public subscript(replica: ReplicaID) -> UInt64 {
        counts[replica] ?? 0
    }

    /// True when this vector covers at least everything `other` covers.
    public func includes(_ other: VersionVector) -> Bool {
        other.counts.allSatisfy { self[$0.key] >= $0.value }
    }

    /// Raises every entry to the maximum of both vectors.
    package mutating func formUnion(_ other: VersionVector) {
        for (r, n) in other.counts where n > self[r] { counts[r] = n }
    }

    /// Total characters covered (saturating at `UInt64.max` for made-up counts instead of trapping).
    package var totalCount: UInt64 {
        counts.values.reduce(0) { total, n in
            let (sum, overflow) = total.addingReportingOverflow(n)
            return overflow ? .max : sum
        }
    }

    /// The counts by replica id: `"[1: 3, 42: 5]"`.
    public var description: String {
        "[" + counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
