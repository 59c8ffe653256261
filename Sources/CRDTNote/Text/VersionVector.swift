/// What one copy of a note holds: how many characters each replica has inserted, and the
/// stamp of the latest formatting operation each replica made, as far as the copy knows.
///
/// Deletions are not counted: they travel with every set of changes (see
/// ``NoteText/changes(since:)``), so two documents with equal version vectors hold the
/// same characters and formatting operations but may still differ in which characters are
/// deleted until they merge.
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
    /// Inserted-character counts per replica (replicas with zero are absent).
    public private(set) var counts: [ReplicaID: UInt64]
    /// Per replica, the stamp of the latest formatting operation (mark, unmark, paragraph
    /// attribute) it made that this copy holds; replicas that made none here are absent. A copy
    /// holds every formatting operation of a replica up to that stamp (each replica's stamps
    /// grow), so ``NoteText/changes(since:)`` sends the later ones.
    public private(set) var formattingStamps: [ReplicaID: HLCTimestamp]

    /// Creates a version vector from counts and formatting stamps; zero entries are dropped.
    public init(_ counts: [ReplicaID: UInt64] = [:], formattingStamps: [ReplicaID: HLCTimestamp] = [:]) {
        self.counts = counts.filter { $0.value > 0 }
        self.formattingStamps = formattingStamps.filter { $0.value > .zero }
    }

    /// The number of characters `replica` has inserted that this vector covers.
    public subscript(replica: ReplicaID) -> UInt64 {
        counts[replica] ?? 0
    }

    /// True when this vector covers at least everything `other` covers: characters and
    /// formatting operations.
    public func includes(_ other: VersionVector) -> Bool {
        includesCharacters(of: other)
            && other.formattingStamps.allSatisfy { author, stamp in formattingStamps[author].map { $0 >= stamp } ?? false }
    }

    /// True when this vector covers at least the characters `other` covers (formatting aside).
    package func includesCharacters(of other: VersionVector) -> Bool {
        other.counts.allSatisfy { self[$0.key] >= $0.value }
    }

    /// Raises every entry to the maximum of both vectors.
    package mutating func formUnion(_ other: VersionVector) {
        for (r, n) in other.counts where n > self[r] { counts[r] = n }
        for (r, stamp) in other.formattingStamps where formattingStamps[r].map({ stamp > $0 }) ?? true { formattingStamps[r] = stamp }
    }

    /// Total characters covered (saturating at `UInt64.max` for made-up counts instead of trapping).
    package var totalCount: UInt64 {
        counts.values.reduce(0) { total, n in
            let (sum, overflow) = total.addingReportingOverflow(n)
            return overflow ? .max : sum
        }
    }

    /// The counts by replica id: `"[1: 3, 42: 5]"`, followed by the formatting stamps when there
    /// are any: `"[1: 3, 42: 5] formatting [42: 2026-11-21T12:00:00.123Z#5]"`.
    public var description: String {
        let text = "[" + counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
        guard !formattingStamps.isEmpty else { return text }
        return text + " formatting [" + formattingStamps.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
