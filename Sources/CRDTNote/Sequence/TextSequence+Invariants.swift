extension TextSequence {
    /// Every structural invariant, checked the slow way. Returns the violations found
    /// (empty when consistent). Used by tests and fuzzers.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        // Per replica, the ids each run holds and its slot (checked against `leafOf` below, by
        // ranges: a compacted note may count billions of ids it no longer holds).
        var held = [[(ids: Range<UInt32>, slot: Int32)]](repeating: [], count: replicas.count)
        var scalars = 0
        var units = 0
        var runs = 0
        if order.count != leaves.count { problems.append("order lists \(order.count) of \(leaves.count) leaves") }
        if heldSlot >= leaves.count || (heldSlot < 0 && (heldScalars != 0 || heldUTF16 != 0)) {
            problems.append("held-back counts \(heldScalars)/\(heldUTF16) for slot \(heldSlot) of \(leaves.count)")
        }
        for (position, slot32) in order.enumerated() {
            let slot = Int(slot32)
            if orderIndex[slot] != position { problems.append("orderIndex of slot \(slot) is \(orderIndex[slot]), not \(position)") }
            if leaves[slot].count > Self.leafCapacity {
                problems.append("slot \(slot) holds \(leaves[slot].count) runs, more than \(Self.leafCapacity)")
            }
            var leafScalars = 0
            var leafUnits = 0
            for run in leaves[slot] {
                runs += 1
                let r = Int(run.replica)
                if run.length == 0 { problems.append("empty run in slot \(slot)") }
                guard r < replicas.count, run.seqEnd <= nextSeq[r] else {
                    problems.append("run \(run) names ids this document does not count"); continue
                }
                held[r].append((run.seq..<run.seqEnd, Int32(slot)))
                if !run.isDeleted {
                    let counts = UTF8Counting.counts(content[Int(run.byteStart)..<Int(run.byteStart + run.byteCount)])
                    if counts.scalars != Int(run.length) || counts.utf16 != Int(run.utf16) {
                        problems.append("run \(r):\(run.seq) counts \(run.length)/\(run.utf16) but holds \(counts)")
                    }
                } else if run.utf16 != 0 {
                    problems.append("deleted run \(r):\(run.seq) keeps UTF-16 units")
                }
                leafScalars += run.visibleScalars
                leafUnits += run.visibleUTF16
            }
            let counted = slotCounts(slot)
            if leafScalars != counted.scalars || leafUnits != counted.utf16 {
                problems.append("slot \(slot) sums \(counted.scalars)/\(counted.utf16) but holds \(leafScalars)/\(leafUnits)")
            }
            if scalarTree.prefixSum(position + 1) - scalarTree.prefixSum(position) != leafScalars {
                problems.append("scalar index disagrees at leaf position \(position)")
            }
            if utf16Tree.prefixSum(position + 1) - utf16Tree.prefixSum(position) != leafUnits {
                problems.append("UTF-16 index disagrees at leaf position \(position)")
            }
            scalars += leafScalars
            units += leafUnits
        }
        // Ids no run holds are compacted: leafOf maps them to `compacted`, and they are deleted.
        var anyCompacted = false
        for r in replicas.indices where r < leafOf.count {
            let (problem, compacted) = idViolations(replica: r, held: held[r])
            if let problem { problems.append(problem) }
            for ids in compacted {
                anyCompacted = true
                if !deleted[r].contains(ids) { problems.append("compacted ids \(r):\(ids) are not in the delete set") }
            }
        }
        if anyCompacted != hasCompactedIDs { problems.append("hasCompactedIDs is \(hasCompactedIDs), compacted ids: \(anyCompacted)") }
        if scalars != scalarCount || units != utf16Count { problems.append("totals \(scalarCount)/\(utf16Count), actual \(scalars)/\(units)") }
        if runs != runCount { problems.append("runCount \(runCount), actual \(runs)") }
        problems += deleteSetViolations()
        if problems.isEmpty, let violation = ruleOrderViolation() { problems.append(violation) }
        if let c = editCursor {
            if c.slot >= leaves.count || c.index >= leaves[c.slot].count {
                problems.append("edit cursor \(c) points past its leaf")
            } else {
                var before = 0
                for slot in order.prefix(Int(orderIndex[c.slot])) { before += slotCounts(Int(slot)).scalars }
                for run in leaves[c.slot].prefix(c.index) { before += run.visibleScalars }
                if before != c.scalarsBefore { problems.append("edit cursor \(c) has \(before) scalars before it") }
            }
        }
        return problems
    }

    /// Replica `r`'s ids against `leafOf`, by ranges: `held` (each run's ids and slot, in any
    /// order) must not overlap, and `leafOf` must give every held id its run's slot and every
    /// other id below the replica's count ``SlotRanges/compacted``. Returns the first violation
    /// found and the compacted ranges (the ids below the count no run holds).
    private func idViolations(replica r: Int, held: [(ids: Range<UInt32>, slot: Int32)]) -> (String?, [Range<UInt32>]) {
        // What leafOf should say, as stretches of one slot: the runs in id order, the gaps compacted.
        var expected: [(ids: Range<UInt32>, slot: Int32)] = []
        var compacted: [Range<UInt32>] = []
        var next: UInt32 = 0
        func add(_ ids: Range<UInt32>, _ slot: Int32, into list: inout [(ids: Range<UInt32>, slot: Int32)]) {
            if let last = list.last, last.slot == slot, last.ids.upperBound == ids.lowerBound {
                list[list.count - 1].ids = last.ids.lowerBound..<ids.upperBound
            } else {
                list.append((ids, slot))
            }
        }
        for run in held.sorted(by: { $0.ids.lowerBound < $1.ids.lowerBound }) {
            if run.ids.lowerBound < next { return ("id \(r):\(run.ids.lowerBound) appears twice", compacted) }
            if run.ids.lowerBound > next {
                compacted.append(next..<run.ids.lowerBound)
                add(next..<run.ids.lowerBound, SlotRanges.compacted, into: &expected)
            }
            add(run.ids, run.slot, into: &expected)
            next = run.ids.upperBound
        }
        if next < nextSeq[r] {
            compacted.append(next..<nextSeq[r])
            add(next..<nextSeq[r], SlotRanges.compacted, into: &expected)
        }
        var actual: [(ids: Range<UInt32>, slot: Int32)] = []
        leafOf[r].forEachStretch(from: 0) { slot, ids in add(ids, slot, into: &actual) }
        guard actual.count == expected.count, zip(actual, expected).allSatisfy({ $0.ids == $1.ids && $0.slot == $1.slot }) else {
            let first = zip(actual, expected).first { $0.ids != $1.ids || $0.slot != $1.slot }
            return ("leafOf of replica \(r) maps \(first.map { "\($0.0.ids) to slot \($0.0.slot), the runs say \($0.1.ids) to \($0.1.slot)" } ?? "\(actual.count) stretches, the runs \(expected.count)")",
                    compacted)
        }
        return (nil, compacted)
    }

    /// The delete set must list exactly the ids of the tombstones and the compacted ids, as
    /// sorted, disjoint, non-touching ranges.
    private func deleteSetViolations() -> [String] {
        var problems: [String] = []
        if deleted.count != replicas.count { return ["delete set covers \(deleted.count) of \(replicas.count) replicas"] }
        var expected = [[Range<UInt32>]](repeating: [], count: replicas.count)
        for r in replicas.indices {
            // Compacted ids belong to the delete set too.
            leafOf[r].forEachStretch(from: 0) { slot, ids in
                if slot == SlotRanges.compacted { expected[r].append(ids) }
            }
        }
        for slot in order {
            for run in leaves[Int(slot)] where run.isDeleted { expected[Int(run.replica)].append(run.seq..<run.seqEnd) }
        }
        for r in replicas.indices {
            var want: [Range<UInt32>] = []
            for range in expected[r].sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = want.last, last.upperBound == range.lowerBound {
                    want[want.count - 1] = last.lowerBound..<range.upperBound
                } else {
                    want.append(range)
                }
            }
            let have = Array(deleted[r].ranges)
            if have != want {
                problems.append("delete set of replica \(r) is \(have.prefix(8)), tombstones say \(want.prefix(8))")
            }
            if have.count != deleted[r].rangeCount {
                problems.append("delete set of replica \(r) counts \(deleted[r].rangeCount) ranges, holds \(have.count)")
            }
        }
        return problems
    }

    /// Ids of the visible characters, in document order.
    func visibleIDs() -> [(replica: ReplicaID, seq: UInt32)] {
        var out: [(ReplicaID, UInt32)] = []
        for slot in order {
            for run in leaves[Int(slot)] where !run.isDeleted {
                for s in run.seq..<run.seqEnd { out.append((replicas[Int(run.replica)], s)) }
            }
        }
        return out
    }
}
