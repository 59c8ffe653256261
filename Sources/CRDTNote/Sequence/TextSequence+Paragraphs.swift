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
    /// (Docs/FORMAT.md §10.5). O((runs scanned back) · log n).
    func lastNewline(beforeScalar k: Int) -> ItemRef? {
        guard k > 0 else { return nil }
        var position = position(ofScalar: min(k, scalarCount) - 1)
        // Scalars of the run at `position` to look at: through the offset, then whole runs.
        var through = position.offset
        while true {
            let run = run(at: position)
            var found: ItemRef?
            var scalar: UInt32 = 0
            for i in Int(run.byteStart)..<Int(run.byteStart + run.byteCount) where content[i] & 0xC0 != 0x80 {
                if scalar > through { break }
                if content[i] == 0x0A { found = ItemRef(replica: run.replica, seq: run.seq &+ scalar) }
                scalar += 1
            }
            if let found { return found }
            guard let previous = previousRunStart(before: position) else { return nil }
            position = previous
            through = .max
        }
    }

    /// The start of the run before the one at `position`, nil at the document's first run.
    private func previousRunStart(before position: TreePosition) -> TreePosition? {
        var p = TreePosition(order: position.order, run: position.run - 1, offset: 0)
        while p.run < 0 {
            guard p.order > 0 else { return nil }
            p.order -= 1
            p.run = leaves[Int(order[p.order])].count - 1
        }
        return p
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
