/// What the copies of one note have seen, so a copy can tell which deleted characters every
/// device has seen deleted and may drop them (Docs/FORMAT.md §4.7, "When tombstones settle").
/// Stored in format 3 payloads; merged when copies merge, by pointwise maximum and union, so
/// merging stays commutative, associative and idempotent.
///
/// Stamp vectors map a replica to the latest stamp of its operations (insertions and
/// deletions) a copy holds (``TextSequence/latestStamp``). A copy that holds a replica's
/// operation stamped `t` holds all that replica's operations up to `t`: copies only ever take in
/// whole states (or everything another copy lacks), never a part of one.
struct CompactionLedger: Sendable, Equatable {
    /// Per device (its replica id): the stamp vector of its copy when it last wrote the note.
    var seen: [ReplicaID: [ReplicaID: HLCTimestamp]] = [:]
    /// The pending proposal's vector: the stamp vector of the copy that proposed it (or the
    /// pointwise maximum of concurrent proposals). Empty when nothing is proposed.
    var cut: [ReplicaID: HLCTimestamp] = [:]
    /// The tombstones proposed, per replica (id ranges, increasing, disjoint): every one was
    /// deleted in the proposing copy, so every copy that has seen `cut` has it deleted.
    var proposed: [ReplicaID: [Range<UInt32>]] = [:]
    /// Ids whose right origin in this copy may not be the one they were inserted with: a
    /// compaction re-pointed it past dropped tombstones, here or in a copy merged in (per replica,
    /// id ranges, increasing, disjoint; format 7, Docs/FORMAT.md §4.7, "Re-pointed right
    /// origins"). Merges reconcile these ids' right origins (``TextSequence/reconcileRightOrigins(with:listed:)``).
    var repointed: [ReplicaID: [Range<UInt32>]] = [:]

    var isEmpty: Bool { seen.isEmpty && cut.isEmpty && proposed.isEmpty && repointed.isEmpty }

    /// Whether `vector` holds everything `cut` names: pointwise at least as late.
    static func covers(_ vector: [ReplicaID: HLCTimestamp], _ cut: [ReplicaID: HLCTimestamp]) -> Bool {
        cut.allSatisfy { replica, stamp in (vector[replica] ?? .zero) >= stamp }
    }

    /// Whether a proposal is pending and every device of `devices` (each given by the replica ids
    /// it writes with; one of them must have written the note) has seen its cut.
    func isSettled(devices: [Set<ReplicaID>]) -> Bool {
        guard !proposed.isEmpty else { return false }
        return devices.allSatisfy { replicas in
            replicas.contains { seen[$0].map { Self.covers($0, cut) } ?? false }
        }
    }

    /// Takes in `other`: seen vectors and cuts by pointwise maximum, proposals by union.
    mutating func merge(_ other: CompactionLedger) {
        for (device, vector) in other.seen { seen[device] = Self.maximum(seen[device] ?? [:], vector) }
        cut = Self.maximum(cut, other.cut)
        for (replica, ranges) in other.proposed { proposed[replica] = IDRanges.union(proposed[replica] ?? [], ranges) }
        for (replica, ranges) in other.repointed { repointed[replica] = IDRanges.union(repointed[replica] ?? [], ranges) }
    }

    static func maximum(_ a: [ReplicaID: HLCTimestamp], _ b: [ReplicaID: HLCTimestamp]) -> [ReplicaID: HLCTimestamp] {
        a.merging(b) { Swift.max($0, $1) }
    }
}
