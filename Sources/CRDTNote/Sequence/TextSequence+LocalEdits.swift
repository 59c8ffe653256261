extension TextSequence {
    /// Inserts valid UTF-8 `utf8` (`scalars` scalars, `utf16` units) as new elements of
    /// `replica` so that it starts at visible scalar `p`. The new run is anchored to the
    /// visible character on its left and placed directly after it (before any tombstones).
    mutating func insertLocal(_ utf8: UnsafeBufferPointer<UInt8>, scalars: Int, utf16: Int, at p: Int, replica r: UInt32) {
        guard scalars > 0 else { return }
        let seq = nextSeq[Int(r)]
        if let cursor = typingCursor, cursor.scalarEnd == p, cursor.replica == r {
            extend(slot: cursor.slot, index: cursor.index, with: utf8, scalars: scalars, utf16: utf16, replica: r, seq: seq)
            typingCursor?.scalarEnd = p + scalars
            return
        }
        typingCursor = nil
        let byteStart = UInt32(content.count)
        var left = ItemRef.none
        let right: ItemRef
        var slot: Int
        var index: Int
        if p == 0 {
            let start = startPosition
            right = start == endPosition ? .none : ref(at: start)
            slot = Int(order[0])
            index = 0
        } else {
            let lp = position(ofScalar: p - 1)
            let leftRun = run(at: lp)
            left = ItemRef(replica: leftRun.replica, seq: leftRun.seq &+ lp.offset)
            slot = Int(order[lp.order])
            index = lp.run + 1
            if lp.offset + 1 < leftRun.length {
                right = ItemRef(replica: leftRun.replica, seq: left.seq &+ 1)
                splitRun(at: TreePosition(order: lp.order, run: lp.run, offset: lp.offset + 1))
            } else {
                let next = nextRunStart(after: lp)
                right = next == endPosition ? .none : ref(at: next)
                // Typing on: extend the run instead of starting a new one.
                if leftRun.replica == r, leftRun.seqEnd == seq, !leftRun.isDeleted, leftRun.right == right,
                   Int(leftRun.byteStart) + Int(leftRun.byteCount) == content.count {
                    extend(slot: slot, index: lp.run, with: utf8, scalars: scalars, utf16: utf16, replica: r, seq: seq)
                    typingCursor = TypingCursor(scalarEnd: p + scalars, slot: slot, index: lp.run, replica: r)
                    return
                }
            }
        }
        let newRun = Run(replica: r, seq: seq, length: UInt32(scalars), utf16: UInt32(utf16),
                         byteStart: byteStart, byteCount: UInt32(utf8.count), left: left, right: right)
        content.append(contentsOf: utf8)
        leaves[slot].insert(newRun, at: index)
        runCount += 1
        leafOf[Int(r)].append(scalars, slot: Int32(slot))
        nextSeq[Int(r)] = seq &+ UInt32(scalars)
        adjust(slot: slot, scalars: scalars, utf16: utf16)
        if leaves[slot].count > Self.leafCapacity {
            splitLeafIfNeeded(slot)
        } else {
            typingCursor = TypingCursor(scalarEnd: p + scalars, slot: slot, index: index, replica: r)
        }
    }

    /// Appends freshly typed text to the run at `index` of `slot` (its content is last in the buffer).
    @inline(__always)
    private mutating func extend(slot: Int, index: Int, with utf8: UnsafeBufferPointer<UInt8>, scalars: Int, utf16: Int, replica r: UInt32, seq: UInt32) {
        leaves[slot].withUnsafeMutableBufferPointer { runs in
            runs[index].length &+= UInt32(scalars)
            runs[index].utf16 &+= UInt32(utf16)
            runs[index].byteCount &+= UInt32(utf8.count)
        }
        content.append(contentsOf: utf8)
        leafOf[Int(r)].append(scalars, slot: Int32(slot))
        nextSeq[Int(r)] = seq &+ UInt32(scalars)
        adjust(slot: slot, scalars: scalars, utf16: utf16)
    }

    /// Deletes the visible scalars `range` (tombstones: ids and origins stay).
    mutating func deleteLocal(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        typingCursor = nil
        var remaining = UInt32(range.count)
        let start = position(ofScalar: range.lowerBound)
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
                leaves[slot][index].markDeleted()
                remaining -= target.length
                index += 1
            }
            adjust(slot: slot, scalars: scalars, utf16: units)
            coalesce(slot: slot, from: firstIndex - 1, through: index)
            orderPos += 1
            index = 0
        }
        splitLeafIfNeeded(firstSlot)
        if lastSlot != firstSlot { splitLeafIfNeeded(lastSlot) }
    }
}
