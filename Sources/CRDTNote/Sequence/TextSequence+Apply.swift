extension TextSequence {
    /// Applies a change set: validates everything first (so a bad set changes nothing),
    /// then integrates insert runs in causal order and applies deletions. An insert whose origins
    /// no editor could have written is only found while it is integrated: the ids the set added
    /// are then taken out again (``removeIDs(keeping:replicas:content:)``) and the set refused,
    /// so a refused set still leaves the same elements in the same order. With `recordingPatch`,
    /// returns how the visible text changed (no replacements otherwise). `scanBudget` replaces
    /// ``scanBudget(runs:inserts:)`` (tests use it to reach the all-at-once path). With
    /// `deferringOrderCheck`, a merge that lays the document out again (reviving compacted ids)
    /// leaves the rule-order check to the caller, which reconciles re-pointed right origins
    /// first and rolls back itself (Docs/FORMAT.md §4.7).
    @discardableResult
    mutating func apply(_ set: ChangeSet, recordingPatch: Bool = false, scanBudget: Int? = nil,
                        deferringOrderCheck: Bool = false) throws(ChangeSetError) -> [TextReplacement] {
        if (hasCompactedIDs || !set.compacted.isEmpty) && needsRebuilding(set) {
            return try applyRebuilding(set, recordingPatch: recordingPatch, deferringOrderCheck: deferringOrderCheck)
        }
        let plan = try plan(set)
        splitLimit = Self.deferredLeafCapacity
        self.recordingPatch = recordingPatch
        patchRecorder = recordingPatch
            ? TextPatchBuilder(pieces: set.inserts.count + set.deletes.count, bytes: plan.insertedBytes)
            : TextPatchBuilder()
        defer {
            splitLimit = Self.leafCapacity
            self.recordingPatch = false
            patchRecorder = TextPatchBuilder()
            splitOversizedLeaves()
            checkAfterMutation("apply (merge)")
        }
        // What a change set found impossible while integrating is rolled back to.
        let before = (replicas: replicas.count, nextSeq: nextSeq, content: content.count)
        var local: [UInt32] = []
        local.reserveCapacity(set.replicas.count)
        for id in set.replicas { local.append(index(of: id)) }
        // Runs one at a time while their scans stay within budget; past it, the rest at once.
        var budget = scanBudget ?? Self.scanBudget(runs: runCount, inserts: plan.inserts.count)
        for (n, step) in plan.inserts.enumerated() {
            if budget < 0 {
                integrateAtOnce(plan.inserts[n...].map { Self.run(for: $0, of: set, local: local) })
                if let violation = ruleOrderViolation() {
                    removeIDs(keeping: before.nextSeq, replicas: before.replicas, content: before.content)
                    throw ChangeSetError(.inconsistent, "the inserts' origins are ones no editor could have written: \(violation)")
                }
                break
            }
            let (run, bytes) = Self.run(for: step, of: set, local: local)
            let steps = integrate(run, content: bytes)
            if steps < 0 {
                removeIDs(keeping: before.nextSeq, replicas: before.replicas, content: before.content)
                throw ChangeSetError(.inconsistent, "insert \(step.insert) has origins no editor could have written: its right origin "
                                     + "neither follows its left origin directly nor lies after the text typed after it")
            }
            budget -= steps
        }
        applyDeletions(plan.knownDeleted.isEmpty ? set.deletes : set.deletes + plan.knownDeleted, local: local)
        mergeClocks(of: set, local: local, known: plan.known)
        return recordingPatch ? patchRecorder.replacements : []
    }

    /// Deletes the ids `deletes` name (replicas mapped through `local`; every id held or
    /// compacted here), skipping those deleted already: most tombstones a peer lists are.
    mutating func applyDeletions(_ deletes: [ChangeSet.Delete], local: [UInt32]) {
        // Leaf slots that lost visible runs (may repeat), to coalesce once each at the end.
        var touched: [Int] = []
        for d in deletes {
            let r = local[Int(d.replica)]
            var rest = d.seq..<d.seq + d.length
            while let gap = deleted[Int(r)].firstMissing(in: rest) {
                deleteIDs(replica: r, seq: gap.lowerBound, length: UInt32(gap.count), touched: &touched)
                rest = gap.upperBound..<rest.upperBound
            }
        }
        touched.sort()
        for (i, slot) in touched.enumerated() where slot < leaves.count && (i == 0 || touched[i - 1] != slot) {
            coalesce(slot: slot)
        }
    }

    /// Takes in a change set's clock entries for the ids this document just received (`known`:
    /// per set replica, the ids it held before) and its latest stamps.
    mutating func mergeClocks(of set: ChangeSet, local: [UInt32], known: [UInt32]) {
        for (i, r) in local.enumerated() {
            mergeClock(log: i < set.clockLogs.count ? set.clockLogs[i] : [], previous: known[i], replica: r)
            if i < set.latestStamps.count, set.latestStamps[i] > latestStamp[Int(r)] {
                latestStamp[Int(r)] = set.latestStamps[i]
            }
        }
    }

    /// How many runs the scans of one `apply` may examine (``integrate(_:content:)``) before the
    /// remaining inserts are integrated all at once (``integrateAtOnce(_:)``, O(N log N) for N runs
    /// in all). Scans almost always stop at once, so ordinary merges never reach it; inserts that
    /// share a gap with many concurrent runs (thousands of siblings) do, and the merge then costs
    /// O((n + k) log n) for n runs and k inserts instead of up to n steps per insert.
    static func scanBudget(runs: Int, inserts: Int) -> Int { runs + inserts + 1024 }

    /// The run `step` integrates (replicas mapped through `local`, the ids already present cut
    /// off) and its text. Always inlined: it runs once per insert of every merge.
    @inline(__always)
    static func run(for step: PlannedInsert, of set: ChangeSet, local: [UInt32]) -> (run: Run, bytes: ArraySlice<UInt8>) {
        let ins = set.inserts[step.insert]
        func map(_ ref: ItemRef) -> ItemRef {
            ref.isNone ? ref : ItemRef(replica: local[Int(ref.replica)], seq: ref.seq)
        }
        var run = Run(replica: local[Int(ins.replica)], seq: ins.seq, length: ins.length, utf16: ins.utf16,
                      byteStart: 0, byteCount: ins.byteCount, left: map(ins.left), right: map(ins.right))
        var bytes = set.content[Int(ins.byteStart)..<Int(ins.byteStart + ins.byteCount)]
        if step.skip > 0 {
            run.seq += step.skip
            run.length -= step.skip
            run.left = ItemRef(replica: run.replica, seq: run.seq - 1)
            if !run.isDeleted {
                let cut = UTF8Counting.prefix(of: set.content, start: Int(ins.byteStart), scalars: Int(step.skip))
                bytes = bytes.dropFirst(cut.bytes)
                run.byteCount -= UInt32(cut.bytes)
                run.utf16 -= UInt32(cut.utf16)
            }
        }
        return (run, bytes)
    }

    /// One insert of a change set to integrate, minus the ids already present.
    struct PlannedInsert {
        var insert: Int
        var skip: UInt32
    }

    struct ApplyPlan {
        var inserts: [PlannedInsert]
        /// Per change-set replica: ids this document held before.
        var known: [UInt32]
        /// UTF-8 bytes of the inserts' text (the set's content may hold more: a merge shares the
        /// other copy's whole buffer).
        var insertedBytes: Int
        /// Ids this document holds already that the set sends as inserts deleted on arrival (it
        /// was made for an older copy of this one): deleted like the set's deletions, so applying
        /// it equals merging its sender whatever this document received since.
        var knownDeleted: [ChangeSet.Delete] = []
    }

    /// Checks a change set against this document and orders its inserts causally
    /// (each after its origins), without changing anything.
    ///
    /// Works on flat arrays (inserts sorted by replica and id, with per-replica bounds) rather
    /// than an array per replica: merges are frequent and mostly small, so allocations dominate.
    func plan(_ set: ChangeSet) throws(ChangeSetError) -> ApplyPlan {
        let n = set.replicas.count
        let inOrder = try checkShape(set)
        var known: [UInt32] = []
        known.reserveCapacity(n)
        for id in set.replicas { known.append(replicaIndex[id].map { nextSeq[Int($0)] } ?? 0) }
        // Insert indexes by replica, then id (stable: equal ids keep their order in the set).
        var byID: [Int]
        if inOrder {
            byID = Array(set.inserts.indices)
        } else if n <= 1 << 8 && set.inserts.count <= 1 << 24 {
            // (replica, id, index) packed in one integer: a plain sort of distinct integers, with
            // equal ids kept in set order by the index in the low bits.
            var packed = set.inserts.indices.map { i in
                UInt64(set.inserts[i].replica) << 56 | UInt64(set.inserts[i].seq) << 24 | UInt64(i)
            }
            packed.sort()
            byID = packed.map { Int($0 & 0xFF_FFFF) }
        } else {
            // (replica, id) packed in one integer: one comparison per step of the sort.
            byID = Array(set.inserts.indices)
            let keys = set.inserts.map { UInt64($0.replica) << 32 | UInt64($0.seq) }
            byID.sort { keys[$0] < keys[$1] }
        }
        // Per replica, the inserts in id order, minus ids already present; the new ids must
        // continue the known ones without gaps. Queue r is `queue[bounds[r]..<bounds[r + 1]]`.
        var queue: [PlannedInsert] = []
        queue.reserveCapacity(byID.count)
        var bounds = [Int](repeating: 0, count: n + 1)
        var knownDeleted: [ChangeSet.Delete] = []
        // Ids sent again are checked against the copies held here (without compacted ids, whose
        // origins are no longer held).
        let local: [UInt32?] = hasCompactedIDs ? [] : set.replicas.map { replicaIndex[$0] }
        var next = 0
        for r in 0..<n {
            bounds[r] = queue.count
            var available = known[r]
            while next < byID.count, Int(set.inserts[byID[next]].replica) == r {
                let i = byID[next]
                next += 1
                let ins = set.inserts[i]
                let end = ins.seq + ins.length
                if ins.seq < known[r], !local.isEmpty, let here = local[r] {
                    try checkHeldOrigins(ins, number: i, held: ins.seq..<Swift.min(end, known[r]), replica: here, local: local)
                }
                if ins.byteCount == 0, ins.seq < known[r] {
                    knownDeleted.append(.init(replica: UInt32(r), seq: ins.seq, length: Swift.min(end, known[r]) - ins.seq))
                }
                if end <= known[r] { continue }
                if ins.seq > available {
                    throw ChangeSetError(.missingDependency,
                        "replica \(set.replicas[r]) ids \(available)..<\(ins.seq) are missing before insert \(i)")
                }
                if ins.seq < available && available != known[r] {
                    throw ChangeSetError(.inconsistent, "insert \(i) overlaps another insert of replica \(set.replicas[r])")
                }
                queue.append(PlannedInsert(insert: i, skip: available - ins.seq))
                available = end
            }
        }
        bounds[n] = queue.count
        for (i, d) in set.deletes.enumerated() {
            let r = Int(d.replica)
            guard r < n else {
                throw ChangeSetError(.missingDependency, "deletion \(i) names ids this document will not have")
            }
            // Ids this document will have: the known ones, or up to the end of the last queued insert.
            let last = bounds[r + 1] > bounds[r] ? set.inserts[queue[bounds[r + 1] - 1].insert] : nil
            let available = last.map { $0.seq + $0.length } ?? known[r]
            guard UInt64(d.seq) + UInt64(d.length) <= UInt64(available) else {
                throw ChangeSetError(.missingDependency, "deletion \(i) names ids this document will not have")
            }
        }
        var insertedBytes = 0
        for ins in set.inserts { insertedBytes += Int(ins.byteCount) }
        guard content.count + insertedBytes < Int(UInt32.max) else {
            throw ChangeSetError(.tooLarge, "text content would exceed 4 GiB")
        }
        let order = try CausalOrder.order(queueBounds: bounds, known: known, item: { position in
            let step = queue[position]
            let ins = set.inserts[step.insert]
            // A trimmed insert starts after ids already present: its left origin is its predecessor.
            let left = step.skip > 0 ? ItemRef(replica: ins.replica, seq: ins.seq + step.skip - 1) : ins.left
            return (ins.replica, ins.seq + step.skip, ins.length - step.skip, left, ins.right)
        }, index: { queue[$0].insert })
        return ApplyPlan(inserts: order.map { queue[$0] }, known: known, insertedBytes: insertedBytes, knownDeleted: knownDeleted)
    }

    /// Checks what a change set says about itself, without this document: the replica table
    /// (no replica twice, clock tables no longer than it), every insert's replica, id range,
    /// origins' replicas and bytes. Returns whether the inserts are in (replica, id) order.
    func checkShape(_ set: ChangeSet) throws(ChangeSetError) -> Bool {
        let n = set.replicas.count
        if set.clockLogs.count > n || set.latestStamps.count > n {
            throw ChangeSetError(.inconsistent, "clock tables list more replicas than the replica table")
        }
        if let twice = Self.firstDuplicate(set.replicas) {
            throw ChangeSetError(.inconsistent, "replica \(twice) is listed twice")
        }
        var inOrder = true
        for (i, ins) in set.inserts.enumerated() {
            let r = Int(ins.replica)
            guard r < n else { throw ChangeSetError(.inconsistent, "insert \(i) names replica index \(r) of \(n)") }
            guard ins.length > 0, UInt64(ins.seq) + UInt64(ins.length) <= UInt64(UInt32.max) else {
                throw ChangeSetError(.inconsistent, "insert \(i) has an invalid id range")
            }
            func outside(_ origin: ItemRef) -> Bool { !origin.isNone && Int(origin.replica) >= n }
            if let origin = outside(ins.left) ? ins.left : (outside(ins.right) ? ins.right : nil) {
                throw ChangeSetError(.inconsistent, "insert \(i) has an origin naming replica index \(origin.replica) of \(n)")
            }
            guard UInt64(ins.byteStart) + UInt64(ins.byteCount) <= UInt64(set.content.count) else {
                throw ChangeSetError(.inconsistent, "insert \(i) points past the end of the content")
            }
            if i > 0 {
                let previous = set.inserts[i - 1]
                if (previous.replica, previous.seq) >= (ins.replica, ins.seq) { inOrder = false }
            }
        }
        return inOrder
    }

    /// A replica listed more than once, if any (a linear scan for the few replicas notes have).
    static func firstDuplicate(_ ids: [ReplicaID]) -> ReplicaID? {
        if ids.count > 16 {
            var seen = Set<ReplicaID>()
            return ids.first { !seen.insert($0).inserted }
        }
        for i in ids.indices {
            for j in ids.indices where j > i && ids[j] == ids[i] { return ids[i] }
        }
        return nil
    }

    /// Adds a peer's clock entries for the ids this document just received.
    mutating func mergeClock(log: [ClockLogEntry], previous: UInt32, replica r: UInt32) {
        let ri = Int(r)
        guard nextSeq[ri] > previous else { return }
        func append(_ seq: UInt32, _ stamp: HLCTimestamp) {
            if let last = clockLog[ri].last, last.stamp == stamp || last.seq >= seq { return }
            clockLog[ri].append(ClockLogEntry(seq: seq, stamp: stamp))
        }
        var inForce: HLCTimestamp? = nil
        for entry in log {
            if entry.seq <= previous { inForce = entry.stamp; continue }
            if entry.seq >= nextSeq[ri] { break }
            if let stamp = inForce { append(previous, stamp); inForce = nil }
            append(entry.seq, entry.stamp)
        }
        if let stamp = inForce { append(previous, stamp) }
    }
}
