extension TextSequence {
    /// Places a remote run with the FugueMax / YjsMod rule and inserts it.
    ///
    /// Start right after the left origin and scan towards the right origin. Elements met
    /// on the way were inserted concurrently at the same gap; the rule (Gentle's YjsMod,
    /// equal to FugueMax) orders them so that concurrent runs never interleave, whether
    /// typed forwards or backwards. Ties between elements with identical origins go to
    /// the smaller replica id. Only origins are compared, so every replica computes the
    /// same place regardless of the order it receives runs in.
    ///
    /// Returns the runs the scan examined: every one between the left origin and the place
    /// found, so up to the whole note when many concurrent runs share the gap. `apply` budgets
    /// them (see ``scanBudget(runs:inserts:)``).
    ///
    /// Returns -1, inserting nothing, when the origins are ones no editor could have written: the
    /// right origin must follow the left one and be either a child of it (same left origin) or
    /// outside the left origin's block (FORMAT.md §4.4, "Rule order"). In a state in the rule's
    /// order the scan finds out where it stops, so checking costs nothing when the right origin
    /// still follows the left one directly: reaching the right origin, it must not descend from
    /// an element in between; stopping at an element outside the block, the right origin must
    /// lie beyond it; reaching the end, it must be none. Then the state stays in the rule's order.
    @discardableResult
    mutating func integrate(_ new: Run, content bytes: ArraySlice<UInt8>) -> Int {
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
        var steps = 0
        let newID = replicas[Int(new.replica)]
        while true {
            if !scanning { dest = pos }
            if pos == rightPos {
                if steps > 0 && rightPos != end {
                    let rightLeft = run(at: rightPos).leftOrigin(at: rightPos.offset)
                    let possible = rightLeft == new.left
                        || (rightLeft.isNone ? !new.left.isNone : leftPos.map { locate(rightLeft) < $0 } ?? false)
                    if !possible { return -1 }
                }
                break
            }
            if pos == end { return -1 }
            steps &+= 1
            let other = run(at: pos)
            let otherLeft = other.leftOrigin(at: pos.offset)
            let leftOrder: Int
            if otherLeft == new.left { leftOrder = 0 }
            else if otherLeft.isNone { leftOrder = -1 }
            else if let leftPos { leftOrder = locate(otherLeft) < leftPos ? -1 : 1 }
            else { leftOrder = 1 }
            if leftOrder < 0 {
                if rightPos < pos { return -1 }
                break
            }
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
            noteTouched(deleted: new.seq..<new.seqEnd, replica: new.replica)
        }
        let slot: Int
        let index: Int
        if dest == end {
            slot = Int(order[order.count - 1])
            index = leaves[slot].count
            reserveRuns(1, inLeaf: slot)
            leaves[slot].append(placed)
        } else if dest.offset > 0 {
            // Inside a run: its first part stays, the new run and its second part follow (one shift).
            slot = Int(order[dest.order])
            reserveRuns(2, inLeaf: slot)
            let (first, second) = cut(leaves[slot][dest.run], at: dest.offset)
            leaves[slot][dest.run] = first
            leaves[slot].insertInPlace(placed, second, at: dest.run + 1)
            runCount += 1
            index = dest.run + 1
        } else {
            slot = Int(order[dest.order])
            reserveRuns(1, inLeaf: slot)
            leaves[slot].insertInPlace(placed, at: dest.run)
            index = dest.run
        }
        runCount += 1
        leafOf[Int(new.replica)].append(Int(new.length), slot: Int32(slot))
        nextSeq[Int(new.replica)] = new.seqEnd
        adjust(slot: slot, scalars: placed.visibleScalars, utf16: placed.visibleUTF16)
        mergeWithNext(slot: slot, index: index - 1)
        splitLeafIfNeeded(slot)
        return steps
    }

    /// Marks the ids `seq..<seq+length` of `replica` deleted (all must exist), noting in `touched`
    /// the leaf slots that changed (a slot may be noted more than once).
    mutating func deleteIDs(replica r: UInt32, seq: UInt32, length: UInt32, touched: inout [Int]) {
        typingCursor = nil
        editCursor = nil
        var s = seq
        let end = seq + length
        defer {
            deleted[Int(r)].insert(seq..<end)
            noteTouched(deleted: seq..<end, replica: r)
        }
        while s < end {
            let p = locate(ItemRef(replica: r, seq: s))
            let found = run(at: p)
            let take = min(found.length - p.offset, end - s)
            if !found.isDeleted {
                let slot = Int(order[p.order])
                // The run becomes up to three: what precedes the deleted ids, the deleted piece
                // (`target`), what follows; written back with one shift of the later runs.
                var head: Run? = nil
                var tail: Run? = nil
                var target = found
                if p.offset > 0 { (head, target) = cut(target, at: p.offset) }
                if target.length > take { (target, tail) = cut(target, at: take) }
                if recordingPatch {
                    // Counted on the unsplit leaf: the visible scalars before the run's offset.
                    let at = visibleOffsets(before: p)
                    patchRecorder.replace(scalarOffset: at.scalars, utf16Offset: at.utf16, removedScalars: Int(target.length),
                                           removedUTF16: Int(target.utf16), with: EmptyCollection(), scalars: 0, utf16: 0)
                }
                let removedUTF16 = Int(target.utf16)
                target.markDeleted()
                reserveRuns(2, inLeaf: slot)
                switch (head, tail) {
                case let (head?, tail?):
                    leaves[slot][p.run] = head
                    leaves[slot].insertInPlace(target, tail, at: p.run + 1)
                    runCount += 2
                case let (head?, nil):
                    leaves[slot][p.run] = head
                    leaves[slot].insertInPlace(target, at: p.run + 1)
                    runCount += 1
                case let (nil, tail?):
                    leaves[slot][p.run] = target
                    leaves[slot].insertInPlace(tail, at: p.run + 1)
                    runCount += 1
                case (nil, nil):
                    leaves[slot][p.run] = target
                }
                adjust(slot: slot, scalars: -Int(target.length), utf16: -removedUTF16)
                if touched.last != slot { touched.append(slot) }
                splitLeafIfNeeded(slot)
            }
            s += take
        }
    }
}
