/// Which elements of a note survive a compaction that drops a given set of tombstones
/// (Docs/FORMAT.md §4.7; used by ``TextSequence/compacted(settled:)`` and to find what is worth
/// proposing, ``TextSequence/droppableTombstones(keeping:)``).
///
/// A tombstone named **settled** may go, unless an element that stays names it as an origin,
/// directly or through other origins: the survivors are the **origin closure** of the visible
/// elements and the unsettled tombstones. Every survivor's origins therefore survive, which is
/// what keeps the compacted state mergeable: an origin-closed subset of a state in rule order
/// (FORMAT.md §4.4) is itself in rule order, because the full state can be rebuilt from it by
/// integrating the rest in causal order, and integration never moves an element already there.
///
/// Within a run, element `k > 0` has element `k − 1` as its left origin, so what survives of a
/// settled run is a prefix of it (nothing, part, or all), and every element of it has the run's
/// right origin. Cost: O(runs) plus a binary search per origin followed.
struct CompactionPlan {
    /// Per run, in the document order given: how many of its elements stay, counted from its
    /// first (0: the run goes; its length: it stays whole).
    private(set) var kept: [UInt32]

    /// Plans the compaction of `runs` (document order; every origin held by one of the runs, as in
    /// any state this library accepts) of a note with `replicaCount` replicas, dropping what it can
    /// of the tombstone runs for which `settled` (called with a run's index) is true. `settled` is
    /// not asked about visible runs: they always stay.
    /// `keeping`: elements that stay whatever is settled (with the elements they name, as any
    /// element that stays). Without `followingRightOrigins` only left origins are followed: not
    /// a compaction (its result is not origin-closed), a measure of what right origins alone
    /// keep (``PayloadBreakdown``).
    init(_ runs: [Run], replicaCount: Int, settled: (Int) -> Bool, keeping: [ItemRef] = [], followingRightOrigins: Bool = true) {
        var kept = [UInt32](repeating: 0, count: runs.count)
        let byID = RunsByID(runs, replicaCount: replicaCount)
        var origins: [ItemRef] = keeping.filter { byID.holds($0, in: runs) }
        for (i, run) in runs.enumerated() where !run.isDeleted || !settled(i) {
            kept[i] = run.length
            origins.append(run.left)
            if followingRightOrigins { origins.append(run.right) }
        }
        while let origin = origins.popLast() {
            guard !origin.isNone else { continue }
            let i = byID.index(byID.last(replica: Int(origin.replica), atMost: origin.seq))
            let run = runs[i]
            assert(run.contains(replica: origin.replica, seq: origin.seq), "an origin no run holds")
            let needed = origin.seq &- run.seq &+ 1
            guard needed > kept[i] else { continue }
            if kept[i] == 0 {
                origins.append(run.left)
                if followingRightOrigins { origins.append(run.right) }
            }
            kept[i] = needed
        }
        self.kept = kept
    }

    /// What stays of `runs` (the runs this plan was made for), in document order: each run that
    /// keeps anything, cut to the prefix it keeps.
    func keptRuns(of runs: [Run]) -> [Run] {
        var out: [Run] = []
        for (i, run) in runs.enumerated() where kept[i] > 0 {
            var part = run
            part.length = kept[i]
            out.append(part)
        }
        return out
    }

    /// Per replica (`0..<replicaCount`), the id ranges that stay, in increasing order.
    func keptRanges(of runs: [Run], replicaCount: Int) -> [[Range<UInt32>]] {
        var out = [[Range<UInt32>]](repeating: [], count: replicaCount)
        for (i, run) in runs.enumerated() where kept[i] > 0 { out[Int(run.replica)].append(run.seq..<run.seq + kept[i]) }
        for r in out.indices { out[r].sort { $0.lowerBound < $1.lowerBound } }
        return out
    }

    /// One replica's clock log (FORMAT.md §1, "Clocks") without the entries whose ids all go:
    /// an entry stays when one of the ids it stamps (from its seq up to the next entry's) is in
    /// `kept` (that replica's ranges, increasing, as ``keptRanges(of:replicaCount:)`` gives
    /// them), and the first entry always stays (it dates the replica's first insertion). Every
    /// id that stays keeps its stamp: an entry that goes only stamped ids that go.
    static func thinnedLog(_ log: [ClockLogEntry], kept: [Range<UInt32>]) -> [ClockLogEntry] {
        var out: [ClockLogEntry] = []
        var k = 0
        for (i, entry) in log.enumerated() {
            let end = i + 1 < log.count ? log[i + 1].seq : UInt32.max
            while k < kept.count && kept[k].upperBound <= entry.seq { k += 1 }
            if i == 0 || (k < kept.count && kept[k].lowerBound < end) { out.append(entry) }
        }
        return out
    }

    /// How many elements go.
    func droppedCount(of runs: [Run]) -> Int {
        zip(runs, kept).reduce(0) { $0 + Int($1.0.length - $1.1) }
    }
}
