extension TextSequence {
    /// The position after the last element.
    var endPosition: TreePosition { TreePosition(order: order.count, run: 0, offset: 0) }

    func slot(at position: TreePosition) -> Int { Int(order[position.order]) }

    func run(at position: TreePosition) -> Run {
        leaves[Int(order[position.order])][position.run]
    }

    /// Where the element `ref` is. The id must exist in this document.
    ///
    /// Always inlined, like `visibleOffsets(before:)`: called from a mutating method (merges), a
    /// call copies the whole sequence struct (304 bytes) to pass it.
    @inline(__always)
    func locate(_ ref: ItemRef) -> TreePosition {
        let slot = Int(leafOf[Int(ref.replica)][ref.seq])
        return leaves[slot].withUnsafeBufferPointer { runs in
            var i = 0
            while !runs[i].contains(replica: ref.replica, seq: ref.seq) { i += 1 }
            return TreePosition(order: Int(orderIndex[slot]), run: i, offset: ref.seq - runs[i].seq)
        }
    }

    /// The id of the element at `position` (which must not be the end).
    func ref(at position: TreePosition) -> ItemRef {
        let r = run(at: position)
        return ItemRef(replica: r.replica, seq: r.seq &+ position.offset)
    }

    /// The start of the run after the one at `position`, or the end. Always inlined, like
    /// `nextElement(after:)`, for the same reason as `locate`.
    @inline(__always)
    func nextRunStart(after position: TreePosition) -> TreePosition {
        var p = TreePosition(order: position.order, run: position.run + 1, offset: 0)
        while p.order < order.count, p.run >= leaves[Int(order[p.order])].count {
            p.order += 1
            p.run = 0
        }
        return p
    }

    /// The next element after `position` (one character on), or the end.
    @inline(__always)
    func nextElement(after position: TreePosition) -> TreePosition {
        let r = run(at: position)
        if position.offset + 1 < r.length {
            return TreePosition(order: position.order, run: position.run, offset: position.offset + 1)
        }
        return nextRunStart(after: position)
    }

    /// The first element of the document (the end when empty).
    var startPosition: TreePosition {
        nextRunStart(after: TreePosition(order: 0, run: -1, offset: 0))
    }

    /// The position of the visible scalar with index `k` (`0 <= k < scalarCount`).
    /// Always inlined, like `nearbyPosition`, which falls back to it.
    @inline(__always)
    func position(ofScalar k: Int) -> TreePosition {
        let (orderPos, before) = scalarTree.find(k)
        var remaining = k - before
        let runs = leaves[Int(order[orderPos])]
        var i = 0
        while true {
            let visible = runs[i].visibleScalars
            if remaining < visible { break }
            remaining -= visible
            i += 1
        }
        return TreePosition(order: orderPos, run: i, offset: UInt32(remaining))
    }

    /// `position(ofScalar:)`, found by scanning a few runs of the edit cursor's leaf from the
    /// cursor when `k` lies there (the common case for consecutive local edits); otherwise the
    /// tree search, after at most `nearbyRuns` steps wasted.
    static let nearbyRuns = 6

    /// Always inlined: the local edits calling it are mutating, and a call would copy the
    /// whole sequence struct (280 bytes) to pass it.
    @inline(__always)
    func nearbyPosition(ofScalar k: Int) -> TreePosition {
        if let c = editCursor {
            let found: TreePosition? = leaves[c.slot].withUnsafeBufferPointer { runs in
                var i = c.index
                var before = c.scalarsBefore
                if k >= before {
                    let end = min(runs.count, i + Self.nearbyRuns)
                    while i < end {
                        let visible = runs[i].visibleScalars
                        if k - before < visible { return TreePosition(order: Int(orderIndex[c.slot]), run: i, offset: UInt32(k - before)) }
                        before += visible
                        i += 1
                    }
                } else {
                    let end = max(0, i - Self.nearbyRuns)
                    while i > end {
                        i -= 1
                        before -= runs[i].visibleScalars
                        if k >= before { return TreePosition(order: Int(orderIndex[c.slot]), run: i, offset: UInt32(k - before)) }
                    }
                }
                return nil
            }
            if let found { return found }
        }
        return position(ofScalar: k)
    }

