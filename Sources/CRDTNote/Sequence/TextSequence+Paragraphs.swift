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
        var end = min(k, scalarCount)
        while end > 0 {
            let position = position(ofScalar: end - 1)
            let run = run(at: position)
            var found: ItemRef?
            var scalar: UInt32 = 0
            for i in Int(run.byteStart)..<Int(run.byteStart + run.byteCount) where content[i] & 0xC0 != 0x80 {
                if scalar > position.offset { break }
                if content[i] == 0x0A { found = ItemRef(replica: run.replica, seq: run.seq &+ scalar) }
                scalar += 1
            }
            if let found { return found }
            end -= Int(position.offset) + 1
        }
        return nil
    }

    /// The replicas (by index) of the elements from position `first` through `last`
    /// (`first <= last`), tombstones included. O(log n + the runs between).
    func replicas(from first: TreePosition, through last: TreePosition) -> Set<UInt32> {
        var found: Set<UInt32> = [run(at: first).replica]
        var position = nextRunStart(after: first)
        let end = endPosition
        while position != end, position <= last {
            found.insert(run(at: position).replica)
            position = nextRunStart(after: position)
        }
        return found
    }
}
