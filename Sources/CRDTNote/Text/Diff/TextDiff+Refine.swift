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
        for t in absorbingSymbols(differ.hunks, a, words.a, b, words.b) {
            let w = Hunk(oldStart: words.a.starts[t.oldStart], oldEnd: words.a.starts[t.oldEnd],
                         newStart: words.b.starts[t.newStart], newEnd: words.b.starts[t.newEnd])
            out.append(w.isPure ? w : refineCharacters(a, b, w))
        }
    }

    /// Token hunks where each replacement (both sides non-empty) also takes in the unchanged
    /// symbol tokens directly before and after it (`<` and `>` around a replaced word), so no
    /// stray punctuation is kept between what was deleted and what was typed; hunks that then
    /// touch are joined.
    static func absorbingSymbols(_ hunks: [Hunk], _ a: [UInt32], _ ta: TokenList, _ b: [UInt32], _ tb: TokenList) -> [Hunk] {
        func isSymbol(_ t: Int) -> Bool { scalarClass(a[ta.starts[t]]) == .symbol }
        var out: [Hunk] = []
        for (n, hunk) in hunks.enumerated() {
            var h = hunk
            if !h.isPure {
                let floor = out.last?.oldEnd ?? 0
                while h.oldStart > floor && isSymbol(h.oldStart - 1) { h.oldStart -= 1; h.newStart -= 1 }
                let ceiling = n + 1 < hunks.count ? hunks[n + 1].oldStart : ta.ids.count
                while h.oldEnd < ceiling && isSymbol(h.oldEnd) { h.oldEnd += 1; h.newEnd += 1 }
            }
            if var last = out.last, last.oldEnd == h.oldStart {
                last.oldEnd = h.oldEnd; last.newEnd = h.newEnd
                out[out.count - 1] = last
            } else {
                out.append(h)
            }
        }
        return out
    }

    /// A changed stretch of whole tokens, narrowed to its character-level change when that
    /// change is a pure insertion or deletion at grapheme-cluster boundaries; otherwise narrowed
    /// only by a common prefix or suffix that is a whole run of letters and digits (the word
    /// `Groceries` of `Groceries:` → `Groceries!`); otherwise unchanged (the tokens are
    /// replaced whole, keeping no stray letters).
    static func refineCharacters(_ a: [UInt32], _ b: [UInt32], _ w: Hunk) -> Hunk {
        let ra = w.oldStart..<w.oldEnd, rb = w.newStart..<w.newEnd
        var (p, s) = trim(a, ra, b, rb, isBoundary: isClusterBoundary)
        let narrowed = Hunk(oldStart: ra.lowerBound + p, oldEnd: ra.upperBound - s,
                            newStart: rb.lowerBound + p, newEnd: rb.upperBound - s)
        if narrowed.isPure { return narrowed }
        func endsRun(_ x: [UInt32], _ i: Int, _ r: Range<Int>) -> Bool {
            isAlphanumeric(x[i - 1]) && !isAlphanumeric(x[i]) && isClusterBoundary(x, i, lo: r.lowerBound, hi: r.upperBound)
        }
        func startsRun(_ x: [UInt32], _ i: Int, _ r: Range<Int>) -> Bool {
            !isAlphanumeric(x[i - 1]) && isAlphanumeric(x[i]) && isClusterBoundary(x, i, lo: r.lowerBound, hi: r.upperBound)
        }
        while p > 0 && !(endsRun(a, ra.lowerBound + p, ra) && endsRun(b, rb.lowerBound + p, rb)) { p -= 1 }
        while s > 0 && !(startsRun(a, ra.upperBound - s, ra) && startsRun(b, rb.upperBound - s, rb)) { s -= 1 }
        return Hunk(oldStart: ra.lowerBound + p, oldEnd: ra.upperBound - s, newStart: rb.lowerBound + p, newEnd: rb.upperBound - s)
    }

    /// Letters and digits: ASCII ones, and above U+007F General Category L* or N*.
    static func isAlphanumeric(_ v: UInt32) -> Bool {
        if v < 0x80 { return (v >= 0x30 && v <= 0x39) || (v | 0x20 >= 0x61 && v | 0x20 <= 0x7A) }
        guard let scalar = Unicode.Scalar(v) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }
}
