/// Re-pointed right origins (Docs/FORMAT.md §4.7, "Re-pointed right origins"): a compaction
/// that drops a group chain (``GroupChains``) makes the run that named it name the chain's last
/// member instead, so two copies may hold one id with different right origins. Merges settle on
/// the **earlier** of the two in the document: the one re-pointed less far, which a copy that
/// still holds the chain (or that revives it from the other) orders exactly as before any
/// compaction. A later one is taken only by a later compaction, where it is checked to keep the
/// order. So every copy ends with the same right origins, whatever the merge order.
extension TextSequence {
    /// One id range whose right origin a merge takes from the other copy.
    struct Adoption {
        var replica: UInt32
        var ids: Range<UInt32>
        var right: ItemRef
    }

    /// The right origins (as this document names them) of its runs holding ids of `listed` that
    /// `receiver` holds with another right origin and lacks (compacted there): what a merge into
    /// `receiver` revives, so the earlier right origin can be taken there.
    func rightOriginsToRevive(for receiver: TextSequence, listed: [ReplicaID: [Range<UInt32>]]) -> [ItemRef] {
        var out: [ItemRef] = []
        for (id, ranges) in listed {
            guard let r = replicaIndex[id].map(Int.init), let theirs = receiver.replicaIndex[id].map(Int.init) else { continue }
            for range in ranges {
                forEachHeldRun(replica: r, in: range) { ids, run in
                    guard let right = mapped(run.right, into: receiver), !right.isNone, !receiver.holdsElement(right),
                          receiver.holdsElement(ItemRef(replica: UInt32(theirs), seq: ids.lowerBound)) else { return }
                    out.append(run.right)
                }
            }
        }
        return out
    }

    /// For the ids of `listed` (per replica id, ranges: the re-pointed ids of either copy) that
    /// both this document and `theirs` hold: where `theirs` names a right origin that this
    /// document holds (revived by the merge if need be), that is a sibling of the first element of
    /// its run there, and that lies before the one named here, takes it, and lays the document out
    /// again in the rule's order.
    /// Returns the ranges whose right origin changed here, per replica id. Throws
    /// ``ChangeSetError/Code/inconsistent``, changing nothing, when the result would not be in
    /// the rule's order (copies that contradict each other).
    mutating func reconcileRightOrigins(with theirs: TextSequence, listed: [ReplicaID: [Range<UInt32>]]) throws(ChangeSetError)
        -> [ReplicaID: [Range<UInt32>]] {
        let saved = self
        var changed: [ReplicaID: [Range<UInt32>]] = [:]
        // Taking a right origin moves the run, which may put another copy's right origin before
        // this one's where it lay after it (a run re-pointed past a chain whose own first run
        // goes back to it): so again until nothing changes. Each id takes the other copy's right
        // origin at most once, so this ends.
        while true {
            let adoptions = adoptions(from: theirs, listed: listed)
            guard !adoptions.isEmpty else { break }
            adopt(adoptions)
            for a in adoptions { changed[replicas[Int(a.replica)], default: []].append(a.ids) }
        }
        guard !changed.isEmpty else { return [:] }
        if let violation = ruleOrderViolation() {
            self = saved
            throw ChangeSetError(.inconsistent, "the copies' right origins contradict each other: \(violation)")
        }
        return changed.mapValues { IDRanges.union($0, []) }
    }

    /// The ids of `listed` whose right origin this document takes from `theirs` as it is laid
    /// out now (``adoptionsHere(replica:ids:theirRight:parent:)``).
    private func adoptions(from theirs: TextSequence, listed: [ReplicaID: [Range<UInt32>]]) -> [Adoption] {
        var out: [Adoption] = []
        for (id, ranges) in listed {
            guard let rt = theirs.replicaIndex[id].map(Int.init), let r = replicaIndex[id].map(Int.init) else { continue }
            for range in ranges {
                theirs.forEachHeldRun(replica: rt, in: range) { ids, run in
                    out += adoptionsHere(replica: r, ids: ids, theirRight: theirs.mapped(run.right, into: self),
                                         parent: theirs.mapped(run.left, into: self))
                }
            }
        }
        return out
    }

    /// Calls `body` with each stretch of `range` (ids of replica `r`) this document holds within
    /// one run, with that run.
    func forEachHeldRun(replica r: Int, in range: Range<UInt32>, _ body: (Range<UInt32>, Run) -> Void) {
        var s = range.lowerBound
        let end = Swift.min(range.upperBound, nextSeq[r])
        while s < end {
            let stretch = leafOf[r].stretch(at: s)
            guard stretch.slot != SlotRanges.compacted else {
                s = stretch.end
                continue
            }
            let run = run(at: locate(ItemRef(replica: UInt32(r), seq: s)))
            let t = Swift.min(run.seqEnd, end)
            body(s..<t, run)
            s = t
        }
    }

