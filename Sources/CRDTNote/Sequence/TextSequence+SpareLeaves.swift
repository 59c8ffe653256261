/// Spare leaves: empty leaf slots kept in `order` between the leaves, so a leaf split off another
/// takes a spare next to it instead of being inserted into `order`.
///
/// Inserting into the flat `order` array moves every later position, and the Fenwick trees are
/// indexed by position, so an insertion rebuilds them from there: O(leaves). A spare already has
/// a position (an empty leaf counts zero everywhere, and every walk over the leaves passes empty
/// ones), so taking one costs a few Fenwick point updates: O(log n). When no spare is near, the
/// order from the split leaf on is laid out again with a spare after every leaf, which costs what
/// the insertion would have, and leaves spares for the next splits there.
extension TextSequence {
    /// How many positions either side of a split leaf are searched for a spare. Leaves between
    /// the spare and the split leaf shift by one position (a Fenwick point update each).
    static let spareSearchDistance = 8

    /// An empty leaf slot at the order position right after (or, with `before`, right before)
    /// the leaf at `position`, which must not be empty. The caller fills it (`moveRuns`). Positions
    /// of other leaves may change; slots never do.
    mutating func spareSlot(besideLeafAt position: Int, before: Bool = false) -> Int {
        // Moving leaves reads their counts (`setPosition`), and `moveRuns` sets the spare's.
        flushSlotCounts()
        if let spare = nearestSpare(to: position) { return takeSpare(at: spare, beside: position, before: before) }
        layOutSpares(from: position)
        return takeSpare(at: position + 1, beside: position, before: before)
    }

    /// The position of the spare nearest to `position`, within `spareSearchDistance`.
    private func nearestSpare(to position: Int) -> Int? {
        let n = order.count
        for distance in 1...Self.spareSearchDistance {
            let right = position + distance
            let left = position - distance
            if right < n, leaves[Int(order[right])].isEmpty { return right }
            if left >= 0, leaves[Int(order[left])].isEmpty { return left }
            if right >= n && left < 0 { return nil }
        }
        return nil
    }

    /// Moves the spare at `spare` next to the leaf at `leaf`, shifting the leaves between by one place.
    private mutating func takeSpare(at spare: Int, beside leaf: Int, before: Bool) -> Int {
        let slot = Int(order[spare])
        if spare > leaf {
            shiftRight(from: before ? leaf : leaf + 1, spareAt: spare)
        } else {
            shiftLeft(spareAt: spare, through: before ? leaf - 1 : leaf)
        }
        return slot
    }

    /// Moves the spare at `spare` back to `start` (`start < spare`), the leaves at `start..<spare`
    /// one place on.
    private mutating func shiftRight(from start: Int, spareAt spare: Int) {
        let spareSlot = order[spare]
        var j = spare
        while j > start {
            let moved = order[j - 1]
            setPosition(j, to: moved, replacing: order[j])
            j -= 1
        }
        setPosition(start, to: spareSlot, replacing: order[start])
    }

    /// Moves the spare at `spare` on to `end` (`spare < end`), the leaves at `spare + 1...end` one
    /// place back.
    private mutating func shiftLeft(spareAt spare: Int, through end: Int) {
        let spareSlot = order[spare]
        var j = spare
        while j < end {
            let moved = order[j + 1]
            setPosition(j, to: moved, replacing: order[j])
            j += 1
        }
        setPosition(end, to: spareSlot, replacing: order[end])
    }

    /// Puts `slot` at order position `position` in place of `old`, updating both Fenwick trees
    /// by the difference of their counts.
    private mutating func setPosition(_ position: Int, to slot: Int32, replacing old: Int32) {
        order[position] = slot
        orderIndex[Int(slot)] = Int32(position)
        noteTouched(slot: Int(slot))
        let scalars = slotScalars[Int(slot)] - slotScalars[Int(old)]
        let units = slotUTF16[Int(slot)] - slotUTF16[Int(old)]
        if scalars != 0 { scalarTree.add(scalars, at: position) }
        if units != 0 { utf16Tree.add(units, at: position) }
    }

    /// Lays out `order` from `start` on again with one spare after every leaf (reusing the spares
    /// found there, adding slots as needed) and rebuilds the indexes from `start`: O(leaves after
    /// `start`). The leaf at `start` stays there.
    mutating func layOutSpares(from start: Int) {
        var tail: [Int32] = []
        var spares: [Int32] = []
        tail.reserveCapacity(2 * (order.count - start) + 2)
        for i in start..<order.count {
            let slot = order[i]
            if leaves[Int(slot)].isEmpty { spares.append(slot) } else { tail.append(slot) }
        }
        var laidOut: [Int32] = []
        laidOut.reserveCapacity(2 * tail.count + spares.count)
        var next = 0
        for slot in tail {
            laidOut.append(slot)
            if next < spares.count {
                laidOut.append(spares[next])
                next += 1
            } else {
                laidOut.append(Int32(leaves.count))
                leaves.append([])
                slotScalars.append(0)
                slotUTF16.append(0)
                orderIndex.append(0)
            }
        }
        // Spares left over (leaves only ever gain spares here, so rarely any) stay at the end.
        laidOut.append(contentsOf: spares[next...])
        order.replaceSubrange(start..., with: laidOut)
        rebuildIndexes(from: start)
    }

    /// Moves `runs` (taken out of leaf `from` by the caller) into the empty leaf `to`: counts, the
    /// Fenwick trees and `leafOf`.
    ///
    /// Runs whose ids continue each other (a run split by a later insertion, the pieces often
    /// moving together) are re-pointed in `leafOf` as one range: each `assign` is a search and
    /// may copy a chunk still shared with another copy of the note.
    mutating func moveRuns(_ runs: [Run], from: Int, to: Int) {
        noteTouched(slot: from)
        noteTouched(slot: to)
        var scalars = 0
        var units = 0
        // (replica << 32 | first id, end id) per run, sorted, then joined where ids continue.
        var ranges: [(key: UInt64, end: UInt32)] = []
        ranges.reserveCapacity(runs.count)
        for r in runs {
            scalars += r.visibleScalars
            units += r.visibleUTF16
            ranges.append((UInt64(r.replica) << 32 | UInt64(r.seq), r.seqEnd))
        }
        ranges.sort { $0.key < $1.key }
        var i = 0
        while i < ranges.count {
            let replica = Int(ranges[i].key >> 32)
            let start = UInt32(truncatingIfNeeded: ranges[i].key)
            var end = ranges[i].end
            i += 1
            while i < ranges.count, ranges[i].key == UInt64(replica) << 32 | UInt64(end) {
                end = ranges[i].end
                i += 1
            }
            leafOf[replica].assign(start..<end, slot: Int32(to))
        }
        leaves[to] = runs
        slotScalars[from] -= scalars
        slotUTF16[from] -= units
        slotScalars[to] = scalars
        slotUTF16[to] = units
        if scalars != 0 {
            scalarTree.add(-scalars, at: Int(orderIndex[from]))
            scalarTree.add(scalars, at: Int(orderIndex[to]))
        }
        if units != 0 {
            utf16Tree.add(-units, at: Int(orderIndex[from]))
            utf16Tree.add(units, at: Int(orderIndex[to]))
        }
    }
}
