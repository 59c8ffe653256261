#if DEBUG
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#endif

/// Internal checks: in a debug build run with the environment variable
/// `CRDTNOTE_INTERNAL_CHECKS=1` (`.ci/run` runs the property and trace tests again that way,
/// without building again), every mutating entry point of the sequence checks what it touched
/// before it returns, and stops the process at the first broken invariant, naming it. Release
/// builds (the benchmarks, apps) have none of it: the hooks are empty there and the tree stores
/// nothing extra.
///
/// The low-level mutators note what they change (`noteTouched(slot:)`, `noteTouched(positionsFrom:)`,
/// `noteTouched(deleted:replica:)`), and each entry point ends with `checkAfterMutation(_:)`:
/// - every leaf it touched: its place in the order, its size, each run's ids in `leafOf`, in the
///   delete set (tombstones) or out of it (visible runs), its counts against `slotScalars` /
///   `slotUTF16` and against the point values of both Fenwick trees, O(leaf + log n) per leaf;
/// - every range it added to a delete set: held by the set, and the chunk holding it sorted,
///   disjoint, non-touching and bounded (``DeletedIDs/chunkViolations(around:)``);
/// - the Fenwick totals against `scalarCount` / `utf16Count`, and the edit and typing cursors:
///   O(log n);
/// - every `fullCheckInterval` mutations of one sequence, the whole ``invariantViolations()``.
///
/// A debug build without the variable pays one test of a flag per hook.
extension TextSequence {
    /// Whether this process checks invariants on every mutation: a debug build run with
    /// `CRDTNOTE_INTERNAL_CHECKS=1`.
    static var internalChecksEnabled: Bool {
        #if DEBUG
        return InternalChecksSwitch.on
        #else
        return false
        #endif
    }

    /// Notes that leaf `slot` changed (its runs, its counts or its place in the order).
    @inline(__always)
    mutating func noteTouched(slot: Int) {
        #if DEBUG
        guard InternalChecksSwitch.on else { return }
        internalChecks.slots.append(slot)
        #endif
    }

    /// Notes that ids `range` of replica `replica` were added to the delete set.
    @inline(__always)
    mutating func noteTouched(deleted range: Range<UInt32>, replica: UInt32) {
        #if DEBUG
        guard InternalChecksSwitch.on else { return }
        internalChecks.deletions.append((Int(replica), range))
        #endif
    }

    /// Notes that the leaves at order positions `start...` moved or were re-counted (every leaf
    /// when `start` is 0).
    @inline(__always)
    mutating func noteTouched(positionsFrom start: Int) {
        #if DEBUG
        guard InternalChecksSwitch.on else { return }
        if start <= 0 {
            internalChecks.everything = true
        } else {
            for position in start..<order.count { internalChecks.slots.append(Int(order[position])) }
        }
        #endif
    }

    /// The end of a mutating entry point named `entry`: checks what it touched (and, every
    /// `fullCheckInterval` mutations, everything) and stops at the first broken invariant.
    @inline(__always)
    mutating func checkAfterMutation(_ entry: StaticString) {
        #if DEBUG
        guard InternalChecksSwitch.on else { return }
        let problems = touchedViolations()
        internalChecks.clear()
        internalChecks.mutations += 1
        precondition(problems.isEmpty,
                     "CRDTNOTE_INTERNAL_CHECKS: \(entry) left the sequence corrupt: \(problems.prefix(4).joined(separator: "; "))")
        if internalChecks.mutations % Self.fullCheckInterval == 0 {
            let all = invariantViolations()
            precondition(all.isEmpty,
                         "CRDTNOTE_INTERNAL_CHECKS: full check after \(internalChecks.mutations) mutations (last: \(entry)): "
                         + all.prefix(4).joined(separator: "; "))
        }
        #endif
    }
}

#if DEBUG
/// Whether the internal checks run: read once from the environment (`CRDTNOTE_INTERNAL_CHECKS=1`).
enum InternalChecksSwitch {
    static let on: Bool = {
        guard let value = getenv("CRDTNOTE_INTERNAL_CHECKS") else { return false }
        return String(cString: value) == "1"
    }()
}

