/// Compaction (Docs/FORMAT.md §4.7): a document without the tombstones nothing needs any more.
extension TextSequence {
    /// This document without the settled tombstones (per replica index, id ranges increasing and
    /// disjoint; nil: every tombstone), except those an element that stays names as an origin,
    /// directly or through other origins (``CompactionPlan``). The ids that go are compacted:
    /// still counted (`nextSeq` is unchanged) and deleted, held by no run. Clock-log entries that
    /// stamp no visible id go too (the first of each replica stays): tombstones keep no exact
    /// stamps once compacted. The visible text, every visible id and the order of what stays are
    /// unchanged, so merging the result with any copy gives the text merging this document gives.
    func compacted(settled: [Int: [Range<UInt32>]]?) -> TextSequence {
        compacted(settled: settled, collectingShadows: false).sequence
    }

    /// ``compacted(settled:)``, and with `collectingShadows` the shadows of what goes
    /// (``ShadowRun``) and the clock-log entries that go, per replica: what a note's history
    /// keeps of them (Docs/FORMAT.md §11.6).
    ///
    /// With `repointable` (format 7 asked: Docs/FORMAT.md §4.7, "Re-pointed right origins"), the
    /// linear group chains left whose members are settled and `repointable` (asked of a replica
    /// index and ids: the history reads the past of none of them) are re-pointed
    /// (``GroupChains``): the run naming a chain names its last member, the others go, with no
    /// shadow (the history reads none of them, and none that the shadow of a stretch dropped now
    /// whose past the history reads names as an origin goes). `repointed`: per replica index,
    /// the ids that now name another right origin (increasing, disjoint ranges), for the
    /// ledger's list.
    func compacted(settled: [Int: [Range<UInt32>]]?, collectingShadows: Bool,
                   repointable: ((_ replica: UInt32, _ seqs: Range<UInt32>) -> Bool)? = nil)
        -> (sequence: TextSequence, shadows: [ShadowRun], stamps: [ReplicaID: [ClockLogEntry]], repointed: [Int: [Range<UInt32>]]) {
        // Tombstone runs cut where settled ranges start and end, so each piece is settled or not.
        var runs: [Run] = []
        var isSettled: [Bool] = []
        runs.reserveCapacity(runCount)
        forEachRun { run in
            guard run.isDeleted, let settled else {
                runs.append(run)
                isSettled.append(run.isDeleted)
                return
            }
            var rest = run
            for range in settled[Int(run.replica)] ?? [] where range.upperBound > rest.seq && range.lowerBound < rest.seqEnd {
                if range.lowerBound > rest.seq {
                    let (head, tail) = cut(rest, at: range.lowerBound - rest.seq)
                    runs.append(head); isSettled.append(false)
                    rest = tail
                }
                if range.upperBound < rest.seqEnd {
                    let (head, tail) = cut(rest, at: range.upperBound - rest.seq)
                    runs.append(head); isSettled.append(true)
                    rest = tail
                } else {
                    runs.append(rest); isSettled.append(true)
                    return
                }
            }
            runs.append(rest); isSettled.append(false)
        }
        let plan = CompactionPlan(runs, replicaCount: replicas.count, settled: { isSettled[$0] })
        var kept = plan.keptRuns(of: runs)
        var repointed: [Int: [Range<UInt32>]] = [:]
        if let repointable {
            let closed = kept
            // The shadows made now of stretches whose past the history reads name their origins;
            // those stay, so the past still places them.
            var shadowOrigins = Set<ItemRef>()
            if collectingShadows {
                for (i, run) in runs.enumerated() where plan.kept[i] < run.length
                    && !repointable(run.replica, run.seq + plan.kept[i]..<run.seqEnd) {
                    shadowOrigins.insert(plan.kept[i] > 0 ? ItemRef(replica: run.replica, seq: run.seq + plan.kept[i] - 1) : run.left)
                    shadowOrigins.insert(run.right)
                }
            }
            let chains = GroupChains.repointed(closed, replicaCount: replicas.count, replicaIDs: replicas) { i in
                let ref = ItemRef(replica: closed[i].replica, seq: closed[i].seq)
                return (settled.map { IDRanges.contains($0[Int(ref.replica)] ?? [], ref.seq..<ref.seq + 1) } ?? true)
                    && !shadowOrigins.contains(ref) && repointable(ref.replica, ref.seq..<ref.seq + 1)
            }
            if let chains, chains.dropped > 0 {
                kept = chains.runs
                for run in chains.repointed { repointed[Int(run.replica), default: []].append(run.seq..<run.seqEnd) }
                repointed = repointed.mapValues { IDRanges.union($0, []) }
            }
        }
        var visible = [[Range<UInt32>]](repeating: [], count: replicas.count)
        for run in kept where !run.isDeleted { visible[Int(run.replica)].append(run.seq..<run.seqEnd) }
        let logs = clockLog.enumerated().map { r, log in
            CompactionPlan.thinnedLog(log.entries, kept: visible[r].sorted { $0.lowerBound < $1.lowerBound })
        }
        let index = IDIndex(kept, byID: RunsByID(kept, replicaCount: replicas.count), nextSeq: nextSeq,
                            slot: { Int32($0 / Self.bulkLeafFill) })
        var stamps: [ReplicaID: [ClockLogEntry]] = [:]
        if collectingShadows {
            for (r, log) in clockLog.enumerated() where log.entries.count > logs[r].count {
                let staying = Set(logs[r].map(\.seq))
                stamps[replicas[r]] = log.entries.filter { !staying.contains($0.seq) }
            }
        }
        return (TextSequence(replicas: replicas, nextSeq: nextSeq, latest: latestStamp, logs: logs,
                             content: content, runs: kept, index: index),
                collectingShadows ? shadows(droppedBy: plan, of: runs) : [], stamps, repointed)
    }