    /// The scalar index of UTF-16 offset `k` (`0 <= k < utf16Count`), or nil inside a surrogate pair.
    func scalarIndex(ofUTF16 k: Int) -> Int? {
        scalarPosition(ofUTF16: k)?.scalar
    }

    /// The scalar index of UTF-16 offset `k` (`0 <= k < utf16Count`) and the position of that
    /// visible scalar, from one search of the tree; nil inside a surrogate pair.
    func scalarPosition(ofUTF16 k: Int) -> (scalar: Int, position: TreePosition)? {
        let (orderPos, before) = utf16Tree.find(k)
        var remaining = k - before
        let slot = Int(order[orderPos])
        let runs = leaves[slot]
        let counts = slotCounts(slot)
        // From the leaf's nearer end (a leaf holds up to 64 runs): stepping back from the end,
        // the first run with at most `remaining` units before it holds that unit (a run without
        // units is never reached first: the visible run after it already has as many before it).
        if remaining * 2 >= counts.utf16 {
            var unitsBefore = counts.utf16
            var scalars = scalarTree.prefixSum(orderPos) + counts.scalars
            var i = runs.count
            repeat {
                i -= 1
                unitsBefore -= runs[i].visibleUTF16
                scalars -= runs[i].visibleScalars
            } while unitsBefore > remaining
            return scalarPosition(order: orderPos, run: i, of: runs, unitsInto: remaining - unitsBefore, scalarsBefore: scalars)
        }
        var scalars = scalarTree.prefixSum(orderPos)
        var i = 0
        while true {
            let units = runs[i].visibleUTF16
            if remaining < units { break }
            remaining -= units
            scalars += runs[i].visibleScalars
            i += 1
        }
        return scalarPosition(order: orderPos, run: i, of: runs, unitsInto: remaining, scalarsBefore: scalars)
    }

    /// ``scalarPosition(ofUTF16:)`` of `k` (`fromUTF16 <= k < utf16Count`) from what that
    /// function gave for `fromUTF16` (`from`), by stepping forward over the runs between: the
    /// far end of a short range, in the runs the search for its near end just read (a mark on a
    /// selection). Searches the tree instead once `maximumSteps` runs are passed.
    func scalarPosition(ofUTF16 k: Int, after from: (scalar: Int, position: TreePosition), atUTF16 fromUTF16: Int,
                        maximumSteps: Int = 32) -> (scalar: Int, position: TreePosition)? {
        var orderPos = from.position.order
        var i = from.position.run
        var runs = leaves[Int(order[orderPos])]
        // Counted from the start of the run holding `from`.
        let start = runs[i]
        let unitsBefore = start.utf16 == start.length ? Int(from.position.offset)
            : UTF8Counting.prefix(of: content, start: Int(start.byteStart), scalars: Int(from.position.offset)).utf16
        var remaining = k - fromUTF16 + unitsBefore
        var scalars = from.scalar - Int(from.position.offset)
        var steps = 0
        while true {
            let units = runs[i].visibleUTF16
            if remaining < units { break }
            remaining -= units
            scalars += runs[i].visibleScalars
            i += 1
            steps += 1
            guard steps <= maximumSteps else { return scalarPosition(ofUTF16: k) }
            while i == runs.count {
                orderPos += 1
                guard orderPos < order.count else { return scalarPosition(ofUTF16: k) }
                runs = leaves[Int(order[orderPos])]
                i = 0
            }
        }
        return scalarPosition(order: orderPos, run: i, of: runs, unitsInto: remaining, scalarsBefore: scalars)
    }