/// What the mutations since the last check touched (debug builds only).
struct InternalCheckLog: Sendable {
    /// Leaf slots changed (may repeat).
    var slots: [Int] = []
    /// Ranges added to delete sets: (replica, ids).
    var deletions: [(replica: Int, ids: Range<UInt32>)] = []
    /// The tree was laid out again.
    var everything = false
    /// Mutating entry points completed by this sequence (copies count on from their original).
    var mutations = 0

    mutating func clear() {
        slots.removeAll(keepingCapacity: true)
        deletions.removeAll(keepingCapacity: true)
        everything = false
    }
}

extension TextSequence {
    /// A full ``invariantViolations()`` after this many mutations of one sequence.
    static let fullCheckInterval = 1000

    /// The violations among what the mutations since the last check touched (see the extension
    /// above), each naming the invariant; empty when sound. Does not clear the log.
    func touchedViolations() -> [String] {
        var problems = globalViolations()
        // Counts and orders must line up before any leaf can be looked at.
        guard problems.isEmpty else { return problems }
        var slots = internalChecks.everything ? Array(0..<leaves.count) : internalChecks.slots
        slots.sort()
        for (i, slot) in slots.enumerated() where i == 0 || slots[i - 1] != slot {
            problems += leafViolations(slot)
        }
        for (r, ids) in internalChecks.deletions {
            problems += deleteSetViolations(replica: r, ids: ids)
        }
        problems += cursorViolations()
        return problems
    }

    /// The array sizes and the Fenwick totals: O(log n).
    func globalViolations() -> [String] {
        var problems: [String] = []
        let n = leaves.count
        if order.count != n || orderIndex.count != n || slotScalars.count != n || slotUTF16.count != n {
            problems.append("tree arrays: \(n) leaves, \(order.count) in order, \(orderIndex.count) order indexes, "
                            + "\(slotScalars.count)/\(slotUTF16.count) slot counts")
        }
        let r = replicas.count
        if nextSeq.count != r || leafOf.count != r || deleted.count != r || clockLog.count != r || latestStamp.count != r {
            problems.append("replica table: \(r) replicas but \(nextSeq.count) id counts, \(leafOf.count) leaf maps, "
                            + "\(deleted.count) delete sets")
        }
        let total = FenwickTree.prefixSums(scalarTree, utf16Tree, order.count)
        if total.0 != scalarCount || total.1 != utf16Count {
            problems.append("Fenwick totals: the trees sum \(total.0)/\(total.1), the note counts \(scalarCount)/\(utf16Count) scalars/UTF-16 units")
        }
        if heldSlot >= n || (heldSlot < 0 && (heldScalars != 0 || heldUTF16 != 0)) {
            problems.append("held-back slot counts: \(heldScalars)/\(heldUTF16) for slot \(heldSlot) of \(n)")
        }
        return problems
    }

