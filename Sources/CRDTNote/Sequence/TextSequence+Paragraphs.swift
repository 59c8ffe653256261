extension TextSequence {
    /// The newlines (U+000A) among the visible scalars `range`, in order: each one's id and
    /// visible scalar offset. O(log n + the runs and bytes the range spans).
    func newlines(inScalars range: Range<Int>) -> [(ref: ItemRef, scalar: Int)] {
        guard !range.isEmpty else { return [] }
        var found: [(ref: ItemRef, scalar: Int)] = []
        var position = position(ofScalar: range.lowerBound)
        // The visible offset of the first scalar of the run at `position`.
        var runStart = range.lowerBound - Int(position.offset)
        let end = endPosition
        while position != end, runStart < range.upperBound {
            let run = run(at: position)
            if !run.isDeleted {
                var scalar = 0
                for i in Int(run.byteStart)..<Int(run.byteStart + run.byteCount) where content[i] & 0xC0 != 0x80 {
                    let at = runStart + scalar
                    if at >= range.upperBound { break }
                    if content[i] == 0x0A, at >= range.lowerBound {
                        found.append((ItemRef(replica: run.replica, seq: run.seq &+ UInt32(scalar)), at))
                    }
                    scalar += 1
                }
                runStart += Int(run.length)
            }
            position = nextRunStart(after: position)
        }
        return found
    }

    /// The id of the last visible newline before visible scalar offset `k` (0...scalarCount),
    /// nil when there is none: the key of the paragraph holding caret position `k`
    /// (Docs/FORMAT.md §10.5). O(log n + the runs and bytes scanned back), eight bytes a step;
    /// no search of the tree when `k` is just after the last local edit (a newline typed).
    func lastNewline(beforeScalar k: Int) -> ItemRef? {
        guard k > 0 else { return nil }
        let start = nearbyPosition(ofScalar: min(k, scalarCount) - 1)
        // The first run is looked at through the scalar at `start`, the others whole.
        let startRun = leaves[Int(order[start.order])][start.run]
        var byteEnd = Int(startRun.byteCount == startRun.length ? start.offset + 1
                          : UInt32(UTF8Counting.prefix(of: content, start: Int(startRun.byteStart), scalars: Int(start.offset) + 1).bytes))
        return content.withUnsafeBufferPointer { bytes -> ItemRef? in
            var o = start.order
            var i = start.run
            while true {
                // Each leaf's runs through one buffer: no reference counting per run stepped
                // over (a paragraph can hold hundreds of tombstone runs).
                let found: ItemRef? = leaves[Int(order[o])].withUnsafeBufferPointer { runs in
                    while i >= 0 {
                        let run = runs[i]
                        let first = Int(run.byteStart)
                        if byteEnd > 0, let b = UTF8Counting.lastNewline(in: bytes, from: first, to: first + byteEnd) {
                            // The newline's scalar offset in its run: its byte offset when the run is ASCII.
                            let scalar = run.byteCount == run.length ? b - first
                                : UTF8Counting.counts(bytes[first..<b]).scalars
                            return ItemRef(replica: run.replica, seq: run.seq &+ UInt32(scalar))
                        }
                        i -= 1
                        if i >= 0 { byteEnd = Int(runs[i].byteCount) }
                    }
                    return nil
                }
                if let found { return found }
                repeat {
                    guard o > 0 else { return nil }
                    o -= 1
                    i = leaves[Int(order[o])].count - 1
                } while i < 0
                byteEnd = Int(leaves[Int(order[o])][i].byteCount)
            }
        }
    }

    /// The position of the visible element before the visible element at `position`, nil when
    /// it is the first one. O(1) inside a run, else the runs stepped back over.
    func previousVisibleElement(before position: TreePosition) -> TreePosition? {
        if position.offset > 0 { return TreePosition(order: position.order, run: position.run, offset: position.offset - 1) }
        var o = position.order
        var i = position.run - 1
        while true {
            while i < 0 {
                guard o > 0 else { return nil }
                o -= 1
                i = leaves[Int(order[o])].count - 1
            }
            let run = leaves[Int(order[o])][i]
            if !run.isDeleted { return TreePosition(order: o, run: i, offset: run.length - 1) }
            i -= 1
        }
    }

    /// The replicas (by index) of the elements from position `first` through `last`
    /// (`first <= last`), tombstones included, each once. O(log n + the runs between × the
    /// replicas found).
    func replicas(from first: TreePosition, through last: TreePosition) -> [UInt32] {
        var found: [UInt32] = [run(at: first).replica]
        var position = nextRunStart(after: first)
        let end = endPosition
        // Stops early once every replica of the note was found (always, for a one-replica note).
        while position != end, position <= last, found.count < replicas.count {
            let replica = run(at: position).replica
            if !found.contains(replica) { found.append(replica) }
            position = nextRunStart(after: position)
        }
        return found
    }
}

extension TextSequence {
    /// The visible scalar offset of the first newline at or after visible scalar `k`, nil when
    /// there is none: where the paragraph holding scalar `k` ends. O(log n + the runs and
    /// bytes up to it).
    func firstNewline(atOrAfterScalar k: Int) -> Int? {
        guard k < scalarCount else { return nil }
        var position = position(ofScalar: k)
        var runStart = k - Int(position.offset)
        let end = endPosition
        while position != end {
            let run = run(at: position)
            if !run.isDeleted {
                var scalar = 0
                for i in Int(run.byteStart)..<Int(run.byteStart + run.byteCount) where content[i] & 0xC0 != 0x80 {
                    if content[i] == 0x0A, runStart + scalar >= k { return runStart + scalar }
                    scalar += 1
                }
                runStart += Int(run.length)
            }
            position = nextRunStart(after: position)
        }
        return nil
    }
}

extension TextSequence {
    /// The position of the visible element after the visible element at `position`, nil when
    /// it is the last one. O(1) inside a run, else the runs stepped over.
    func nextVisibleElement(after position: TreePosition) -> TreePosition? {
        if position.offset + 1 < run(at: position).length {
            return TreePosition(order: position.order, run: position.run, offset: position.offset + 1)
        }
        var p = nextRunStart(after: position)
        let end = endPosition
        while p != end {
            if !run(at: p).isDeleted { return p }
            p = nextRunStart(after: p)
        }
        return nil
    }
}
