/// How many runs name each run of a list (document order, every origin held) as their left
/// origin and as their right origin: what tells a compaction's measures (``GroupChains``,
/// ``Reparenting``) which tombstones one run alone keeps.
struct OriginCounts {
    private let byID: RunsByID
    /// Per run index: the runs naming one of its elements as left origin, and as right origin.
    private(set) var asLeft: [UInt32]
    private(set) var asRight: [UInt32]

    init(_ runs: [Run], replicaCount: Int) {
        byID = RunsByID(runs, replicaCount: replicaCount)
        asLeft = [UInt32](repeating: 0, count: runs.count)
        asRight = asLeft
        for run in runs {
            if !run.left.isNone { asLeft[holder(run.left)] += 1 }
            if !run.right.isNone { asRight[holder(run.right)] += 1 }
        }
    }

    /// The index of the run holding `ref` (an element the runs hold).
    func holder(_ ref: ItemRef) -> Int { byID.index(byID.last(replica: Int(ref.replica), atMost: ref.seq)) }
}
