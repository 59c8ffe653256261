/// How the diff classifies scalars: token classes and grapheme-like attachment.
/// Docs/RECORD-FORMAT.md ("Folding plain text: the diff, version 2") lists the same ranges;
/// change both together (and increase `TextDiff.version`).
extension TextDiff {
    /// The class of a word-level token, taken from its first scalar.
    enum ScalarClass: UInt8 {
        /// Letters and digits (`isAlphanumeric`): runs of them form one token.
        case word
        /// Anything else (punctuation, symbols, emoji): runs of it form one token.
        case symbol
        /// Horizontal whitespace: runs of it form one token.
        case space
        /// U+000A or U+000D: one token each (CR LF together, as LF attaches to CR).
        case lineBreak
        /// CJK ideographs, kana and Hangul syllables: one token each.
        case ideograph
    }

    static let zwj: UInt32 = 0x200D

    @inline(__always)
    static func scalarClass(_ v: UInt32) -> ScalarClass {
        if v < 0x80 {
            if v == 0x0A || v == 0x0D { return .lineBreak }
            if v == 0x20 || v == 0x09 { return .space }
            return isAlphanumeric(v) ? .word : .symbol
        }
        switch v {
        case 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return .space
        case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return .ideograph
        default: return isAlphanumeric(v) ? .word : .symbol
        }
    }

    @inline(__always)
    static func isRegionalIndicator(_ v: UInt32) -> Bool { v >= 0x1F1E6 && v <= 0x1F1FF }

    /// Scalars that always belong with the scalar before them: combining marks (General
    /// Category Mn, Mc, Me), ZWJ, variation selectors, emoji modifiers and tag characters.
    @inline(__always)
    static func isExtending(_ v: UInt32) -> Bool {
        if v < 0x300 { return false }
        switch v {
        case zwj, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF: return true
        default: break
        }
        guard let scalar = Unicode.Scalar(v) else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Whether `s[i]` (i > lo) belongs with `s[i - 1]`: no edit boundary, no token boundary
    /// may fall before it. `lo` is where the text under consideration starts.
    static func isAttached(_ s: [UInt32], _ i: Int, lo: Int) -> Bool {
        guard i > lo else { return false }
        let v = s[i], previous = s[i - 1]
        if isExtending(v) || previous == zwj || (v == 0x0A && previous == 0x0D) { return true }
        guard isRegionalIndicator(v) else { return false }
        var j = i - 1, run = 0
        while j >= lo && isRegionalIndicator(s[j]) { run += 1; j -= 1 }
        return run % 2 == 1
    }

    /// Whether an edit may start or end at `i` in `s[lo..<hi]`.
    @inline(__always)
    static func isClusterBoundary(_ s: [UInt32], _ i: Int, lo: Int, hi: Int) -> Bool {
        i <= lo || i >= hi || !isAttached(s, i, lo: lo)
    }

    /// Whether a word-level token starts at `i` in `s[lo..<hi]` (as `wordBounds` would cut),
    /// ignoring the chunking of long words.
    static func isTokenBoundary(_ s: [UInt32], _ i: Int, lo: Int, hi: Int) -> Bool {
        if i <= lo || i >= hi { return true }
        if isAttached(s, i, lo: lo) { return false }
        let c = scalarClass(s[i])
        if c == .lineBreak || c == .ideograph { return true }
        var j = i - 1
        while j > lo && !isRegionalIndicator(s[j]) && isAttached(s, j, lo: lo) { j -= 1 }
        return scalarClass(s[j]) != c
    }

    /// Common prefix and suffix lengths of `a[ra]` and `b[rb]`, shortened until both cut
    /// points satisfy `isBoundary` in both texts (the prefix first, then the suffix within
    /// what the prefix left).
    static func trim(_ a: [UInt32], _ ra: Range<Int>, _ b: [UInt32], _ rb: Range<Int>,
                     isBoundary: ([UInt32], Int, Int, Int) -> Bool) -> (prefix: Int, suffix: Int) {
        let shorter = min(ra.count, rb.count)
        var p = 0
        while p < shorter && a[ra.lowerBound + p] == b[rb.lowerBound + p] { p += 1 }
        while p > 0 && !(isBoundary(a, ra.lowerBound + p, ra.lowerBound, ra.upperBound)
                         && isBoundary(b, rb.lowerBound + p, rb.lowerBound, rb.upperBound)) { p -= 1 }
        var s = 0
        while s < shorter - p && a[ra.upperBound - 1 - s] == b[rb.upperBound - 1 - s] { s += 1 }
        while s > 0 && !(isBoundary(a, ra.upperBound - s, ra.lowerBound, ra.upperBound)
                         && isBoundary(b, rb.upperBound - s, rb.lowerBound, rb.upperBound)) { s -= 1 }
        return (p, s)
    }
}