    /// Per replica index, the ids of the tombstones a compaction that settled every tombstone
    /// would drop (increasing, disjoint ranges): what is worth proposing. Tombstones that visible
    /// text names as origins, directly or through other tombstones, stay out until it is deleted.
    /// `keeping`: elements that must stay (with their origins) whatever is settled.
    /// With `repointable`, the members of linear group chains that a compaction re-pointing them
    /// would drop (``compacted(settled:collectingShadows:repointable:)``) are proposed too.
    func droppableTombstones(keeping: [ItemRef] = [], repointable: ((_ replica: UInt32, _ seqs: Range<UInt32>) -> Bool)? = nil)
        -> [Int: [Range<UInt32>]] {
        let runs = runsInOrder()
        let plan = CompactionPlan(runs, replicaCount: replicas.count, settled: { _ in true }, keeping: keeping)
        var out: [Int: [Range<UInt32>]] = [:]
        for (i, run) in runs.enumerated() where run.isDeleted && plan.kept[i] < run.length {
            out[Int(run.replica), default: []].append(run.seq + plan.kept[i]..<run.seqEnd)
        }
        if let repointable {
            let kept = plan.keptRuns(of: runs)
            let keptElements = Set(keeping)
            if let chains = GroupChains.repointed(kept, replicaCount: replicas.count, replicaIDs: replicas, droppable: { i in
                let ref = ItemRef(replica: kept[i].replica, seq: kept[i].seq)
                return !keptElements.contains(ref) && repointable(ref.replica, ref.seq..<ref.seq + 1)
            }), chains.dropped > 0 {
                let staying = Set(chains.runs.map { ItemRef(replica: $0.replica, seq: $0.seq) })
                for run in kept where run.isDeleted && !staying.contains(ItemRef(replica: run.replica, seq: run.seq)) {
                    out[Int(run.replica), default: []].append(run.seq..<run.seqEnd)
                }
            }
        }
        return out.mapValues { IDRanges.union($0, []) }
    }

    /// How many tombstone runs a compaction of every tombstone would keep if only left origins
    /// counted: those the visible text names through left origins, directly or through other
    /// tombstones. The rest of what it keeps (``droppableTombstones(keeping:)``) is named through
    /// right origins: a measure for `crdtnote-bench growth` (``PayloadBreakdown``).
    func tombstoneRunsKeptByLeftOrigins() -> Int {
        let runs = runsInOrder()
        let plan = CompactionPlan(runs, replicaCount: replicas.count, settled: { _ in true }, followingRightOrigins: false)
        return zip(runs, plan.kept).reduce(0) { $0 + ($1.0.isDeleted && $1.1 > 0 ? 1 : 0) }
    }

    /// Per replica index, the ids of every tombstone (increasing, disjoint ranges).
    func tombstoneRanges() -> [Int: [Range<UInt32>]] {
        var out: [Int: [Range<UInt32>]] = [:]
        forEachRun { run in if run.isDeleted { out[Int(run.replica), default: []].append(run.seq..<run.seqEnd) } }
        return out.mapValues { IDRanges.union($0, []) }
    }
}
