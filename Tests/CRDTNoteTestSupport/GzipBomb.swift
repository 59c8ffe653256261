/// Builds gzip files of long runs of spaces with one dynamic-Huffman DEFLATE block in which a
/// 258-byte match costs 2 bits (the format's best ratio, about 1032:1).
package enum GzipBomb {
    /// A gzip member: one space, then `matches` copies of 258 bytes at distance 1. The CRC in
    /// the trailer is not computed (0): a decoder within its limit never gets that far.
    package static func spaces(matches: Int) -> [UInt8] {
        var w = BitWriter()
        w.bits(1, 1)          // BFINAL
        w.bits(2, 2)          // BTYPE = dynamic
        w.bits(286 - 257, 5)  // HLIT: literal/length codes 0...285
        w.bits(2 - 1, 5)      // HDIST: distance codes 0 and 1
        w.bits(18 - 4, 4)     // HCLEN: code length codes up to "1" in the permuted order
        // Code length code lengths, in the order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1:
        // 18 -> 1 bit, 1 -> 2 bits, 2 -> 2 bits; canonical codes 18 = 0, 1 = 10, 2 = 11.
        for length in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] { w.bits(UInt32(length), 3) }
        func zeros(_ n: Int) {
            var left = n
            while left > 0 {
                let run = min(left, 138)
                w.code(0b0, 1)                  // 18: a run of 11-138 zeros
                w.bits(UInt32(run - 11), 7)
                left -= run
            }
        }
        zeros(32); w.code(0b11, 2)              // 0...31 unused, 32 (space) -> length 2
        zeros(223); w.code(0b11, 2)             // 33...255 unused, 256 (end of block) -> length 2
        zeros(28); w.code(0b10, 2)              // 257...284 unused, 285 (length 258) -> length 1
        w.code(0b10, 2); w.code(0b10, 2)        // distance codes 0 and 1 -> length 1 each
        // Canonical literal/length codes: 285 = 0, 32 = 10, 256 = 11; distances 0 = 0, 1 = 1.
        w.code(0b10, 2)                         // one space
        for _ in 0..<matches { w.code(0b00, 2) } // length 258, distance 1
        w.code(0b11, 2)                         // end of block
        let total = UInt32(truncatingIfNeeded: 1 + 258 * matches)
        var gzip: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        gzip += w.bytes()
        gzip += [0, 0, 0, 0]
        gzip += (0..<4).map { UInt8(truncatingIfNeeded: total >> (8 * $0)) }
        return gzip
    }

    /// DEFLATE's bit order: fields least significant bit first, Huffman codes most significant first.
    struct BitWriter {
        private var out: [UInt8] = []
        private var current: UInt32 = 0
        private var count = 0

        mutating func bits(_ value: UInt32, _ n: Int) {
            for i in 0..<n { push(value >> UInt32(i) & 1) }
        }

        mutating func code(_ code: UInt32, _ n: Int) {
            for i in stride(from: n - 1, through: 0, by: -1) { push(code >> UInt32(i) & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << UInt32(count)
            count += 1
            if count == 8 {
                out.append(UInt8(current))
                current = 0
                count = 0
            }
        }

        func bytes() -> [UInt8] { count > 0 ? out + [UInt8(current)] : out }
    }
}