    /// One leaf: its place in the order, its size, its runs (ids, `leafOf`, delete set, byte and
    /// unit counts) and its counts in `slotScalars`/`slotUTF16` and in both Fenwick trees.
    /// O(leaf · log n).
    func leafViolations(_ slot: Int) -> [String] {
        guard slot >= 0 && slot < leaves.count else { return ["leaf slot \(slot) touched but the tree has \(leaves.count) slots"] }
        var problems: [String] = []
        let position = Int(orderIndex[slot])
        if position < 0 || position >= order.count || Int(order[position]) != slot {
            return ["leaf order: slot \(slot) has order index \(position), where the order holds another slot"]
        }
        let runs = leaves[slot]
        if runs.count > splitLimit {
            problems.append("leaf split: slot \(slot) holds \(runs.count) runs, more than \(splitLimit)")
        }
        var scalars = 0
        var units = 0
        for (i, run) in runs.enumerated() {
            let r = Int(run.replica)
            guard r < replicas.count, run.length > 0, run.seqEnd <= nextSeq[r], run.seqEnd > run.seq else {
                problems.append("run ids: run \(i) of slot \(slot) (\(run.replica):\(run.seq)+\(run.length)) names ids the note does not count")
                continue
            }
            let first = leafOf[r][run.seq]
            let last = leafOf[r][run.seqEnd &- 1]
            if first != slot || last != slot {
                problems.append("leafOf: ids \(r):\(run.seq)..<\(run.seqEnd) are in slot \(slot), leafOf says \(first) and \(last)")
            }
            let ids = run.seq..<run.seqEnd
            if run.isDeleted {
                if run.utf16 != 0 { problems.append("tombstone: run \(r):\(run.seq) in slot \(slot) keeps \(run.utf16) UTF-16 units") }
                if !deleted[r].contains(ids) {
                    problems.append("delete set: tombstone \(r):\(ids) in slot \(slot) is missing from the delete set")
                }
            } else {
                let bytes = UInt64(run.byteCount)
                let length = UInt64(run.length)
                if bytes < length || bytes > 4 * length || run.utf16 < run.length || UInt64(run.utf16) > 2 * length
                    || (bytes == length && run.utf16 != run.length) {
                    problems.append("run counts: run \(r):\(run.seq) in slot \(slot) has \(run.length) scalars, \(run.byteCount) bytes, \(run.utf16) UTF-16 units")
                }
                if Int(run.byteStart) + Int(run.byteCount) > content.count {
                    problems.append("run content: run \(r):\(run.seq) in slot \(slot) ends at byte \(Int(run.byteStart) + Int(run.byteCount)) of \(content.count)")
                }
                if deleted[r].firstMissing(in: ids) != ids {
                    problems.append("delete set: visible run \(r):\(ids) in slot \(slot) has ids in the delete set")
                }
            }
            scalars += run.visibleScalars
            units += run.visibleUTF16
        }
        let counted = slotCounts(slot)
        if counted.scalars != scalars || counted.utf16 != units {
            problems.append("slot counts: slot \(slot) is counted \(counted.scalars)/\(counted.utf16), its runs hold \(scalars)/\(units)")
        }
        let before = FenwickTree.prefixSums(scalarTree, utf16Tree, position)
        let through = FenwickTree.prefixSums(scalarTree, utf16Tree, position + 1)
        if through.0 - before.0 != scalars || through.1 - before.1 != units {
            problems.append("Fenwick path: position \(position) (slot \(slot)) counts \(through.0 - before.0)/\(through.1 - before.1), "
                            + "its runs hold \(scalars)/\(units)")
        }
        return problems
    }

    /// A range just added to replica `r`'s delete set: held by it, and the chunk around it sound.
    func deleteSetViolations(replica r: Int, ids: Range<UInt32>) -> [String] {
        guard r < deleted.count else { return ["delete set: replica \(r) has none (\(deleted.count) sets)"] }
        var problems = deleted[r].chunkViolations(around: ids.lowerBound).map { "delete set of replica \(r): \($0)" }
        if !deleted[r].contains(ids) { problems.append("delete set: replica \(r) lacks the ids \(ids) just deleted") }
        return problems
    }

    /// The edit and typing cursors: each names a run, and the scalars before it are right.
    func cursorViolations() -> [String] {
        var problems: [String] = []
        if let c = editCursor {
            if let before = scalarsBefore(slot: c.slot, index: c.index) {
                if before != c.scalarsBefore { problems.append("edit cursor: \(c) has \(before) scalars before it") }
            } else {
                problems.append("edit cursor: \(c) points past its leaf")
            }
        }
        if let c = typingCursor {
            if let before = scalarsBefore(slot: c.slot, index: c.index) {
                let run = leaves[c.slot][c.index]
                if run.replica != c.replica || before + run.visibleScalars != c.scalarEnd {
                    problems.append("typing cursor: \(c) names run \(run.replica):\(run.seq), which ends at scalar \(before + run.visibleScalars)")
                }
            } else {
                problems.append("typing cursor: \(c) points past its leaf")
            }
        }
        return problems
    }

    /// Visible scalars before run `index` of `slot`, or nil when there is no such run: O(log n + leaf).
    private func scalarsBefore(slot: Int, index: Int) -> Int? {
        guard slot >= 0 && slot < leaves.count && index >= 0 && index < leaves[slot].count else { return nil }
        var before = scalarTree.prefixSum(Int(orderIndex[slot]))
        for run in leaves[slot].prefix(index) { before += run.visibleScalars }
        return before
    }
}
#endif
