/// The finer stages: a changed stretch of lines is diffed as words; a changed stretch of
/// words becomes a character edit only when it is a pure insertion or deletion.
extension TextDiff {
    /// Appends the hunks turning `a[h.old]` into `b[h.new]` (whole lines, both non-empty).
    static func refineWords(_ a: [UInt32], _ b: [UInt32], _ h: Hunk, into out: inout [Hunk]) {
        let ra = h.oldStart..<h.oldEnd, rb = h.newStart..<h.newEnd
        let (p, s) = trim(a, ra, b, rb, isBoundary: isTokenBoundary)
        let ma = ra.lowerBound + p..<ra.upperBound - s, mb = rb.lowerBound + p..<rb.upperBound - s
        if ma.isEmpty || mb.isEmpty {
            out.append(Hunk(oldStart: ma.lowerBound, oldEnd: ma.upperBound, newStart: mb.lowerBound, newEnd: mb.upperBound))
            return
        }
        let words = tokenize(a, ma, b, mb, words: true)
        var differ = TokenDiffer(a: words.a.ids, b: words.b.ids, anchorable: words.anchorable)
        differ.diff(0, words.a.ids.count, 0, words.b.ids.count, depth: 0)
        for t in differ.hunks {
            let w = Hunk(oldStart: words.a.starts[t.oldStart], oldEnd: words.a.starts[t.oldEnd],
                         newStart: words.b.starts[t.newStart], newEnd: words.b.starts[t.newEnd])
            out.append(w.isPure ? w : refineCharacters(a, b, w))
        }
    }

    /// A changed stretch of whole tokens, narrowed to its character-level change when that
    /// change is a pure insertion or deletion at grapheme-cluster boundaries; otherwise
    /// unchanged (the tokens are replaced whole, keeping no stray letters).
    static func refineCharacters(_ a: [UInt32], _ b: [UInt32], _ w: Hunk) -> Hunk {
        let ra = w.oldStart..<w.oldEnd, rb = w.newStart..<w.newEnd
        let (p, s) = trim(a, ra, b, rb, isBoundary: isClusterBoundary)
        let narrowed = Hunk(oldStart: ra.lowerBound + p, oldEnd: ra.upperBound - s,
                            newStart: rb.lowerBound + p, newEnd: rb.upperBound - s)
        return narrowed.isPure ? narrowed : w
    }
}