    /// What the searches above give once they found the run: run `i` of leaf `orderPos`
    /// (`runs`) holds the offset, `remaining` UTF-16 units into it, after `scalars` scalars.
    @inline(__always)
    private func scalarPosition(order orderPos: Int, run i: Int, of runs: [Run], unitsInto remaining: Int,
                                scalarsBefore scalars: Int) -> (scalar: Int, position: TreePosition)? {
        let r = runs[i]
        var offset = remaining
        if r.utf16 != r.length {
            guard let inRun = UTF8Counting.scalarsForUTF16(content, start: Int(r.byteStart), utf16Units: remaining) else {
                return nil
            }
            offset = inRun.scalars
        }
        return (scalars + offset, TreePosition(order: orderPos, run: i, offset: UInt32(offset)))
    }

    /// The UTF-16 offset of scalar index `k` (`0 <= k <= scalarCount`).
    func utf16Offset(ofScalar k: Int) -> Int {
        if k == scalarCount { return utf16Count }
        let p = position(ofScalar: k)
        var units = utf16Tree.prefixSum(p.order)
        let runs = leaves[Int(order[p.order])]
        for i in 0..<p.run { units += runs[i].visibleUTF16 }
        let r = runs[p.run]
        if r.utf16 == r.length { return units + Int(p.offset) }
        return units + UTF8Counting.prefix(of: content, start: Int(r.byteStart), scalars: Int(p.offset)).utf16
    }

    /// Adds visible-count changes of a leaf to the indexes. Always inlined: every edit makes one
    /// or two of these, and the call itself cost a fifth of the work.
    @inline(__always)
    mutating func adjust(slot: Int, scalars: Int, utf16: Int) {
        noteTouched(slot: slot)
        if scalars == 0 && utf16 == 0 { return }
        if slot != heldSlot {
            flushSlotCounts()
            heldSlot = slot
        }
        heldScalars += scalars
        heldUTF16 += utf16
        let pos = Int(orderIndex[slot])
        FenwickTree.add(scalars, to: &scalarTree, utf16, to: &utf16Tree, at: pos)
        scalarCount += scalars
        utf16Count += utf16
    }

    /// Adds the held-back change of one slot's counts (`adjust`) to `slotScalars` and `slotUTF16`.
    mutating func flushSlotCounts() {
        guard heldSlot >= 0 else { return }
        slotScalars[heldSlot] += heldScalars
        slotUTF16[heldSlot] += heldUTF16
        heldSlot = -1
        heldScalars = 0
        heldUTF16 = 0
    }

    /// Visible scalars and UTF-16 units of leaf `slot`, with any held-back change.
    func slotCounts(_ slot: Int) -> (scalars: Int, utf16: Int) {
        let held = slot == heldSlot
        return (slotScalars[slot] + (held ? heldScalars : 0), slotUTF16[slot] + (held ? heldUTF16 : 0))
    }

    /// Makes leaf `slot` its own, with room for `extra` more runs, in one step. A leaf still
    /// shared with another copy of the note (a fork, the state a merge started from) is copied
    /// once with the capacity it had, instead of once to unshare it and again to grow it; a
    /// leaf of its own that is full grows geometrically. Otherwise nothing happens.
    @inline(__always)
    mutating func reserveRuns(_ extra: Int, inLeaf slot: Int) {
        let capacity = leaves[slot].capacity
        let needed = leaves[slot].count + extra
        leaves[slot].reserveCapacity(needed <= capacity ? capacity : Swift.max(needed, 2 * capacity))
    }

    /// Splits the run at `position` so that a run starts there (no-op at offset 0).
    /// Positions of later runs in the same leaf shift by one.
    mutating func splitRun(at position: TreePosition) {
        let k = position.offset
        if k == 0 { return }
        let slot = Int(order[position.order])
        noteTouched(slot: slot)
        let (first, second) = cut(leaves[slot][position.run], at: k)
        leaves[slot][position.run] = first
        leaves[slot].insertInPlace(second, at: position.run + 1)
        runCount += 1
    }