    /// `ref` (an origin in this document) as `other` names it: nil when `other` lacks its replica.
    func mapped(_ ref: ItemRef, into other: TextSequence) -> ItemRef? {
        guard !ref.isNone else { return ItemRef.none }
        return other.replicaIndex[replicas[Int(ref.replica)]].map { ItemRef(replica: $0, seq: ref.seq) }
    }

    /// The parts of `ids` (replica `r`, held or not here; part of one run of the other copy,
    /// whose first element's left origin is `parent`) that should take `theirRight`: held here
    /// with another right origin that lies after it (none lies after everything). The new right
    /// origin must be a sibling of that run's first element (as the chain members a compaction
    /// skips are), so the result is a state the rule accepts.
    private func adoptionsHere(replica r: Int, ids: Range<UInt32>, theirRight: ItemRef?, parent: ItemRef?) -> [Adoption] {
        guard let theirRight, let parent, !theirRight.isNone, holdsElement(theirRight), holdsElement(parent),
              leftOrigin(of: theirRight) == parent else { return [] }
        let position = locate(theirRight)
        var out: [Adoption] = []
        forEachHeldRun(replica: r, in: ids) { piece, mine in
            guard mine.right != theirRight, mine.right.isNone || position < locate(mine.right) else { return }
            out.append(Adoption(replica: UInt32(r), ids: piece, right: theirRight))
        }
        return out
    }

    /// Whether `ref` is none or an element this document holds.
    func holdsElement(_ ref: ItemRef) -> Bool {
        ref.isNone || (Int(ref.replica) < leafOf.count && leafOf[Int(ref.replica)].holds(ref.seq))
    }

    /// The left origin of element `ref` (held here).
    func leftOrigin(of ref: ItemRef) -> ItemRef {
        let run = run(at: locate(ref))
        return ref.seq == run.seq ? run.left : ItemRef(replica: ref.replica, seq: ref.seq &- 1)
    }

    /// Gives the ids of `adoptions` their new right origins (cutting runs where they start and
    /// end) and lays the document out again in the rule's order.
    private mutating func adopt(_ adoptions: [Adoption]) {
        typingCursor = nil
        editCursor = nil
        flushSlotCounts()
        // Per replica, by first id (the ranges are disjoint): a run finds its own by binary search.
        var byReplica: [UInt32: [Adoption]] = [:]
        for a in adoptions { byReplica[a.replica, default: []].append(a) }
        for key in byReplica.keys { byReplica[key]?.sort { $0.ids.lowerBound < $1.ids.lowerBound } }
        var all: [Run] = []
        all.reserveCapacity(runCount + 2 * adoptions.count)
        for slot in order {
            for run in leaves[Int(slot)] {
                var list: [Adoption] = []
                if let sorted = byReplica[run.replica] {
                    var low = 0, high = sorted.count
                    while low < high {
                        let mid = (low + high) / 2
                        if sorted[mid].ids.upperBound <= run.seq { low = mid + 1 } else { high = mid }
                    }
                    while low < sorted.count, sorted[low].ids.lowerBound < run.seqEnd {
                        list.append(sorted[low])
                        low += 1
                    }
                }
                guard !list.isEmpty else {
                    all.append(run)
                    continue
                }
                let cuts = Set(list.flatMap { [$0.ids.lowerBound, $0.ids.upperBound] }).filter { $0 > run.seq && $0 < run.seqEnd }.sorted()
                var rest = run
                for c in cuts + [run.seqEnd] {
                    var piece = rest
                    if c < rest.seqEnd { (piece, rest) = cut(rest, at: c - rest.seq) }
                    if let a = list.first(where: { $0.ids.contains(piece.seq) }) { piece.right = a.right }
                    all.append(piece)
                }
            }
        }
        layOutInRuleOrder(all)
    }

    /// Per replica id, the parts of `ranges` this document holds.
    func heldParts(of ranges: [ReplicaID: [Range<UInt32>]]) -> [ReplicaID: [Range<UInt32>]] {
        var out: [ReplicaID: [Range<UInt32>]] = [:]
        for (id, list) in ranges {
            guard let r = replicaIndex[id].map(Int.init) else { continue }
            var held: [Range<UInt32>] = []
            for range in list { forEachHeldRun(replica: r, in: range) { ids, _ in held.append(ids) } }
            if !held.isEmpty { out[id] = IDRanges.union(held, []) }
        }
        return out
    }
}
