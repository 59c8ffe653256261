/// What a compacted document sends (Docs/FORMAT.md §4.7): the ids it compacted that the
/// receiver has not seen, and the compacted ids of the receiver that its new runs name.
extension TextSequence {
    /// Adds to `set` this document's compacted ids at or past `known` (per replica index, as in
    /// ``changes(since:receiver:copyingContent:)``): the receiver counts them as compacted too.
    func addCompacted(since known: [UInt32], to set: inout ChangeSet) {
        for r in replicas.indices {
            let from = r < known.count ? known[r] : 0
            guard from < nextSeq[r] else { continue }
            leafOf[r].forEachStretch(from: from) { slot, ids in
                if slot == SlotRanges.compacted {
                    set.compacted.append(.init(replica: UInt32(r), seq: ids.lowerBound, length: UInt32(ids.count)))
                }
            }
        }
    }

    /// Adds to `set` (made for `receiver`) the elements `receiver` compacted that the set's
    /// inserts name as origins, or that are `needed` (elements formatting names), directly or
    /// through the origins of other such elements, so they
    /// can be integrated there: a copy that was offline across a compaction typed next to or
    /// inside text the others dropped. Each goes as a deleted insert (a compacted element was
    /// deleted everywhere) of the run prefix up to it; the receiver skips the ids of the prefix it
    /// still holds. This document holds every origin of its runs, so it holds all of them.
    func addRevivals(for receiver: TextSequence, to set: inout ChangeSet, sharingContent: Bool, needed: [ItemRef] = []) {
        var pending: [ItemRef] = needed.filter { Int($0.replica) < replicas.count }
        for ins in set.inserts { pending.append(ins.left); pending.append(ins.right) }
        // Run start (replica << 32 | seq) to the end of the prefix revived and the run's origins.
        var revived: [UInt64: (end: UInt32, left: ItemRef, right: ItemRef)] = [:]
        while let origin = pending.popLast() {
            guard !origin.isNone, let theirs = receiver.replicaIndex[replicas[Int(origin.replica)]] else { continue }
            let t = Int(theirs)
            guard origin.seq < receiver.nextSeq[t], !receiver.leafOf[t].holds(origin.seq),
                  leafOf[Int(origin.replica)].holds(origin.seq) else { continue }
            let run = run(at: locate(origin))
            let key = UInt64(run.replica) << 32 | UInt64(run.seq)
            let end = origin.seq &+ 1
            if let known = revived[key] {
                if known.end >= end { continue }
            } else {
                pending.append(run.left)
                pending.append(run.right)
            }
            revived[key] = (end, run.left, run.right)
        }
        for (key, piece) in revived.sorted(by: { $0.key < $1.key }) {
            let seq = UInt32(truncatingIfNeeded: key)
            set.inserts.append(.init(replica: UInt32(key >> 32), seq: seq, length: piece.end - seq, left: piece.left,
                                     right: piece.right, byteStart: sharingContent ? 0 : UInt32(set.content.count), byteCount: 0, utf16: 0))
        }
    }
}
