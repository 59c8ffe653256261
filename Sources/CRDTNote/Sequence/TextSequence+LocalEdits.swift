extension TextSequence {
    /// One local edit: deletes the visible scalars `range`, inserts valid UTF-8 `utf8` at its
    /// start as new elements of `replica`, and logs `stamp`. The deleted text goes to `recorder`.
    mutating func replaceLocal<R: DeletionRecorder>(_ range: Range<Int>, with utf8: UnsafeBufferPointer<UInt8>, replica local: UInt32,
                                                    stamp: HLCTimestamp, recording recorder: inout R) {
        if !range.isEmpty { deleteLocal(range, recording: &recorder) }
        let firstSeq = nextSeq[Int(local)]
        if !utf8.isEmpty {
            // One ASCII byte (most keystrokes) is one scalar and one UTF-16 unit: no scan.
            let counts = utf8.count == 1 && utf8[0] < 0x80 ? (scalars: 1, utf16: 1) : UTF8Counting.counts(utf8)
            insertLocal(utf8, scalars: counts.scalars, utf16: counts.utf16, at: range.lowerBound, replica: local)
        }
        noteStamp(stamp, replica: local, firstInsertedSeq: utf8.isEmpty ? nil : firstSeq)
    }

    /// Inserts valid UTF-8 `utf8` (`scalars` scalars, `utf16` units) as new elements of
    /// `replica` so that it starts at visible scalar `p`. The new run is anchored to the
    /// visible character on its left and placed directly after it (before any tombstones).
    ///
    /// Inlined up to typing on at the typing cursor (most keystrokes); everything else is
    /// `insertLocalPlacing`.
    @inline(__always)
    mutating func insertLocal(_ utf8: UnsafeBufferPointer<UInt8>, scalars: Int, utf16: Int, at p: Int, replica r: UInt32) {
        guard scalars > 0 else { return }
        if let cursor = typingCursor, cursor.scalarEnd == p, cursor.replica == r {
            let length = extend(slot: cursor.slot, index: cursor.index, with: utf8, scalars: scalars, utf16: utf16,
                                replica: r, seq: nextSeq[Int(r)])
            typingCursor?.scalarEnd = p + scalars
            editCursor = EditCursor(slot: cursor.slot, index: cursor.index, scalarsBefore: p + scalars - length)
            checkAfterMutation("local insertion")
            return
        }
        insertLocalPlacing(utf8, scalars: scalars, utf16: utf16, at: p, replica: r)
        checkAfterMutation("local insertion")
    }

    /// `insertLocal` away from the typing cursor: finds the place, then extends the run on the
    /// left or inserts a new one.
    private mutating func insertLocalPlacing(_ utf8: UnsafeBufferPointer<UInt8>, scalars: Int, utf16: Int, at p: Int, replica r: UInt32) {
        let seq = nextSeq[Int(r)]
        typingCursor = nil
        let byteStart = UInt32(content.count)
        var left = ItemRef.none
        var right: ItemRef
        var slot: Int
        var index: Int
        if p == 0 {
            let start = startPosition
            right = localRightOrigin(left: .none, at: nil, next: start, visible: 0)
            if start != endPosition, right != ref(at: start) {
                if insertLocalByRule(utf8, scalars: scalars, utf16: utf16, at: p, replica: r, left: left, right: right) { return }
                right = ref(at: start)
            }
            slot = Int(order[0])
            index = 0
        } else {
            let lp = nearbyPosition(ofScalar: p - 1)
            let leftRun = run(at: lp)
            left = ItemRef(replica: leftRun.replica, seq: leftRun.seq &+ lp.offset)
            slot = Int(order[lp.order])
            index = lp.run + 1
            if lp.offset + 1 < leftRun.length {
                right = ItemRef(replica: leftRun.replica, seq: left.seq &+ 1)
                splitRun(at: TreePosition(order: lp.order, run: lp.run, offset: lp.offset + 1))
            } else {
                let next = nextRunStart(after: lp)
                right = localRightOrigin(left: left, at: lp, next: next, visible: p)
                // When the left origin has no children (the element after it is not one), the new
                // text goes right after it whatever its right origin: placed here, as before.
                if next != endPosition, right != ref(at: next), run(at: next).left == left {
                    if insertLocalByRule(utf8, scalars: scalars, utf16: utf16, at: p, replica: r, left: left, right: right) { return }
                    right = ref(at: next)
                }
                // Typing on: extend the run instead of starting a new one.
                if leftRun.replica == r, leftRun.seqEnd == seq, !leftRun.isDeleted, leftRun.right == right,
                   Int(leftRun.byteStart) + Int(leftRun.byteCount) == content.count {
                    extend(slot: slot, index: lp.run, with: utf8, scalars: scalars, utf16: utf16, replica: r, seq: seq)
                    typingCursor = TypingCursor(scalarEnd: p + scalars, slot: slot, index: lp.run, replica: r)
                    editCursor = EditCursor(slot: slot, index: lp.run, scalarsBefore: p - Int(leftRun.length))
                    return
                }
            }
        }
        let newRun = Run(replica: r, seq: seq, length: UInt32(scalars), utf16: UInt32(utf16),
                         byteStart: byteStart, byteCount: UInt32(utf8.count), left: left, right: right)
        appendContent(utf8)
        leaves[slot].insertInPlace(newRun, at: index)
        runCount += 1
        leafOf[Int(r)].append(scalars, slot: Int32(slot))
        nextSeq[Int(r)] = seq &+ UInt32(scalars)
        adjust(slot: slot, scalars: scalars, utf16: utf16)
        if leaves[slot].count > Self.leafCapacity {
            splitLeafIfNeeded(slot)
        } else {
            typingCursor = TypingCursor(scalarEnd: p + scalars, slot: slot, index: index, replica: r)
            editCursor = EditCursor(slot: slot, index: index, scalarsBefore: p)
        }
    }

    /// Most ancestors `localRightOrigin` climbs through before it settles for the element right
    /// after the left origin.
    static let rightOriginSearchLimit = 64

    /// The right origin of a local insertion placed right after `left` (at `leftPosition`; none
    /// and nil: the document start), whose next element, `next`, starts a run (or is the end),
    /// and which becomes visible scalar `p`.
    ///
    /// When `next` is visible (or the end) it is the right origin, as in every editor. When it is a
    /// tombstone, the new text lands among tombstones anyway, and the right origin can be any
    /// element the rule accepts that keeps it there (FORMAT.md §1, "Right origins of local
    /// insertions"): with `b` the next visible element (the one now at `p`), the ancestor of `b`
    /// (or `b` itself) that is a child of `left` when `b` descends from `left`, else none (`b`
    /// then lies after `left`'s block, and a child of `left` without a right origin stays inside
    /// that block). So text typed where text was deleted names no deleted text that is not an ancestor of
    /// visible text, which is what lets compaction drop it. Bounded: past
    /// `rightOriginSearchLimit` ancestors it takes `next`.
    func localRightOrigin(left: ItemRef, at leftPosition: TreePosition?, next: TreePosition, visible p: Int) -> ItemRef {
        guard next != endPosition else { return .none }
        let first = run(at: next)
        guard first.isDeleted else { return ItemRef(replica: first.replica, seq: first.seq) }
        guard p < scalarCount else { return .none }
        // The next visible run: usually within a few runs (text just deleted), else by the tree.
        var visible = nextRunStart(after: next)
        for _ in 0..<4 where visible != endPosition && run(at: visible).isDeleted { visible = nextRunStart(after: visible) }
        if visible == endPosition || run(at: visible).isDeleted { visible = position(ofScalar: p) }
        let b = run(at: visible)
        // Climb from b's run start through its ancestors (parents are left origins) until the
        // climb reaches `left` (b is in its block) or passes it (b lies after its block).
        var child = ItemRef(replica: b.replica, seq: b.seq)
        var parent = b.left
        for _ in 0..<Self.rightOriginSearchLimit {
            if parent == left { return child }
            if parent.isNone { return .none }
            let at = locate(parent)
            if let leftPosition, at < leftPosition { return .none }
            let holder = run(at: at)
            child = ItemRef(replica: holder.replica, seq: holder.seq)
            parent = holder.left
        }
        return ItemRef(replica: first.replica, seq: first.seq)
    }

    /// Inserts a local run whose right origin is not the element right after `left` (see
    /// `localRightOrigin`): it goes where the merge rule puts it, among the tombstones between
    /// `left` and the next visible character, exactly as a peer integrating it will place it;
    /// then typing on extends it.
    private mutating func insertLocalByRule(_ utf8: UnsafeBufferPointer<UInt8>, scalars: Int, utf16: Int, at p: Int, replica r: UInt32,
                                            left: ItemRef, right: ItemRef) -> Bool {
        let seq = nextSeq[Int(r)]
        let new = Run(replica: r, seq: seq, length: UInt32(scalars), utf16: UInt32(utf16),
                      byteStart: 0, byteCount: UInt32(utf8.count), left: left, right: right)
        // A right origin this rule picked is one the merge rule accepts; if it ever were not,
        // `integrate` inserts nothing and the caller falls back to the adjacent element.
        guard integrate(new, content: ArraySlice(utf8)) >= 0 else {
            assertionFailure("localRightOrigin picked origins the merge rule refuses: \(left) \(right)")
            return false
        }
        let last = locate(ItemRef(replica: r, seq: seq &+ UInt32(scalars) &- 1))
        let length = run(at: last).length
        guard last.offset &+ 1 == length else { return true }
        typingCursor = TypingCursor(scalarEnd: p + scalars, slot: slot(at: last), index: last.run, replica: r)
        editCursor = EditCursor(slot: slot(at: last), index: last.run, scalarsBefore: p + scalars - Int(length))
        return true
    }

    /// Appends freshly typed text to the run at `index` of `slot` (its content is last in the
    /// buffer); returns the run's new length.
    @inline(__always) @discardableResult
    private mutating func extend(slot: Int, index: Int, with utf8: UnsafeBufferPointer<UInt8>, scalars: Int, utf16: Int, replica r: UInt32, seq: UInt32) -> Int {
        let length = leaves[slot].withUnsafeMutableBufferPointer { runs in
            runs[index].length &+= UInt32(scalars)
            runs[index].utf16 &+= UInt32(utf16)
            runs[index].byteCount &+= UInt32(utf8.count)
            return Int(runs[index].length)
        }
        appendContent(utf8)
        leafOf[Int(r)].append(scalars, slot: Int32(slot))
        nextSeq[Int(r)] = seq &+ UInt32(scalars)
        adjust(slot: slot, scalars: scalars, utf16: utf16)
        return length
    }

    /// Deletes the single visible scalar at `position` (visible index `scalar`) without adding
    /// or removing a run, when it is the last character of its run and the tombstone after
    /// can take it (backspacing), or the first and the tombstone before can (deleting
    /// forwards): the boundary between the two runs moves by one. Returns false, changing
    /// nothing, in every other case.
    private mutating func deleteOneByMovingBoundary<R: DeletionRecorder>(at position: TreePosition, scalar p: Int, recording recorder: inout R) -> Bool {
        let slot = Int(order[position.order])
        let i = position.run
        // Decided on a read-only view first: when the boundary cannot move (most deletions
        // that are not backspacing), nothing is checked for copy-on-write.
        let joinsNext: Bool? = leaves[slot].withUnsafeBufferPointer { runs in
            let run = runs[i]
            guard run.length >= 2 else { return nil }
            if position.offset == run.length &- 1, i + 1 < runs.count {
                // The last character joins the tombstone after it.
                let next = runs[i + 1]
                let id = run.seq &+ position.offset
                guard next.isDeleted, next.replica == run.replica, next.seq == id &+ 1, next.right == run.right,
                      next.left == ItemRef(replica: run.replica, seq: id) else { return nil }
                return true
            }
            if position.offset == 0, i > 0 {
                // The first character joins the tombstone before it.
                let previous = runs[i - 1]
                guard previous.isDeleted, previous.replica == run.replica, previous.seqEnd == run.seq,
                      previous.right == run.right, run.left == ItemRef(replica: run.replica, seq: run.seq &- 1) else { return nil }
                return false
            }
            return nil
        }
        guard let joinsNext else { return false }
        let run = leaves[slot][i]
        let units: Int
        let id: UInt32
        let byteRange: Range<Int>
        if joinsNext {
            id = run.seq &+ position.offset
            let (bytes, lastUnits) = Self.lastScalarSize(content, run: run)
            units = lastUnits
            // Unchecked arithmetic: nothing here can trap, so none of it is left when nothing
            // is recorded.
            let end = Int(run.byteStart) &+ Int(run.byteCount)
            byteRange = Range(uncheckedBounds: (end &- bytes, end))
            leaves[slot].withUnsafeMutableBufferPointer { runs in
                runs[i].length &-= 1
                runs[i].byteCount &-= UInt32(bytes)
                runs[i].utf16 &-= UInt32(units)
                runs[i + 1].seq = id
                runs[i + 1].length &+= 1
                runs[i + 1].left = ItemRef(replica: run.replica, seq: id &- 1)
            }
            editCursor = EditCursor(slot: slot, index: i, scalarsBefore: p - Int(run.length &- 1))
        } else {
            id = run.seq
            let lead = content[Int(run.byteStart)]
            let bytes = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            units = bytes == 4 ? 2 : 1
            byteRange = Range(uncheckedBounds: (Int(run.byteStart), Int(run.byteStart) &+ bytes))
            leaves[slot].withUnsafeMutableBufferPointer { runs in
                runs[i - 1].length &+= 1
                runs[i].seq &+= 1
                runs[i].length &-= 1
                runs[i].left = ItemRef(replica: run.replica, seq: run.seq)
                runs[i].byteStart &+= UInt32(bytes)
                runs[i].byteCount &-= UInt32(bytes)
                runs[i].utf16 &-= UInt32(units)
            }
            editCursor = EditCursor(slot: slot, index: i - 1, scalarsBefore: p)
        }
        deleted[Int(run.replica)].insert(id..<id &+ 1)
        noteTouched(deleted: id..<id &+ 1, replica: run.replica)
        adjust(slot: slot, scalars: -1, utf16: -units)
        let ref = ItemRef(replica: run.replica, seq: id)
        recorder.deleted(VisibleStretch(first: ref, last: ref, bytes: byteRange, scalars: 1, utf16: units))
        return true
    }

    /// Appends typed text to the content buffer; a single byte (most keystrokes) without the
    /// generic bulk append.
    @inline(__always)
    private mutating func appendContent(_ utf8: UnsafeBufferPointer<UInt8>) {
        if utf8.count == 1 { content.append(utf8[0]) } else { content.append(contentsOf: utf8) }
    }

    /// UTF-8 bytes and UTF-16 units of the last character of a visible run.
    @inline(__always)
    private static func lastScalarSize(_ content: [UInt8], run: Run) -> (bytes: Int, utf16: Int) {
        if run.byteCount == run.length { return (1, 1) }
        var start = Int(run.byteStart + run.byteCount) - 1
        while content[start] & 0xC0 == 0x80 { start -= 1 }
        let bytes = Int(run.byteStart + run.byteCount) - start
        return (bytes, bytes == 4 ? 2 : 1)
    }

    /// Deletes the visible scalars `range` (tombstones: ids and origins stay).
    @inline(__always)
    mutating func deleteLocal(_ range: Range<Int>) {
        var ignored = IgnoredDeletions()
        deleteLocal(range, recording: &ignored)
    }

    /// Deletes the visible scalars `range` (tombstones: ids and origins stay), telling `recorder`
    /// what each run lost, in document order (undo keeps it without a second walk).
    mutating func deleteLocal<R: DeletionRecorder>(_ range: Range<Int>, recording recorder: inout R) {
        guard !range.isEmpty else { return }
        defer { checkAfterMutation("local deletion") }
        typingCursor = nil
        var remaining = UInt32(range.count)
        let start = nearbyPosition(ofScalar: range.lowerBound)
        if range.count == 1, deleteOneByMovingBoundary(at: start, scalar: range.lowerBound, recording: &recorder) { return }
        editCursor = nil
        // The run just before the deleted ones keeps its index and start through the
        // coalescing below, so it anchors the edit cursor afterwards.
        let anchorIndex = start.offset > 0 ? start.run : start.run - 1
        let anchorBefore: Int
        if anchorIndex >= 0 {
            let anchor = run(at: TreePosition(order: start.order, run: anchorIndex, offset: 0))
            anchorBefore = range.lowerBound - (start.offset > 0 ? Int(start.offset) : anchor.visibleScalars)
        } else {
            anchorBefore = range.lowerBound
        }
        splitRun(at: start)
        var orderPos = start.order
        var index = start.offset > 0 ? start.run + 1 : start.run
        // Only the first and last leaf gain runs (from splits), so at most two need splitting.
        let firstSlot = Int(order[orderPos])
        var lastSlot = firstSlot
        while remaining > 0 && orderPos < order.count {
            let slot = Int(order[orderPos])
            lastSlot = slot
            let firstIndex = index
            var scalars = 0
            var units = 0
            while remaining > 0 && index < leaves[slot].count {
                let r = leaves[slot][index]
                if r.isDeleted { index += 1; continue }
                if r.length > remaining {
                    splitRun(at: TreePosition(order: orderPos, run: index, offset: remaining))
                }
                let target = leaves[slot][index]
                scalars -= Int(target.length)
                units -= Int(target.utf16)
                recorder.deleted(VisibleStretch(
                    first: ItemRef(replica: target.replica, seq: target.seq),
                    last: ItemRef(replica: target.replica, seq: target.seqEnd &- 1),
                    bytes: Range(uncheckedBounds: (Int(target.byteStart), Int(target.byteStart) &+ Int(target.byteCount))),
                    scalars: Int(target.length), utf16: Int(target.utf16)))
                leaves[slot][index].markDeleted()
                deleted[Int(target.replica)].insert(target.seq..<target.seqEnd)
                noteTouched(deleted: target.seq..<target.seqEnd, replica: target.replica)
                remaining -= target.length
                index += 1
            }
            adjust(slot: slot, scalars: scalars, utf16: units)
            coalesce(slot: slot, from: firstIndex - 1, through: index)
            orderPos += 1
            index = 0
        }
        if lastSlot == firstSlot {
            editCursor = EditCursor(slot: firstSlot, index: max(anchorIndex, 0), scalarsBefore: anchorBefore)
        }
        splitLeafIfNeeded(firstSlot)
        if lastSlot != firstSlot { splitLeafIfNeeded(lastSlot) }
    }
}
