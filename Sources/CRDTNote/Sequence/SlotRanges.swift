/// Which leaf slot holds each id `0..<count` of one replica, stored as ranges: a run of a
/// million ids in one leaf is one entry, not a million. Memory is proportional to the runs,
/// never to the ids they declare (a 2^26-id tombstone decoded from a few bytes stays a range).
///
/// Segments `(start, slot)` are sorted by `start`; each covers ids up to the next start (the
/// last one up to `count`). They are kept in chunks of at most `chunkCapacity`, so that moving
/// runs between leaves costs a search plus a shift within one chunk.
@usableFromInline
struct SlotRanges: Sendable {
    @usableFromInline struct Segment: Sendable {
        @usableFromInline var start: UInt32
        @usableFromInline var slot: Int32
        @inlinable init(start: UInt32, slot: Int32) { self.start = start; self.slot = slot }
    }

    @usableFromInline static let chunkCapacity = 64

    /// First start of each chunk (`chunks[c][0].start`).
    @usableFromInline var chunkStarts: [UInt32] = []
    @usableFromInline var chunks: [[Segment]] = []
    /// Ids covered: `0..<count`.
    @usableFromInline private(set) var count: UInt32 = 0

    @usableFromInline init() {}

    /// The slot of ids a compacted note no longer holds (Docs/FORMAT.md §4.7): below `count`, held
    /// by no run. ``locate`` must never be asked for one: check ``holds(_:)`` first wherever an id
    /// may come from outside the state (a change set, an anchor, an undo step).
    static let compacted: Int32 = -1

    /// Whether id `seq` is held by a run (below `count` and not compacted).
    func holds(_ seq: UInt32) -> Bool { seq < count && self[seq] != Self.compacted }

    /// Whether an id of `range` (within `0..<count`) is compacted: one search, then a walk over
    /// the segments the range spans.
    func anyCompacted(in range: Range<UInt32>) -> Bool {
        guard !range.isEmpty, range.lowerBound < count else { return false }
        var (c, i) = find(range.lowerBound)
        while true {
            if chunks[c][i].slot == Self.compacted { return true }
            if i + 1 < chunks[c].count { i += 1 } else if c + 1 < chunks.count { c += 1; i = 0 } else { return false }
            if chunks[c][i].start >= range.upperBound { return false }
        }
    }

    /// The slot of id `seq` (`seq < count`) and the end of the stretch of ids from it in that slot.
    func stretch(at seq: UInt32) -> (slot: Int32, end: UInt32) {
        let (c, i) = find(seq)
        let end = i + 1 < chunks[c].count ? chunks[c][i + 1].start : (c + 1 < chunks.count ? chunkStarts[c + 1] : count)
        return (chunks[c][i].slot, end)
    }

    /// Segments stored (for memory accounting in tests).
    var segmentCount: Int { chunks.reduce(0) { $0 + $1.count } }

    /// The slot of id `seq` (`seq < count`).
    @inlinable subscript(seq: UInt32) -> Int32 {
        let (c, i) = find(seq)
        return chunks[c][i].slot
    }

    /// Calls `body` with the slot and the ids of each stretch of ids sharing a slot, from the one
    /// holding `seq` on (starting at `seq`), in id order: one search, then a walk along the segments.
    func forEachStretch(from seq: UInt32, _ body: (_ slot: Int32, _ ids: Range<UInt32>) -> Void) {
        guard seq < count else { return }
        var (c, i) = find(seq)
        var start = seq
        while true {
            let slot = chunks[c][i].slot
            let next: UInt32
            if i + 1 < chunks[c].count {
                i += 1
            } else if c + 1 < chunks.count {
                c += 1
                i = 0
            } else {
                body(slot, start..<count)
                return
            }
            next = chunks[c][i].start
            body(slot, start..<next)
            start = next
        }
    }

    /// Chunk and index of the segment containing `seq`: two binary searches without branches
    /// on the comparisons (the halving step is a conditional move), over the chunk starts and
    /// then within the chunk.
    @inlinable func find(_ seq: UInt32) -> (Int, Int) {
        let c = chunkStarts.withUnsafeBufferPointer { $0.lastIndex(withKeyAtMost: seq) { $0 } }
        return (c, chunks[c].withUnsafeBufferPointer { $0.lastIndex(withKeyAtMost: seq) { $0.start } })
    }

    /// Adds ids `count..<count + length`, all in `slot`. Inlined up to the common case (typing
    /// on in the same leaf): the last segment already has `slot` and just covers more ids.
    @inlinable @inline(__always) mutating func append(_ length: Int, slot: Int32) {
        guard length > 0 else { return }
        if let last = chunks.last?.last, last.slot == slot {
            count &+= UInt32(length)
            return
        }
        appendSegment(length, slot: slot)
    }

    /// `append` when a new segment may be needed.
    @usableFromInline mutating func appendSegment(_ length: Int, slot: Int32) {
        if chunks.isEmpty {
            chunks = [[Segment(start: 0, slot: slot)]]
            chunkStarts = [0]
        } else if chunks[chunks.count - 1].last!.slot != slot {
            let c = chunks.count - 1
            if chunks[c].count >= Self.chunkCapacity {
                chunks.append([Segment(start: count, slot: slot)])
                chunkStarts.append(count)
            } else {
                chunks[c].append(Segment(start: count, slot: slot))
            }
        }
        count &+= UInt32(length)
    }

