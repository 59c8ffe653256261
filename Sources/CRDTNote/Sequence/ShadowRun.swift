/// A stretch of tombstones a compaction dropped, as a note's history keeps it (Docs/FORMAT.md
/// §11.6): enough to put the stretch back where it was, as tombstones, when the past is read.
/// Replicas are named by id, not by index, so shadows travel between copies unchanged.
struct ShadowRun: Hashable, Sendable {
    /// One origin: an element by replica id and seq; nil is none (the start or the end).
    struct Origin: Hashable, Sendable {
        var replica: ReplicaID
        var seq: UInt32
    }

    /// The inserting replica, and the ids (consecutive, never empty).
    var inserter: ReplicaID
    var seqs: Range<UInt32>
    /// The first element's left origin (each later element's is its predecessor), and the
    /// right origin of them all.
    var left: Origin?
    var right: Origin?

    /// Orders shadows by inserter, then first seq, so a set of shadows has one order.
    static func precedes(_ a: ShadowRun, _ b: ShadowRun) -> Bool {
        if a.inserter != b.inserter { return a.inserter < b.inserter }
        if a.seqs.lowerBound != b.seqs.lowerBound { return a.seqs.lowerBound < b.seqs.lowerBound }
        return a.seqs.upperBound < b.seqs.upperBound
    }
}

extension TextSequence {
    /// The shadows of what a compaction planned by `plan` over `runs` (this document's runs in
    /// document order) drops: per run, the elements past the prefix it keeps.
    func shadows(droppedBy plan: CompactionPlan, of runs: [Run]) -> [ShadowRun] {
        var out: [ShadowRun] = []
        for (i, run) in runs.enumerated() where plan.kept[i] < run.length {
            let first = run.seq + plan.kept[i]
            let left = plan.kept[i] > 0 ? ItemRef(replica: run.replica, seq: first - 1) : run.left
            out.append(ShadowRun(inserter: replicas[Int(run.replica)], seqs: first..<run.seqEnd, left: origin(left), right: origin(run.right)))
        }
        return out
    }

    /// This document with `shadows` put back as tombstones where the CRDT's order puts them, and
    /// `stamps` (clock-log entries compactions dropped, per replica) back in the logs: the
    /// document as it was before the compactions, for reading the past. Shadows of ids this
    /// document holds or has never counted are skipped, and so are those naming an origin
    /// neither this document nor a shadow put back holds (the history trimmed it). Nil when the
    /// CRDT refuses what is left.
    func restoringShadows(_ shadows: [ShadowRun], stamps: [ReplicaID: [ClockLogEntry]]) -> TextSequence? {
        var set = ChangeSet()
        set.replicas = replicas
        func ref(_ origin: ShadowRun.Origin?) -> ItemRef? {
            guard let origin else { return ItemRef.none }
            return replicaIndex[origin.replica].map { ItemRef(replica: $0, seq: origin.seq) }
        }
        for shadow in hasCompactedIDs ? placeable(shadows) : [] {
            guard let r = replicaIndex[shadow.inserter], let left = ref(shadow.left), let right = ref(shadow.right) else { continue }
            set.inserts.append(ChangeSet.Insert(replica: r, seq: shadow.seqs.lowerBound, length: UInt32(shadow.seqs.count),
                                                left: left, right: right, byteStart: 0, byteCount: 0, utf16: 0))
        }
        var out = self
        if !set.inserts.isEmpty {
            set.clockLogs = Array(repeating: [], count: replicas.count)
            set.latestStamps = latestStamp
            do {
                _ = try out.apply(set)
            } catch {
                return nil
            }
        }
        for (replica, added) in stamps {
            guard let r = replicaIndex[replica].map(Int.init), !added.isEmpty else { continue }
            out.clockLog[r] = ClockLog(ShadowRun.union(out.clockLog[r].entries, added.filter { $0.seq < out.nextSeq[r] }))
        }
        return out
    }

