/// Applying a change set that involves compacted ids (Docs/FORMAT.md §4.7): ids the sender
/// compacted that this document has not seen, or elements this document compacted that the
/// set brings back because its new text names them. Such sets are rare (a copy that was offline
/// across a compaction, or one that has never seen the note): they are integrated by laying the
/// whole tree out again from the rule's order, O(N log N) for N runs.
extension TextSequence {
    /// Whether `set` names compacted ids: it carries compacted ids of the sender, one of its
    /// inserts covers ids compacted here, or an origin of one names them.
    func needsRebuilding(_ set: ChangeSet) -> Bool {
        if !set.compacted.isEmpty { return true }
        guard hasCompactedIDs else { return false }
        func local(_ i: UInt32) -> Int? {
            Int(i) < set.replicas.count ? replicaIndex[set.replicas[Int(i)]].map { Int($0) } : nil
        }
        func compacted(_ ref: ItemRef) -> Bool {
            guard !ref.isNone, let r = local(ref.replica) else { return false }
            return ref.seq < nextSeq[r] && !leafOf[r].holds(ref.seq)
        }
        for ins in set.inserts {
            if compacted(ins.left) || compacted(ins.right) { return true }
            guard let r = local(ins.replica), ins.seq < nextSeq[r] else { continue }
            let end = UInt32(Swift.min(UInt64(ins.seq) + UInt64(ins.length), UInt64(nextSeq[r])))
            if leafOf[r].anyCompacted(in: ins.seq..<end) { return true }
        }
        return false
    }

    /// `apply` for a set that ``needsRebuilding(_:)``: checks the whole set against this document
    /// first (so a refused set changes nothing), then integrates its runs all at once, revived
    /// elements as tombstones, and counts the sender's compacted ids as compacted here.
    mutating func applyRebuilding(_ set: ChangeSet, recordingPatch: Bool, deferringOrderCheck: Bool = false) throws(ChangeSetError) -> [TextReplacement] {
        _ = try checkShape(set)
        let saved = self
        var local: [UInt32] = []
        for id in set.replicas { local.append(index(of: id)) }
        let known = local.map { nextSeq[Int($0)] }
        var set = set
        let pending: [(run: Run, bytes: ArraySlice<UInt8>)]
        do {
            set.compacted = try Self.split(set.compacted, at: known)
            pending = try rebuildPlan(set, local: local)
        } catch {
            self = saved
            throw error
        }
        self.recordingPatch = recordingPatch
        patchRecorder = TextPatchBuilder()
        defer {
            self.recordingPatch = false
            patchRecorder = TextPatchBuilder()
            checkAfterMutation("apply (merge with compacted ids)")
        }
        // The sender's compacted ids this document had not seen: compacted here too.
        for c in set.compacted where c.seq >= known[Int(c.replica)] {
            let r = Int(local[Int(c.replica)])
            deleted[r].insert(c.seq..<c.seq + c.length)
            nextSeq[r] = Swift.max(nextSeq[r], c.seq + c.length)
        }
        if pending.isEmpty { rebuildLeafOf() } else { integrateAtOnce(pending) }
        if !deferringOrderCheck, let violation = ruleOrderViolation() {
            self = saved
            throw ChangeSetError(.inconsistent, "the inserts' origins are ones no editor could have written: \(violation)")
        }
        // Compacted ids of the sender that this document still holds were deleted there.
        let held = set.compacted.filter { $0.seq < known[Int($0.replica)] }
        applyDeletions(set.deletes + held, local: local)
        mergeClocks(of: set, local: local, known: known)
        return recordingPatch ? patchRecorder.replacements : []
    }

