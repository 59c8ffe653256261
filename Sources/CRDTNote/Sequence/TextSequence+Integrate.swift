extension TextSequence {
    /// Places a remote run with the FugueMax / YjsMod rule and inserts it.
    ///
    /// Start right after the left origin and scan towards the right origin. Elements met
    /// on the way were inserted concurrently at the same gap; the rule (Gentle's YjsMod,
    /// equal to FugueMax) orders them so that concurrent runs never interleave, whether
    /// typed forwards or backwards. Ties between elements with identical origins go to
    /// the smaller replica id. Only origins are compared, so every replica computes the
    /// same place regardless of the order it receives runs in.
    mutating func integrate(_ new: Run, content bytes: ArraySlice<UInt8>) {
        typingCursor = nil
        editCursor = nil
        let end = endPosition
        let leftPos: TreePosition? = new.left.isNone ? nil : locate(new.left)
        var pos = leftPos.map { nextElement(after: $0) } ?? startPosition
        // Usually the right origin still follows the left one directly: no second lookup.
        let rightPos = new.right.isNone ? end
            : (pos != end && ref(at: pos) == new.right ? pos : locate(new.right))
        var dest = pos
        var scanning = false
        let newID = replicas[Int(new.replica)]
        while true {
            if !scanning { dest = pos }
            if pos == end || pos == rightPos { break }
            let other = run(at: pos)
            let otherLeft = other.leftOrigin(at: pos.offset)
            let leftOrder: Int
            if otherLeft == new.left { leftOrder = 0 }
            else if otherLeft.isNone { leftOrder = -1 }
            else if let leftPos { leftOrder = locate(otherLeft) < leftPos ? -1 : 1 }
            else { leftOrder = 1 }
            if leftOrder < 0 { break }
            if leftOrder == 0 {
                let otherRight = other.right.isNone ? end : locate(other.right)
                if otherRight < rightPos {
                    scanning = true
                } else if otherRight == rightPos {
                    if newID < replicas[Int(other.replica)] { break }
                    scanning = false
                } else {
                    scanning = false
                }
            }
            // The run's later characters have their predecessor as left origin: always skipped.
            if rightPos.order == pos.order && rightPos.run == pos.run && rightPos.offset > pos.offset {
                pos = rightPos
            } else {
                pos = nextRunStart(after: pos)
            }
        }
        var placed = new
        if !new.isDeleted, recordingPatch {
            let at = visibleOffsets(before: dest)
            patchRecorder.replace(scalarOffset: at.scalars, utf16Offset: at.utf16, removedScalars: 0, removedUTF16: 0,
                                   with: bytes, scalars: Int(new.length), utf16: Int(new.utf16))
        }
        if !new.isDeleted {
            placed.byteStart = UInt32(content.count)
            content.append(contentsOf: bytes)
        } else {
            deleted[Int(new.replica)].insert(new.seq..<new.seqEnd)
        }
        let slot: Int
        let index: Int
        if dest == end {
            slot = Int(order[order.count - 1])
            index = leaves[slot].count
        } else {
            slot = Int(order[dest.order])
            reserveRuns(2, inLeaf: slot)
            splitRun(at: dest)
            index = dest.offset > 0 ? dest.run + 1 : dest.run
        }
        reserveRuns(1, inLeaf: slot)
        leaves[slot].insert(placed, at: index)
        runCount += 1
        leafOf[Int(new.replica)].append(Int(new.length), slot: Int32(slot))
        nextSeq[Int(new.replica)] = new.seqEnd
        adjust(slot: slot, scalars: placed.visibleScalars, utf16: placed.visibleUTF16)
        mergeWithNext(slot: slot, index: index - 1)
        splitLeafIfNeeded(slot)
    }

    /// Marks the ids `seq..<seq+length` of `replica` deleted (all must exist), noting in `touched`
    /// the leaf slots that changed (a slot may be noted more than once).
    mutating func deleteIDs(replica r: UInt32, seq: UInt32, length: UInt32, touched: inout [Int]) {
        typingCursor = nil
        editCursor = nil
        var s = seq
        let end = seq + length
        defer { deleted[Int(r)].insert(seq..<end) }
        while s < end {
            var p = locate(ItemRef(replica: r, seq: s))
            let found = run(at: p)
            let take = min(found.length - p.offset, end - s)
            if !found.isDeleted {
                let slot = Int(order[p.order])
                reserveRuns(2, inLeaf: slot)
                splitRun(at: p)
                if p.offset > 0 { p = TreePosition(order: p.order, run: p.run + 1, offset: 0) }
                if leaves[slot][p.run].length > take {
                    splitRun(at: TreePosition(order: p.order, run: p.run, offset: take))
                }
                let target = leaves[slot][p.run]
                if recordingPatch {
                    let at = visibleOffsets(before: p)
                    patchRecorder.replace(scalarOffset: at.scalars, utf16Offset: at.utf16, removedScalars: Int(target.length),
                                           removedUTF16: Int(target.utf16), with: EmptyCollection(), scalars: 0, utf16: 0)
                }
                leaves[slot][p.run].markDeleted()
                adjust(slot: slot, scalars: -Int(target.length), utf16: -Int(target.utf16))
                if touched.last != slot { touched.append(slot) }
                splitLeafIfNeeded(slot)
            }
            s += take
        }
    }
}
