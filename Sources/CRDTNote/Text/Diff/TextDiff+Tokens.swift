/// Splitting text into tokens (lines, or words/whitespace/line breaks) and numbering them so
/// equal tokens get equal ids.
extension TextDiff {
    /// Tokens of one text: `ids[t]` covers scalars `starts[t]..<starts[t + 1]`.
    struct TokenList {
        var ids: [Int32] = []
        var starts: [Int] = []
    }

    /// Word and symbol runs longer than this are cut into content-defined chunks.
    static let longWord = 64
    /// No chunk of a long word exceeds this many scalars (unless attached scalars force it).
    static let maximumChunk = 256

    /// Token start offsets of `s[range]` plus `range.upperBound`: every line (through its
    /// line feed) when `words` is false; word, whitespace and line-break tokens otherwise.
    static func bounds(_ s: [UInt32], _ range: Range<Int>, words: Bool) -> [Int] {
        var out = [range.lowerBound]
        let hi = range.upperBound
        if !words {
            for i in range where s[i] == 0x0A && i + 1 < hi { out.append(i + 1) }
            if hi > range.lowerBound { out.append(hi) }
            return out
        }
        var i = range.lowerBound
        var cuts: [Int] = []
        while i < hi {
            let c = scalarClass(s[i])
            var riRun = isRegionalIndicator(s[i]) ? 1 : 0
            var j = i + 1
            var chunkStart = i
            cuts.removeAll(keepingCapacity: true)
            while j < hi {
                let v = s[j], previous = s[j - 1]
                let ri = isRegionalIndicator(v)
                let attached = isExtending(v) || previous == zwj || (v == 0x0A && previous == 0x0D) || (ri && riRun % 2 == 1)
                if !attached {
                    guard c == .word || c == .space || c == .symbol, scalarClass(v) == c else { break }
                    if c != .space && (j - chunkStart >= maximumChunk || (j - i >= 4 && chunkHash(s, j) >> 26 == 0)) {
                        cuts.append(j)
                        chunkStart = j
                    }
                }
                riRun = ri ? riRun + 1 : 0
                j += 1
            }
            if c != .space && j - i > longWord { out.append(contentsOf: cuts) }
            out.append(j)
            i = j
        }
        return out
    }

    /// The chunking hash of the four scalars before `j`.
    @inline(__always)
    static func chunkHash(_ s: [UInt32], _ j: Int) -> UInt32 {
        let h = ((s[j - 4] &* 31 &+ s[j - 3]) &* 31 &+ s[j - 2]) &* 31 &+ s[j - 1]
        return h &* 2_654_435_761
    }

    /// Both texts' tokens, numbered in one id space (ids are dense, from 0).
    static func tokenize(_ a: [UInt32], _ ra: Range<Int>, _ b: [UInt32], _ rb: Range<Int>, words: Bool)
        -> (a: TokenList, b: TokenList, anchorable: [Bool]) {
        let boundsA = bounds(a, ra, words: words), boundsB = bounds(b, rb, words: words)
        var interner = Interner(capacityFor: boundsA.count + boundsB.count)
        let listA = a.withUnsafeBufferPointer { sa in
            b.withUnsafeBufferPointer { sb in interner.list(boundsA, side: 0, sa, sb) }
        }
        let listB = a.withUnsafeBufferPointer { sa in
            b.withUnsafeBufferPointer { sb in interner.list(boundsB, side: 1, sa, sb) }
        }
        return (listA, listB, interner.anchorable)
    }

    /// Gives equal token contents equal ids (open addressing on a 64-bit content hash,
    /// contents compared on every hash match, so collisions cannot merge tokens).
    struct Interner {
        private var slots: [Int32]
        private let mask: Int
        private var hashes: [UInt64] = []
        private var side: [UInt8] = []
        private var start: [Int] = []
        private var end: [Int] = []
        /// Per id: whether the token has a letter, digit or ideograph (only those may anchor
        /// the patience stage).
        private(set) var anchorable: [Bool] = []

        init(capacityFor tokens: Int) {
            var capacity = 16
            while capacity < 2 * tokens { capacity <<= 1 }
            slots = [Int32](repeating: -1, count: capacity)
            mask = capacity - 1
        }

        mutating func list(_ bounds: [Int], side s: UInt8, _ sa: UnsafeBufferPointer<UInt32>,
                           _ sb: UnsafeBufferPointer<UInt32>) -> TokenList {
            var list = TokenList(ids: [], starts: bounds)
            list.ids.reserveCapacity(max(0, bounds.count - 1))
            let text = s == 0 ? sa : sb
            for t in 0..<max(0, bounds.count - 1) {
                list.ids.append(id(text, bounds[t], bounds[t + 1], side: s, sa, sb))
            }
            return list
        }

        private mutating func id(_ text: UnsafeBufferPointer<UInt32>, _ lo: Int, _ hi: Int, side s: UInt8,
                                 _ sa: UnsafeBufferPointer<UInt32>, _ sb: UnsafeBufferPointer<UInt32>) -> Int32 {
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for i in lo..<hi { h = (h ^ UInt64(text[i])) &* 0x100_0000_01B3 }
            h ^= h >> 29; h &*= 0xBF58_476D_1CE4_E5B9; h ^= h >> 32
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] >= 0 {
                let candidate = Int(slots[slot])
                if hashes[candidate] == h && end[candidate] - start[candidate] == hi - lo {
                    let other = side[candidate] == 0 ? sa : sb
                    var k = 0, o = start[candidate]
                    while k < hi - lo && other[o + k] == text[lo + k] { k += 1 }
                    if k == hi - lo { return Int32(candidate) }
                }
                slot = (slot + 1) & mask
            }
            let new = Int32(hashes.count)
            slots[slot] = new
            hashes.append(h); side.append(s); start.append(lo); end.append(hi)
            var visible = false
            for i in lo..<hi where !visible {
                let c = scalarClass(text[i])
                visible = c == .word || c == .ideograph
            }
            anchorable.append(visible)
            return new
        }
    }
}
