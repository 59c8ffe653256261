/// The id index of a set of runs: per replica, the leaf slot of each id (``SlotRanges``) and the
/// ids below `nextSeq` that no run holds (compacted ids, Docs/FORMAT.md §4.7), which map to
/// ``SlotRanges/compacted``. Built wherever a tree is laid out from runs at once: the snapshot
/// decoder, merges that integrate at once, compaction.
struct IDIndex {
    var leafOf: [SlotRanges]
    /// Per replica, the compacted id ranges, increasing.
    var holes: [[Range<UInt32>]]

    /// `runs` listed by id in `byID` (each id at most once, within `nextSeq`); `slot(i)` is the
    /// leaf slot of run `i`.
    init(_ runs: [Run], byID: RunsByID, nextSeq: [UInt32], slot: (Int) -> Int32) {
        leafOf = [SlotRanges](repeating: SlotRanges(), count: nextSeq.count)
        holes = [[Range<UInt32>]](repeating: [], count: nextSeq.count)
        for r in nextSeq.indices {
            var next: UInt32 = 0
            for k in byID.start[r]..<byID.start[r + 1] {
                let run = runs[byID.index(k)]
                if run.seq > next { addHole(next..<run.seq, replica: r) }
                leafOf[r].append(Int(run.length), slot: slot(byID.index(k)))
                next = run.seqEnd
            }
            if nextSeq[r] > next { addHole(next..<nextSeq[r], replica: r) }
        }
    }

    /// Whether any replica has compacted ids.
    var hasHoles: Bool { holes.contains { !$0.isEmpty } }

    private mutating func addHole(_ ids: Range<UInt32>, replica r: Int) {
        leafOf[r].append(ids.count, slot: SlotRanges.compacted)
        holes[r].append(ids)
    }
}
