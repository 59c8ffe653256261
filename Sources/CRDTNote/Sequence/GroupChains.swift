/// Group chains of tombstones that only right origins keep (issue 31): what a compaction keeps
/// of a note whose text is typed at the same place again and again, most often its start.
///
/// Text typed at the start of a note is a child of the document start, and to come first it
/// names the first child there as its right origin: it joins that child's **group** (FORMAT.md
/// §4.4, "Siblings"). That child, typed the same way, named the one before it. So every line
/// ever typed at the top of a to-do list is linked to the previous one, and when they are
/// deleted, each stays (as its first element) because the next one names it: an origin-closed
/// compaction (``CompactionPlan``) keeps the whole chain, and it grows with every line typed
/// there (`crdtnote-bench growth`: 342 of the 392 tombstone runs kept after 60,000 edits).
///
/// A **linear chain** hanging from a kept run `X` is a sequence of tombstone runs `T1 … Tn`
/// (n ≥ 2), each of one element (what a compaction keeps of a run only a right origin names),
/// each a child of `X`'s parent, where `X` names `T1` as its right origin, `Ti` names `Ti+1`, and
/// nothing else kept names any of them. ``repointed(_:replicaCount:replicaIDs:droppable:)`` says
/// what the runs would be with `X` naming `Tn` directly and `T1 … Tn−1` gone, and checks that
/// the result is still in the rule's order (FORMAT.md §4.4): then the rule gives the elements
/// that stay the order they have now. Compactions use it once every active device reads format
/// 7 (``ChainRepointing``), and `PayloadBreakdown` measures it: dropping a chain changes an
/// element's right origin, which a copy that still holds the chain keeps; merges reconcile the
/// two (``TextSequence/reconcileRightOrigins(with:listed:)``; Docs/FORMAT.md §4.7, "Re-pointed
/// right origins").
enum GroupChains {
    /// The result of re-pointing every linear chain of `runs` (document order, every origin held,
    /// as in any state a reader accepts) whose members `droppable` allows (called with a run's
    /// index; asked only about tombstone runs), or nil when the result would not be in the rule's
    /// order. `repointed`: the runs that name a new right origin (as in `runs`); `dropped`: how
    /// many runs go.
    static func repointed(_ runs: [Run], replicaCount: Int, replicaIDs: [ReplicaID], droppable: (Int) -> Bool)
        -> (runs: [Run], repointed: [Run], dropped: Int)? {
        let named = OriginCounts(runs, replicaCount: replicaCount)
        var out = runs
        var drop = [Bool](repeating: false, count: runs.count)
        var repointed: [Run] = []
        var dropped = 0
        // The run `ref` names, when it can be a member of a chain under `parent`.
        func member(_ ref: ItemRef, parent: ItemRef) -> Int? {
            guard !ref.isNone else { return nil }
            let i = named.holder(ref)
            let t = runs[i]
            guard t.isDeleted, !drop[i], t.length == 1, t.seq == ref.seq, t.left == parent,
                  named.asLeft[i] == 0, named.asRight[i] == 1, droppable(i) else { return nil }
            return i
        }
        for x in runs.indices where !drop[x] {
            let parent = runs[x].left
            guard var last = member(runs[x].right, parent: parent) else { continue }
            var chain = [last]
            while let next = member(runs[last].right, parent: parent) {
                chain.append(next)
                last = next
            }
            guard chain.count >= 2 else { continue }
            out[x].right = ItemRef(replica: runs[last].replica, seq: runs[last].seq)
            for i in chain.dropLast() { drop[i] = true }
            repointed.append(out[x])
            dropped += chain.count - 1
        }
        guard dropped > 0 else { return (runs, [], 0) }
        let kept = zip(out, drop).compactMap { $1 ? nil : $0 }
        guard IntegrationOrder.firstViolation(kept, byID: RunsByID(kept, replicaCount: replicaCount), replicaIDs: replicaIDs) == nil else {
            return nil
        }
        return (kept, repointed, dropped)
    }
}