    /// Of `shadows` (normalized), those of ids this document counts but does not hold whose
    /// origins this document holds or another of them does (repeatedly): the ones
    /// ``restoringShadows(_:)`` can put back.
    private func placeable(_ shadows: [ShadowRun]) -> [ShadowRun] {
        let pool = shadows.filter { shadow in
            guard let r = replicaIndex[shadow.inserter] else { return false }
            return shadow.seqs.upperBound <= nextSeq[Int(r)] && leafOf[Int(r)].anyCompacted(in: shadow.seqs)
        }
        // A shadow naming an origin nothing holds cannot go back, nor can any shadow naming it,
        // directly or through others: one pass to find them, then a worklist over who names whom.
        var refused = [Bool](repeating: false, count: pool.count)
        var namedBy = [[Int]](repeating: [], count: pool.count)
        var work: [Int] = []
        for (k, shadow) in pool.enumerated() {
            for origin in [shadow.left, shadow.right].compactMap({ $0 }) {
                if let r = replicaIndex[origin.replica], origin.seq < nextSeq[Int(r)], leafOf[Int(r)].holds(origin.seq) { continue }
                if let j = ShadowRun.index(of: origin, in: pool) {
                    namedBy[j].append(k)
                } else if !refused[k] {
                    refused[k] = true
                    work.append(k)
                }
            }
        }
        while let j = work.popLast() {
            for k in namedBy[j] where !refused[k] {
                refused[k] = true
                work.append(k)
            }
        }
        return zip(pool, refused).filter { !$0.1 }.map(\.0)
    }

    /// `ref` by replica id (nil for none).
    private func origin(_ ref: ItemRef) -> ShadowRun.Origin? {
        ref.isNone ? nil : ShadowRun.Origin(replica: replicas[Int(ref.replica)], seq: ref.seq)
    }
}

extension ShadowRun {
    /// `shadows` sorted, repeats dropped and overlaps cut away (two copies may have dropped
    /// overlapping stretches of one run: the ids they share have the same origins), so equal
    /// sets of ids give equal arrays.
    static func normalized(_ shadows: [ShadowRun]) -> [ShadowRun] {
        var out: [ShadowRun] = []
        out.reserveCapacity(shadows.count)
        for shadow in shadows.sorted(by: precedes) {
            guard let last = out.last, last.inserter == shadow.inserter, last.seqs.upperBound > shadow.seqs.lowerBound else {
                out.append(shadow)
                continue
            }
            guard shadow.seqs.upperBound > last.seqs.upperBound else { continue }
            out.append(shadow.suffix(from: last.seqs.upperBound))
        }
        return out
    }

    /// The clock-log entries of `a` and `b` of one replica, sorted, one per seq, each stamp
    /// raised to the one before it. An entry is exact or, where a merge took it from a log a
    /// compaction had thinned (the entry in force there, older), a lower bound; a replica's
    /// insertion stamps never go back as its seqs grow, so the later of two stamps for one seq,
    /// and a stamp raised to its predecessor's, are still lower bounds and closer to the truth.
    static func union(_ a: [ClockLogEntry], _ b: [ClockLogEntry]) -> [ClockLogEntry] {
        var out: [ClockLogEntry] = []
        for entry in (a + b).sorted(by: { ($0.seq, $0.stamp) < ($1.seq, $1.stamp) }) {
            let stamp = max(entry.stamp, out.last?.stamp ?? entry.stamp)
            if out.last?.seq == entry.seq { out[out.count - 1].stamp = stamp } else { out.append(ClockLogEntry(seq: entry.seq, stamp: stamp)) }
        }
        return out
    }

    /// The ids from `seq` on (inside ``seqs``), with their origins.
    func suffix(from seq: UInt32) -> ShadowRun {
        guard seq > seqs.lowerBound else { return self }
        return ShadowRun(inserter: inserter, seqs: seq..<seqs.upperBound, left: Origin(replica: inserter, seq: seq - 1), right: right)
    }

    /// Of `shadows` (normalized), those holding an id of `needed` (per inserter, any ranges),
    /// and every shadow those name as an origin, directly or through others: what a history
    /// trimmed to `needed`'s events keeps.
    static func closure(of shadows: [ShadowRun], holding needed: [ReplicaID: [Range<UInt32>]]) -> [ShadowRun] {
        guard !shadows.isEmpty else { return [] }
        var keep = [Bool](repeating: false, count: shadows.count)
        var work: [Int] = []
        for (i, shadow) in shadows.enumerated() where needed[shadow.inserter]?.contains(where: { $0.overlaps(shadow.seqs) }) ?? false {
            keep[i] = true
            work.append(i)
        }
        while let i = work.popLast() {
            for origin in [shadows[i].left, shadows[i].right].compactMap({ $0 }) {
                guard let j = index(of: origin, in: shadows), !keep[j] else { continue }
                keep[j] = true
                work.append(j)
            }
        }
        return zip(shadows, keep).filter(\.1).map(\.0)
    }

    /// The index of the shadow (of normalized `shadows`) holding `origin`, if one does.
    static func index(of origin: Origin, in shadows: [ShadowRun]) -> Int? {
        let i = shadows.partitioningIndex { ($0.inserter, $0.seqs.upperBound) > (origin.replica, origin.seq) }
        guard i < shadows.count, shadows[i].inserter == origin.replica, shadows[i].seqs.contains(origin.seq) else { return nil }
        return i
    }
}