    /// Puts ids `range` (within `0..<count`) in `slot`.
    mutating func assign(_ range: Range<UInt32>, slot: Int32) {
        guard !range.isEmpty else { return }
        if assignWithinSegment(range, slot: slot) { return }
        if range.upperBound < count { splitSegment(at: range.upperBound) }
        splitSegment(at: range.lowerBound)
        var (c, i) = find(range.lowerBound)
        chunks[c][i].slot = slot
        // Drop the segments now covered by the one at `range.lowerBound`.
        while let (nc, ni) = next(c, i), chunks[nc][ni].start < range.upperBound { remove(nc, ni) }
        // Join equal neighbours so the count stays at most the number of runs.
        if let (nc, ni) = next(c, i), chunks[nc][ni].slot == slot { remove(nc, ni) }
        if let (pc, pi) = previous(c, i), chunks[pc][pi].slot == slot {
            remove(c, i)
            (c, i) = (pc, pi)
        }
    }

    /// `assign` when `range` lies inside one segment (a run moving to another leaf: its ids
    /// were all in the leaf it leaves), with one search: the segment is cut into at most three
    /// pieces, and a piece that joins a neighbour of the same slot extends that neighbour instead.
    /// Returns false, changing nothing, when `range` reaches past the segment holding its start.
    private mutating func assignWithinSegment(_ range: Range<UInt32>, slot: Int32) -> Bool {
        let (c, i) = find(range.lowerBound)
        let segment = chunks[c][i]
        let following = next(c, i)
        let end = following.map { chunks[$0.0][$0.1].start } ?? count
        guard range.upperBound <= end else { return false }
        if segment.slot == slot { return true }
        let atStart = range.lowerBound == segment.start
        let atEnd = range.upperBound == end
        let joinsPrevious = atStart && previous(c, i).map { chunks[$0.0][$0.1].slot == slot } ?? false
        let joinsNext = atEnd && following.map { chunks[$0.0][$0.1].slot == slot } ?? false
        switch (atStart, atEnd) {
        case (true, true):
            // The whole segment changes slot, and may merge with either neighbour.
            if joinsNext, let (nc, ni) = following { remove(nc, ni) }
            if joinsPrevious { remove(c, i) } else { chunks[c][i].slot = slot }
        case (true, false):
            if joinsPrevious {
                // The previous segment now reaches `range.upperBound`.
                setStart(c, i, range.upperBound)
            } else {
                chunks[c][i].slot = slot
                insert(Segment(start: range.upperBound, slot: segment.slot), c, i + 1)
            }
        case (false, true):
            if joinsNext, let (nc, ni) = following {
                setStart(nc, ni, range.lowerBound)
            } else {
                insert(Segment(start: range.lowerBound, slot: slot), c, i + 1)
            }
        case (false, false):
            chunks[c].insertInPlace(Segment(start: range.lowerBound, slot: slot), at: i + 1)
            insert(Segment(start: range.upperBound, slot: segment.slot), c, i + 2)
        }
        return true
    }

    /// Moves the start of segment `i` of chunk `c` (keeping the order of starts).
    private mutating func setStart(_ c: Int, _ i: Int, _ start: UInt32) {
        chunks[c][i].start = start
        if i == 0 { chunkStarts[c] = start }
    }

    /// Inserts a segment at index `i` of chunk `c` (`i > 0`), splitting the chunk when it outgrows
    /// twice `chunkCapacity`.
    private mutating func insert(_ segment: Segment, _ c: Int, _ i: Int) {
        chunks[c].insertInPlace(segment, at: i)
        if chunks[c].count > 2 * Self.chunkCapacity {
            let half = chunks[c].count / 2
            let moved = Array(chunks[c][half...])
            chunks[c].removeLast(chunks[c].count - half)
            chunks.insert(moved, at: c + 1)
            chunkStarts.insert(moved[0].start, at: c + 1)
        }
    }

    /// Makes a segment start at `seq` (`0 < seq < count`), keeping every id's slot.
    private mutating func splitSegment(at seq: UInt32) {
        let (c, i) = find(seq)
        let segment = chunks[c][i]
        guard segment.start != seq else { return }
        insert(Segment(start: seq, slot: segment.slot), c, i + 1)
    }

    private func next(_ c: Int, _ i: Int) -> (Int, Int)? {
        if i + 1 < chunks[c].count { return (c, i + 1) }
        return c + 1 < chunks.count ? (c + 1, 0) : nil
    }

    private func previous(_ c: Int, _ i: Int) -> (Int, Int)? {
        if i > 0 { return (c, i - 1) }
        return c > 0 ? (c - 1, chunks[c - 1].count - 1) : nil
    }

    /// Removes a segment that is not the very first (its ids join the segment before it).
    private mutating func remove(_ c: Int, _ i: Int) {
        chunks[c].remove(at: i)
        if chunks[c].isEmpty {
            chunks.remove(at: c)
            chunkStarts.remove(at: c)
        } else if i == 0 {
            chunkStarts[c] = chunks[c][0].start
        }
    }
}