    /// The two runs `run` becomes when cut before its character `k` (`0 < k < run.length`):
    /// the second continues the first (its left origin is the first's last character).
    @inline(__always)
    func cut(_ run: Run, at k: UInt32) -> (Run, Run) {
        var first = run
        var second = run
        let fullLength = run.length
        second.seq = run.seq &+ k
        second.length = fullLength &- k
        second.left = ItemRef(replica: run.replica, seq: second.seq &- 1)
        first.length = k
        if !run.isDeleted {
            // ASCII runs (one byte per scalar) split without scanning.
            let prefix = run.byteCount == fullLength
                ? (bytes: Int(k), utf16: Int(k))
                : UTF8Counting.prefix(of: content, start: Int(run.byteStart), scalars: Int(k))
            second.byteStart = run.byteStart &+ UInt32(prefix.bytes)
            second.byteCount = run.byteCount &- UInt32(prefix.bytes)
            second.utf16 = run.utf16 &- UInt32(prefix.utf16)
            first.byteCount = UInt32(prefix.bytes)
            first.utf16 = UInt32(prefix.utf16)
        }
        return (first, second)
    }

    /// Merges run `index` of `slot` with the run after it when one can absorb the other.
    mutating func mergeWithNext(slot: Int, index: Int) {
        guard index >= 0, index + 1 < leaves[slot].count else { return }
        let a = leaves[slot][index]
        let b = leaves[slot][index + 1]
        guard a.canAbsorb(b) else { return }
        noteTouched(slot: slot)
        leaves[slot][index].length &+= b.length
        leaves[slot][index].utf16 &+= b.utf16
        leaves[slot][index].byteCount &+= b.byteCount
        leaves[slot].remove(at: index + 1)
        runCount -= 1
    }

    /// Splits a leaf that grew past capacity, moving the half with fewer ids to a new slot.
    mutating func splitLeafIfNeeded(_ slot: Int) {
        let count = leaves[slot].count
        if count > Self.leafCapacity && count <= splitLimit { oversizedSlots.append(slot) }
        guard count > splitLimit else { return }
        flushSlotCounts()
        typingCursor = nil
        editCursor = nil
        let half = count / 2
        var firstIDs = 0
        var secondIDs = 0
        for (i, r) in leaves[slot].enumerated() {
            if i < half { firstIDs += Int(r.length) } else { secondIDs += Int(r.length) }
        }
        let moveFirst = firstIDs < secondIDs
        let newSlot = spareSlot(besideLeafAt: Int(orderIndex[slot]), before: moveFirst)
        let moved: [Run]
        if moveFirst {
            moved = Array(leaves[slot][0..<half])
            leaves[slot].removeFirst(half)
        } else {
            moved = Array(leaves[slot][half...])
            leaves[slot].removeLast(count - half)
        }
        moveRuns(moved, from: slot, to: newSlot)
        // A leaf that grew by many runs at once (bulk merges) may still be too large.
        splitLeafIfNeeded(slot)
        splitLeafIfNeeded(newSlot)
    }

    /// Splits every leaf that grew past `leafCapacity` while splits were deferred into
    /// three-quarter-full leaves, each part taking a spare leaf after the one before it.
    /// Only the leaves noted in `oversizedSlots` are looked at, so a small merge into a large
    /// note does not walk every leaf.
    mutating func splitOversizedLeaves() {
        var candidates = oversizedSlots.filter { leaves[$0].count > Self.leafCapacity }
        oversizedSlots.removeAll(keepingCapacity: true)
        guard !candidates.isEmpty else { return }
        flushSlotCounts()
        // From the first position on: when spares run out, laying them out again from the
        // first leaf split provides them for the later ones.
        candidates.sort { orderIndex[$0] < orderIndex[$1] }
        typingCursor = nil
        editCursor = nil
        // Three quarters full: a leaf just over capacity moves few runs (each moved run is
        // re-pointed in `leafOf`), and still has room for the next edits.
        let chunk = Self.leafCapacity * 3 / 4
        for (k, slot) in candidates.enumerated() where k == 0 || candidates[k - 1] != slot {
            let runs = leaves[slot]
            leaves[slot] = Array(runs[0..<chunk])
            var previous = slot
            var start = chunk
            while start < runs.count {
                let part = Array(runs[start..<min(start + chunk, runs.count)])
                let newSlot = spareSlot(besideLeafAt: Int(orderIndex[previous]))
                moveRuns(part, from: slot, to: newSlot)
                previous = newSlot
                start += chunk
            }
        }
    }

