extension TextSequence {
    /// Integrates runs all at once: computes the merge rule's order of this document's runs and
    /// `pending` together (``ruleOrder(of:)``) and lays the tree out again from it. The result is
    /// the state integrating `pending` one by one gives (FORMAT.md §6), at O(N log N) for N runs
    /// in all however the new runs' siblings are arranged; `apply` switches to it when its scans
    /// have cost more than that would.
    ///
    /// `pending`: runs of replicas in the table whose ids continue `nextSeq` (or, when a merge
    /// revives compacted ids, lie below it), in causal order, each with its text (empty for a
    /// tombstone). Records their insertion in the patch when
    /// `recordingPatch` is set.
    mutating func integrateAtOnce(_ pending: [(run: Run, bytes: ArraySlice<UInt8>)]) {
        guard !pending.isEmpty else { return }
        typingCursor = nil
        editCursor = nil
        flushSlotCounts()
        let newContent = content.count
        var all: [Run] = []
        all.reserveCapacity(runCount + pending.count)
        for slot in order { all.append(contentsOf: leaves[Int(slot)]) }
        for (run, bytes) in pending {
            var placed = run
            if run.isDeleted {
                deleted[Int(run.replica)].insert(run.seq..<run.seqEnd)
                noteTouched(deleted: run.seq..<run.seqEnd, replica: run.replica)
            } else {
                placed.byteStart = UInt32(content.count)
                content.append(contentsOf: bytes)
            }
            nextSeq[Int(run.replica)] = Swift.max(nextSeq[Int(run.replica)], run.seqEnd)
            all.append(placed)
        }
        let ordered = ruleOrder(of: all)
        if recordingPatch {
            var scalars = 0
            var units = 0
            for run in ordered where !run.isDeleted {
                if run.byteStart >= newContent {
                    patchRecorder.replace(scalarOffset: scalars, utf16Offset: units, removedScalars: 0, removedUTF16: 0,
                                          with: content[Int(run.byteStart)..<Int(run.byteStart + run.byteCount)],
                                          scalars: Int(run.length), utf16: Int(run.utf16))
                }
                scalars += Int(run.length)
                units += Int(run.utf16)
            }
        }
        layOut(ordered: ordered)
    }

    /// Lays the tree out again from `runs` (this document's, in any order): in the rule's order.
    mutating func layOutInRuleOrder(_ runs: [Run]) {
        layOut(ordered: ruleOrder(of: runs))
    }

    /// Lays the tree out again from `ordered` (the rule's order), joining runs that continue
    /// each other.
    private mutating func layOut(ordered: [Run]) {
        var joined: [Run] = []
        joined.reserveCapacity(ordered.count)
        for run in ordered {
            if let last = joined.last, last.canAbsorb(run) {
                joined[joined.count - 1].length &+= run.length
                joined[joined.count - 1].utf16 &+= run.utf16
                joined[joined.count - 1].byteCount &+= run.byteCount
            } else {
                joined.append(run)
            }
        }
        layOut(joined)
        oversizedSlots.removeAll()
        rebuildLeafOf()
    }

    /// Why the runs are not in the order the merge rule gives them (what the decoder checks), or
    /// nil when they are. O(runs).
    func ruleOrderViolation() -> String? {
        var runs: [Run] = []
        runs.reserveCapacity(runCount)
        for slot in order { runs += leaves[Int(slot)] }
        return IntegrationOrder.firstViolation(runs, byID: RunsByID(runs, replicaCount: replicas.count), replicaIDs: replicas).map {
            "run \($0.run) is not where the merge rule places it: \($0.message)"
        }
    }

    /// Takes out every id this document did not hold before an `apply` that is refused: the
    /// replicas from `replicas` on, and each earlier replica's ids from `nextSeq[r]` on; the
    /// content buffer goes back to `content` bytes. The elements kept stay in their order and
    /// the tree is laid out again (O(n); only a change set with impossible origins needs it).
    mutating func removeIDs(keeping nextSeq: [UInt32], replicas count: Int, content bytes: Int) {
        typingCursor = nil
        editCursor = nil
        flushSlotCounts()
        var kept: [Run] = []
        kept.reserveCapacity(runCount)
        for slot in order {
            for run in leaves[Int(slot)] where Int(run.replica) < count && run.seq < nextSeq[Int(run.replica)] {
                let limit = nextSeq[Int(run.replica)]
                kept.append(run.seqEnd > limit ? cut(run, at: limit &- run.seq).0 : run)
            }
        }
        for id in replicas[count...] { replicaIndex[id] = nil }
        replicas.removeLast(replicas.count - count)
        leafOf.removeLast(leafOf.count - count)
        clockLog.removeLast(clockLog.count - count)
        latestStamp.removeLast(latestStamp.count - count)
        // The delete sets of replicas that gained ids, from the tombstones kept and the compacted ids.
        var deletedRanges = IDIndex(kept, byID: RunsByID(kept, replicaCount: count), nextSeq: nextSeq, slot: { _ in 0 }).holes
        for run in kept where run.isDeleted && self.nextSeq[Int(run.replica)] != nextSeq[Int(run.replica)] {
            deletedRanges[Int(run.replica)].append(run.seq..<run.seqEnd)
        }
        for r in 0..<count where self.nextSeq[r] != nextSeq[r] {
            deleted[r] = DeletedIDs(sortedRanges: deletedRanges[r].sorted { $0.lowerBound < $1.lowerBound })
        }
        deleted.removeLast(deleted.count - count)
        #if DEBUG
        // The ids taken out are in no delete set any more: the check after this mutation must
        // not look for the deletions recorded when they arrived deleted.
        internalChecks.deletions.removeAll { $0.replica >= count || $0.ids.upperBound > nextSeq[$0.replica] }
        #endif
        self.nextSeq = nextSeq
        content.removeLast(content.count - bytes)
        layOut(kept)
        oversizedSlots.removeAll()
        rebuildLeafOf()
    }

    /// `leafOf` from the leaves: each replica's runs in id order, with the slot holding them, and
    /// its compacted ids (which stay in the delete set).
    mutating func rebuildLeafOf() {
        var all: [Run] = []
        var slots: [Int32] = []
        all.reserveCapacity(runCount)
        slots.reserveCapacity(runCount)
        for (slot, runs) in leaves.enumerated() {
            all.append(contentsOf: runs)
            slots.append(contentsOf: repeatElement(Int32(slot), count: runs.count))
        }
        let index = IDIndex(all, byID: RunsByID(all, replicaCount: replicas.count), nextSeq: nextSeq, slot: { slots[$0] })
        leafOf = index.leafOf
        hasCompactedIDs = index.hasHoles
    }

    /// `runs` (every id of each replica `0..<nextSeq` exactly once, origins causally ordered,
    /// content in this document's buffer) in the order the merge rule gives them, some runs cut
    /// where another run's left origin lies inside them.
    ///
    /// The order (``IntegrationOrder``, FORMAT.md §4.4) is built from the right: an element's
    /// children are ordered by their right origins, which lie among the children themselves or
    /// after the parent's block, so when the blocks are emitted last to first every origin that
    /// decides an order has been emitted already, with its distance from the end.
    func ruleOrder(of runs: [Run]) -> [Run] {
        let pieces = RuleOrderPieces(runs, replicaIDs: replicas, cut: { self.cut($0, at: $1) })
        return pieces.order()
    }
}
