/// Compaction (Docs/FORMAT.md §4.7): a document without the tombstones nothing needs any more.
extension TextSequence {
    /// This document without the tombstones for which `settled` is true (called with each
    /// tombstone run, in document order), except those an element that stays names as an origin,
    /// directly or through other origins (``CompactionPlan``). The ids that go are compacted:
    /// still counted (`nextSeq` is unchanged) and deleted, held by no run. Clock-log entries that
    /// stamp no visible id go too (the first of each replica stays): tombstones keep no exact
    /// stamps once compacted. The visible text, every visible id and the order of what stays are
    /// unchanged, so merging the result with any copy gives the text merging this document gives.
    func compacted(settled: (Run) -> Bool) -> TextSequence {
        let runs = runsInOrder()
        let plan = CompactionPlan(runs, replicaCount: replicas.count, settled: { settled(runs[$0]) })
        let kept = plan.keptRuns(of: runs)
        var visible = [[Range<UInt32>]](repeating: [], count: replicas.count)
        for run in kept where !run.isDeleted { visible[Int(run.replica)].append(run.seq..<run.seqEnd) }
        let logs = clockLog.enumerated().map { r, log in
            CompactionPlan.thinnedLog(log.entries, kept: visible[r].sorted { $0.lowerBound < $1.lowerBound })
        }
        let index = IDIndex(kept, byID: RunsByID(kept, replicaCount: replicas.count), nextSeq: nextSeq,
                            slot: { Int32($0 / Self.bulkLeafFill) })
        return TextSequence(replicas: replicas, nextSeq: nextSeq, latest: latestStamp, logs: logs,
                            content: content, runs: kept, index: index)
    }
}