    /// `ranges` (a set's compacted ids) with each range that spans a replica's count `known`
    /// cut there, so every range lies wholly below it (ids this document holds or compacted) or
    /// wholly at or past it (ids it has not seen). Throws for a replica index outside `known`.
    static func split(_ ranges: [ChangeSet.Delete], at known: [UInt32]) throws(ChangeSetError) -> [ChangeSet.Delete] {
        var out: [ChangeSet.Delete] = []
        for c in ranges {
            guard Int(c.replica) < known.count, UInt64(c.seq) + UInt64(c.length) <= UInt64(UInt32.max) else {
                throw ChangeSetError(.inconsistent, "a compacted range names replica index \(c.replica) of \(known.count) or ids past 2^32")
            }
            let k = known[Int(c.replica)]
            if c.seq < k && c.seq + c.length > k {
                out.append(.init(replica: c.replica, seq: c.seq, length: k - c.seq))
                out.append(.init(replica: c.replica, seq: k, length: c.seq + c.length - k))
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// The runs `set` adds (replicas mapped through `local`, which already holds every set
    /// replica), in causal order: each insert cut to the stretches of ids this document does not
    /// hold, those it compacted arriving deleted. Throws when the new ids and the sender's
    /// compacted ids do not continue each replica's ids exactly, when a deletion names ids
    /// nobody will hold, or when an origin names an id nothing holds.
    private func rebuildPlan(_ set: ChangeSet, local: [UInt32]) throws(ChangeSetError) -> [(run: Run, bytes: ArraySlice<UInt8>)] {
        for d in set.deletes + set.compacted where Int(d.replica) >= local.count || UInt64(d.seq) + UInt64(d.length) > UInt64(UInt32.max) {
            throw ChangeSetError(.inconsistent, "a deleted or compacted range names replica index \(d.replica) of \(local.count) or ids past 2^32")
        }
        var pending: [(run: Run, bytes: ArraySlice<UInt8>)] = []
        // Per replica index: the revived id ranges (which must not overlap), and the new id
        // ranges (inserts and compacted ids), which must tile.
        var revivedRanges = [[Range<UInt32>]](repeating: [], count: replicas.count)
        var newRanges = [[Range<UInt32>]](repeating: [], count: replicas.count)
        func map(_ ref: ItemRef) -> ItemRef { ref.isNone ? ref : ItemRef(replica: local[Int(ref.replica)], seq: ref.seq) }
        for ins in set.inserts {
            let r = local[Int(ins.replica)]
            let count = nextSeq[Int(r)]
            let end = ins.seq + ins.length
            var s = ins.seq
            while s < end {
                let stretch: (slot: Int32, end: UInt32) = s < count ? leafOf[Int(r)].stretch(at: s) : (SlotRanges.compacted, end)
                let t = Swift.min(end, stretch.end, s < count ? count : end)
                if s >= count { newRanges[Int(r)].append(s..<t) } else if stretch.slot == SlotRanges.compacted { revivedRanges[Int(r)].append(s..<t) }
                if s >= count || stretch.slot == SlotRanges.compacted {
                    let revived = s < count || ins.byteCount == 0
                    var run = Run(replica: r, seq: s, length: t - s, utf16: 0, byteStart: 0, byteCount: 0,
                                  left: s == ins.seq ? map(ins.left) : ItemRef(replica: r, seq: s - 1), right: map(ins.right))
                    var bytes = set.content[0..<0]
                    if !revived {
                        let head = UTF8Counting.prefix(of: set.content, start: Int(ins.byteStart), scalars: Int(s - ins.seq))
                        let upTo = UTF8Counting.prefix(of: set.content, start: Int(ins.byteStart), scalars: Int(t - ins.seq))
                        bytes = set.content[Int(ins.byteStart) + head.bytes..<Int(ins.byteStart) + upTo.bytes]
                        run.byteCount = UInt32(bytes.count)
                        run.utf16 = UInt32(upTo.utf16 - head.utf16)
                    }
                    pending.append((run, bytes))
                }
                s = t
            }
        }
        for c in set.compacted where c.seq >= nextSeq[Int(local[Int(c.replica)])] {
            newRanges[Int(local[Int(c.replica)])].append(c.seq..<c.seq + c.length)
        }
        var newCount = nextSeq
        for r in replicas.indices {
            let revived = revivedRanges[r].sorted { $0.lowerBound < $1.lowerBound }
            for (a, b) in zip(revived, revived.dropFirst()) where a.upperBound > b.lowerBound {
                throw ChangeSetError(.inconsistent, "ids \(b.lowerBound)..<\(a.upperBound) of replica \(replicas[r]) arrive twice")
            }
            for range in newRanges[r].sorted(by: { $0.lowerBound < $1.lowerBound }) {
                guard range.lowerBound <= newCount[r] else {
                    throw ChangeSetError(.missingDependency, "replica \(replicas[r]) ids \(newCount[r])..<\(range.lowerBound) are missing")
                }
                guard range.lowerBound == newCount[r] else {
                    throw ChangeSetError(.inconsistent, "ids \(range) of replica \(replicas[r]) arrive twice")
                }
                newCount[r] = range.upperBound
            }
        }
        for (i, d) in set.deletes.enumerated() where d.seq + d.length > newCount[Int(local[Int(d.replica)])] {
            throw ChangeSetError(.missingDependency, "deletion \(i) names ids this document will not have")
        }
        try checkOrigins(of: pending.map(\.run))
        return pending
    }

    /// Checks that every origin of `added` (runs about to join this document's) names an element
    /// held by this document or by `added`, and that the origins of all of them are causally
    /// ordered: ``ChangeSetError/Code/compactedOrigin`` when one names an element compacted here,
    /// ``ChangeSetError/Code/missingDependency`` for any other missing one.
    private func checkOrigins(of added: [Run]) throws(ChangeSetError) {
        var all: [Run] = []
        all.reserveCapacity(runCount + added.count)
        for slot in order { all.append(contentsOf: leaves[Int(slot)]) }
        all.append(contentsOf: added)
        let byID = RunsByID(all, replicaCount: replicas.count)
        for run in added {
            for origin in [run.left, run.right] where !origin.isNone && !byID.holds(origin, in: all) {
                let r = Int(origin.replica)
                if origin.seq < nextSeq[r] {
                    throw ChangeSetError(.compactedOrigin, "a change names character \(origin.seq) of replica \(replicas[r]), which this copy compacted")
                }
                throw ChangeSetError(.missingDependency, "a change names character \(origin.seq) of replica \(replicas[r]), which no copy here holds")
            }
        }
        do {
            _ = try CausalOrder.order(queueBounds: byID.start, known: [UInt32](repeating: 0, count: replicas.count), item: { k in
                let run = all[byID.index(k)]
                return (run.replica, run.seq, run.length, run.left, run.right)
            }, index: { byID.index($0) })
        } catch {
            throw ChangeSetError(.inconsistent, "the changes' origins are not causally ordered: \(error.message)")
        }
    }
}
