/// The deleted ids of one replica, as sorted, disjoint, non-touching ranges: the document's
/// delete set for that replica, kept beside the tree so the tombstones a peer must hear about
/// are listed without walking the note.
///
/// Ranges are kept in chunks of at most `chunkCapacity` (split in two when they outgrow
/// twice that), so adding a range costs a binary search plus a shift within one chunk,
/// even when deletions land all over a large note. `hint` remembers the last range touched:
/// backspacing and forward deleting extend it without a search.
struct DeletedIDs: Sendable, Equatable {
    static let chunkCapacity = 64

    private(set) var chunks: [[Range<UInt32>]] = []
    /// The lower bound of each chunk's first range.
    private var chunkStarts: [UInt32] = []
    private var hint: (chunk: Int, index: Int) = (0, 0)
    /// Number of ranges.
    private(set) var rangeCount = 0

    init() {}

    static func == (a: DeletedIDs, b: DeletedIDs) -> Bool { a.chunks.joined().elementsEqual(b.chunks.joined()) }

    /// Builds the set from ranges sorted by lower bound (they may touch; none may overlap).
    init<S: Sequence<Range<UInt32>>>(sortedRanges: S) {
        var flat: [Range<UInt32>] = []
        for r in sortedRanges where !r.isEmpty {
            if let last = flat.last, last.upperBound >= r.lowerBound {
                flat[flat.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                flat.append(r)
            }
        }
        rangeCount = flat.count
        var start = 0
        while start < flat.count {
            let chunk = Array(flat[start..<min(start + Self.chunkCapacity, flat.count)])
            chunks.append(chunk)
            chunkStarts.append(chunk[0].lowerBound)
            start += Self.chunkCapacity
        }
    }

    /// Every range, in order.
    var ranges: FlattenSequence<[[Range<UInt32>]]> { chunks.joined() }

    /// The ranges `other` may lack, chunk by chunk, in order. Copies of a document share the
    /// chunks neither has changed since (same storage: skipped without looking inside), and
    /// copies that made or merged the same deletions hold equal chunks (compared when they start
    /// at the same range). Of a chunk that differs, the ranges it shares with `other`'s chunk from
    /// the start are left out too (both copies appending to their last chunk is the common case).
    /// Whatever is left may still be partly known to `other`.
    func chunks(notHeldBy other: DeletedIDs) -> [ArraySlice<Range<UInt32>>] {
        if other.chunks.isEmpty { return chunks.map { $0[...] } }
        var out: [ArraySlice<Range<UInt32>>] = []
        for chunk in chunks {
            guard let first = chunk.first else { continue }
            let candidate = other.chunks[other.chunkIndex(for: first.lowerBound)]
            let shared: Int = chunk.withUnsafeBufferPointer { mine in
                candidate.withUnsafeBufferPointer { theirs in
                    if mine.baseAddress == theirs.baseAddress && mine.count == theirs.count { return mine.count }
                    var i = 0
                    let end = Swift.min(mine.count, theirs.count)
                    while i < end && mine[i] == theirs[i] { i += 1 }
                    return i
                }
            }
            if shared < chunk.count { out.append(chunk[shared...]) }
        }
        return out
    }

    /// Adds `range` (which may overlap or touch ranges already present).
    ///
    /// Inlined up to the common cases of local deletions: the range touches the one touched
    /// last (backspacing, deleting forwards), or lies after every range (deleting what was just
    /// typed). Everything else searches (`insertSearching`).
    @inline(__always)
    mutating func insert(_ range: Range<UInt32>) {
        if range.isEmpty || extendHinted(with: range) || appendAfterLast(range) { return }
        insertSearching(range)
    }

    /// `insert` for a non-empty range that neither touches the hinted range nor lies after every range.
    private mutating func insertSearching(_ range: Range<UInt32>) {
        if chunks.isEmpty {
            chunks = [[range]]
            chunkStarts = [range.lowerBound]
            rangeCount = 1
            hint = (0, 0)
            return
        }
        let c = chunkIndex(for: range.lowerBound)
        // The first range of chunk c whose upper bound reaches range.lowerBound.
        var i = chunks[c].partitioningIndex { $0.upperBound >= range.lowerBound }
        var chunk = c
        if i == chunks[c].count, c + 1 < chunks.count {
            chunk = c + 1
            i = 0
        }
        if i < chunks[chunk].count, chunks[chunk][i].lowerBound <= range.upperBound {
            // Overlaps or touches range i (and maybe later ones): widen it and absorb the rest.
            let merged = min(chunks[chunk][i].lowerBound, range.lowerBound)..<max(chunks[chunk][i].upperBound, range.upperBound)
            chunks[chunk][i] = merged
            absorbFollowing(chunk: chunk, index: i)
            if i == 0 { chunkStarts[chunk] = chunks[chunk][0].lowerBound }
            hint = (chunk, i)
            return
        }
        // Disjoint: insert before position i of `chunk` (or at the end of chunk c).
        if i == chunks[chunk].count { chunk = c; i = chunks[c].count }
        chunks[chunk].insertInPlace(range, at: i)
        rangeCount += 1
        if i == 0 { chunkStarts[chunk] = range.lowerBound }
        hint = (chunk, i)
        splitIfNeeded(chunk)
    }

    /// Whether every id of `range` is deleted.
    func contains(_ range: Range<UInt32>) -> Bool {
        if range.isEmpty { return true }
        guard !chunks.isEmpty else { return false }
        let c = chunkIndex(for: range.lowerBound)
        let i = chunks[c].partitioningIndex { $0.upperBound > range.lowerBound }
        guard i < chunks[c].count else { return false }
        let r = chunks[c][i]
        return r.lowerBound <= range.lowerBound && r.upperBound >= range.upperBound
    }

    /// The first stretch of `range` not in the set, or nil when the set holds all of it. Allocates
    /// nothing: a merge asks for one stretch, deletes it (adding it here) and asks again.
    func firstMissing(in range: Range<UInt32>) -> Range<UInt32>? {
        if range.isEmpty { return nil }
        guard !chunks.isEmpty else { return range }
        var c = chunkIndex(for: range.lowerBound)
        var i = chunks[c].partitioningIndex { $0.upperBound > range.lowerBound }
        var at = range.lowerBound
        // The first range reaching past `at` either starts after it (the gap starts at `at`) or
        // covers it; then the gap starts where it ends and runs to the next range (ranges never
        // touch), so two ranges decide.
        for _ in 0..<2 {
            if i == chunks[c].count {
                c += 1
                i = 0
            }
            guard c < chunks.count else { break }
            let r = chunks[c][i]
            if r.lowerBound > at { return at..<min(r.lowerBound, range.upperBound) }
            at = r.upperBound
            if at >= range.upperBound { return nil }
            i += 1
        }
        return at..<range.upperBound
    }

    /// The chunk whose ranges start at or before `id` (the first chunk when none does): a binary
    /// search without branches on the comparisons.
    private func chunkIndex(for id: UInt32) -> Int {
        chunkStarts.withUnsafeBufferPointer { $0.lastIndex(withKeyAtMost: id) { $0 } }
    }

    /// Widens the hinted range by `range` when they touch and the result stays clear of its
    /// neighbours; false, changing nothing, otherwise (or when there is no hinted range).
    @inline(__always)
    private mutating func extendHinted(with range: Range<UInt32>) -> Bool {
        let (c, i) = hint
        guard c < chunks.count else { return false }
        let chunkCount = chunks[c].count
        guard i < chunkCount else { return false }
        let r = chunks[c][i]
        if range.lowerBound == r.upperBound {
            // Forward: must stay clear of the next range (or join it).
            let next = i + 1 < chunkCount ? chunks[c][i + 1].lowerBound
                : (c + 1 < chunks.count ? chunkStarts[c + 1] : UInt32.max)
            guard range.upperBound < next else { return false }
            chunks[c][i] = r.lowerBound..<range.upperBound
            return true
        }
        if range.upperBound == r.lowerBound {
            // Backward: must stay clear of the previous range.
            let previous: UInt32? = i > 0 ? chunks[c][i - 1].upperBound
                : (c > 0 ? chunks[c - 1][chunks[c - 1].count - 1].upperBound : nil)
            if let previous, range.lowerBound <= previous { return false }
            chunks[c][i] = range.lowerBound..<r.upperBound
            if i == 0 { chunkStarts[c] = range.lowerBound }
            return true
        }
        return false
    }

    /// Appends `range` as a new last range when it starts after the end of every range (not
    /// touching it); false, changing nothing, otherwise.
    @inline(__always)
    private mutating func appendAfterLast(_ range: Range<UInt32>) -> Bool {
        let c = chunks.count - 1
        guard c >= 0, let last = chunks[c].last, range.lowerBound > last.upperBound else { return false }
        let i = chunks[c].count
        chunks[c].append(range)
        rangeCount += 1
        hint = (c, i)
        splitIfNeeded(c)
        return true
    }

    /// Merges the ranges after `index` that the range at `index` now overlaps or touches.
    private mutating func absorbFollowing(chunk c: Int, index i: Int) {
        while true {
            var nc = c
            var ni = i + 1
            if ni >= chunks[c].count {
                nc = c + 1
                ni = 0
                if nc >= chunks.count { return }
            }
            let next = chunks[nc][ni]
            let current = chunks[c][i]
            guard next.lowerBound <= current.upperBound else { return }
            chunks[c][i] = current.lowerBound..<max(current.upperBound, next.upperBound)
            chunks[nc].remove(at: ni)
            rangeCount -= 1
            if chunks[nc].isEmpty {
                chunks.remove(at: nc)
                chunkStarts.remove(at: nc)
            } else if ni == 0 {
                chunkStarts[nc] = chunks[nc][0].lowerBound
            }
        }
    }

#if DEBUG
    /// What is wrong with the chunk holding `id` (the one a range starting there went to) and its
    /// borders with the chunks either side: ranges non-empty, sorted, disjoint and not touching,
    /// the chunk within twice `chunkCapacity`, its recorded start its first range's lower bound.
    /// O(chunk). Debug builds only (TextSequence+InternalChecks.swift).
    func chunkViolations(around id: UInt32) -> [String] {
        if chunks.isEmpty { return rangeCount == 0 ? [] : ["no chunks but \(rangeCount) ranges counted"] }
        guard chunkStarts.count == chunks.count else { return ["\(chunks.count) chunks but \(chunkStarts.count) chunk starts"] }
        var problems: [String] = []
        let c = chunkIndex(for: id)
        let chunk = chunks[c]
        if chunk.isEmpty || chunk.count > 2 * Self.chunkCapacity {
            problems.append("chunk \(c) holds \(chunk.count) ranges (1...\(2 * Self.chunkCapacity) allowed)")
        }
        if let first = chunk.first, chunkStarts[c] != first.lowerBound {
            problems.append("chunk \(c) is recorded to start at \(chunkStarts[c]), its first range is \(first)")
        }
        for (i, range) in chunk.enumerated() {
            if range.isEmpty { problems.append("chunk \(c) holds an empty range at \(i)") }
            if i > 0, chunk[i - 1].upperBound >= range.lowerBound {
                problems.append("chunk \(c): ranges \(chunk[i - 1]) and \(range) overlap or touch")
            }
        }
        if c > 0, let last = chunks[c - 1].last, let first = chunk.first, last.upperBound >= first.lowerBound {
            problems.append("chunks \(c - 1) and \(c): ranges \(last) and \(first) overlap or touch")
        }
        if c + 1 < chunks.count, let last = chunk.last, let next = chunks[c + 1].first, last.upperBound >= next.lowerBound {
            problems.append("chunks \(c) and \(c + 1): ranges \(last) and \(next) overlap or touch")
        }
        return problems
    }

    /// Test hook: replaces the chunks as they are (no merging, no checks), to show the checks
    /// catch a corrupt set.
    mutating func corruptForTesting(chunks newChunks: [[Range<UInt32>]]) {
        chunks = newChunks
        chunkStarts = newChunks.map { $0.first?.lowerBound ?? 0 }
        rangeCount = newChunks.reduce(0) { $0 + $1.count }
        hint = (0, 0)
    }
#endif

    private mutating func splitIfNeeded(_ c: Int) {
        guard chunks[c].count > 2 * Self.chunkCapacity else { return }
        let half = chunks[c].count / 2
        let moved = Array(chunks[c][half...])
        chunks[c].removeLast(chunks[c].count - half)
        chunks.insert(moved, at: c + 1)
        chunkStarts.insert(moved[0].lowerBound, at: c + 1)
        hint = (0, 0)
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate false then true
    /// along the array (binary search).
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if predicate(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