    /// Merges neighbouring runs of a leaf that can be one run, within `from...through`
    /// (clamped to the leaf), or across the whole leaf by default.
    mutating func coalesce(slot: Int, from: Int = 0, through: Int = .max) {
        var i = max(from, 0)
        var end = min(through, leaves[slot].count - 1)
        while i < end {
            // The next pair that can be one run, found without copying runs out of the leaf.
            let next: Int? = leaves[slot].withUnsafeBufferPointer { runs in
                var j = i
                while j < end {
                    // Ids that continue each other first: one comparison rules out most pairs.
                    if runs[j + 1].seq == runs[j].seq &+ runs[j].length && runs[j].canAbsorb(runs[j + 1]) { return j }
                    j += 1
                }
                return nil
            }
            guard let j = next else { return }
            mergeWithNext(slot: slot, index: j)
            end -= 1
            i = j
        }
    }

    /// Recomputes order positions from `start` on and both Fenwick trees, in place. Positions
    /// before `start` must hold the same leaves with the same counts as before: the trees keep
    /// what covers only them and rebuild the rest (O(leaves - start)).
    mutating func rebuildIndexes(from start: Int = 0) {
        flushSlotCounts()
        let n = order.count
        noteTouched(positionsFrom: start)
        order.withUnsafeBufferPointer { order in
            orderIndex.withUnsafeMutableBufferPointer { index in
                for i in max(start, 0)..<n { index[Int(order[i])] = Int32(i) }
            }
            slotScalars.withUnsafeBufferPointer { values in
                scalarTree.rebuild(from: start, count: n) { values[Int(order[$0])] }
            }
            slotUTF16.withUnsafeBufferPointer { values in
                utf16Tree.rebuild(from: start, count: n) { values[Int(order[$0])] }
            }
        }
    }
}

extension TextSequence {
    /// Visible scalars and UTF-16 units before `position` (the element there excluded):
    /// a Fenwick prefix plus a scan of one leaf from its nearer end, O(log n + leaf).
    @inline(__always)
    func visibleOffsets(before position: TreePosition) -> (scalars: Int, utf16: Int) {
        if position.order >= order.count { return (scalarCount, utf16Count) }
        var scalars = 0
        var units = 0
        let r: Run = leaves[Int(order[position.order])].withUnsafeBufferPointer { runs in
            if position.run <= runs.count / 2 {
                (scalars, units) = FenwickTree.prefixSums(scalarTree, utf16Tree, position.order)
                for i in 0..<position.run {
                    scalars &+= runs[i].visibleScalars
                    units &+= runs[i].visibleUTF16
                }
            } else {
                // Everything up to the end of this leaf, minus the runs from `position.run` on.
                (scalars, units) = FenwickTree.prefixSums(scalarTree, utf16Tree, position.order + 1)
                for i in position.run..<runs.count {
                    scalars &-= runs[i].visibleScalars
                    units &-= runs[i].visibleUTF16
                }
            }
            return runs[position.run]
        }
        if position.offset > 0 && !r.isDeleted {
            scalars += Int(position.offset)
            units += r.utf16 == r.length
                ? Int(position.offset)
                : UTF8Counting.prefix(of: content, start: Int(r.byteStart), scalars: Int(position.offset)).utf16
        }
        return (scalars, units)
    }
}
