/// Turns "the whole new text" into a few edits: trim the common prefix and suffix (in
/// linear time over UTF-8), then run Myers' O(ND) diff on the Unicode scalars left in
/// the middle. When the middle differs too much for a cheap diff, it becomes one
/// replacement, so the cost stays near-linear for any input.
enum TextDiff {
    /// One replacement, in scalar offsets of the text at the moment it is applied.
    struct Edit: Equatable {
        var offset: Int
        var deleteCount: Int
        var insert: [UInt8]
        var insertScalars: Int
        var insertUTF16: Int
    }

    /// Largest edit distance explored before falling back to one replacement of the middle.
    static let maximumDistance = 512

    /// Edits turning `old` into `new` (both valid UTF-8), ordered from the end of the text
    /// to its start so each can be applied in turn without shifting the next.
    static func edits(from old: [UInt8], to new: [UInt8]) -> [Edit] {
        if old == new { return [] }
        func isContinuation(_ bytes: [UInt8], _ i: Int) -> Bool { i < bytes.count && bytes[i] & 0xC0 == 0x80 }
        var prefix = 0
        let shorter = min(old.count, new.count)
        while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
        while prefix > 0 && (isContinuation(old, prefix) || isContinuation(new, prefix)) { prefix -= 1 }
        var suffix = 0
        while suffix < shorter - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        while suffix > 0 && (isContinuation(old, old.count - suffix) || isContinuation(new, new.count - suffix)) { suffix -= 1 }
        let base = UTF8Counting.counts(old[0..<prefix]).scalars
        let oldMiddle = decode(old[prefix..<old.count - suffix])
        let newMiddle = decode(new[prefix..<new.count - suffix])
        let hunks = myers(oldMiddle, newMiddle) ?? [Hunk(oldStart: 0, oldEnd: oldMiddle.count, newStart: 0, newEnd: newMiddle.count)]
        return hunks.reversed().map { h in
            let inserted = encode(newMiddle[h.newStart..<h.newEnd])
            let counts = UTF8Counting.counts(inserted)
            return Edit(offset: base + h.oldStart, deleteCount: h.oldEnd - h.oldStart, insert: inserted,
                        insertScalars: counts.scalars, insertUTF16: counts.utf16)
        }
    }

    /// A changed stretch: old scalars `oldStart..<oldEnd` become new scalars `newStart..<newEnd`.
    struct Hunk: Equatable {
        var oldStart: Int, oldEnd: Int, newStart: Int, newEnd: Int
    }

    /// Myers' greedy shortest edit script, or nil when it needs more than `maximumDistance` steps.
    static func myers(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> [Hunk]? {
        let n = a.count, m = b.count
        if n == 0 || m == 0 { return [Hunk(oldStart: 0, oldEnd: n, newStart: 0, newEnd: m)] }
        let limit = min(maximumDistance, n + m)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n && y < m && a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { return backtrack(trace, d: d, n: n, m: m, offset: offset) }
            }
        }
        return nil
    }

    private static func backtrack(_ trace: [[Int]], d: Int, n: Int, m: Int, offset: Int) -> [Hunk] {
        var x = n, y = m
        var steps: [(old: Int, new: Int, isDelete: Bool)] = []
        for depth in stride(from: d, to: 0, by: -1) {
            let v = trace[depth]
            let k = x - y
            let previousK = (k == -depth || (k != depth && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
            let previousX = v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX && y > previousY { x -= 1; y -= 1 }
            if x == previousX {
                y -= 1
                steps.append((x, y, false))
            } else {
                x -= 1
                steps.append((x, y, true))
            }
        }
        var hunks: [Hunk] = []
        for step in steps.reversed() {
            if var last = hunks.last, last.oldEnd == step.old, last.newEnd == step.new {
                if step.isDelete { last.oldEnd += 1 } else { last.newEnd += 1 }
                hunks[hunks.count - 1] = last
            } else {
                hunks.append(Hunk(oldStart: step.old, oldEnd: step.old + (step.isDelete ? 1 : 0),
                                  newStart: step.new, newEnd: step.new + (step.isDelete ? 0 : 1)))
            }
        }
        return hunks
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> [Unicode.Scalar] {
        Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
    }

    private static func encode(_ scalars: ArraySlice<Unicode.Scalar>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(scalars.count)
        for s in scalars { UTF8.encode(s) { out.append($0) } }
        return out
    }
}
