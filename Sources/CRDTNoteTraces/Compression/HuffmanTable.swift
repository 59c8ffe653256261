import CRDTNoteSupport
import CRDTNote
/// A table-driven canonical Huffman decoder for DEFLATE.
///
/// The next `primaryBits` input bits index `entries` directly; codes longer than that go through a
/// second-level subtable reached from a pointer entry. Each entry packs everything the inflater needs
/// so the hot loop does one or two loads per symbol:
///
///     bits 0-7   code length in bits (for a pointer entry: unused)
///     bits 8-11  extra bits that follow the code (for a pointer entry: subtable index bits)
///     bits 12-15 kind (literal, length/distance base, end of block, pointer, invalid)
///     bits 16-31 value (literal byte, base length or distance, symbol, or subtable start)
struct HuffmanTable: Sendable {
    static let kindLiteral: UInt32 = 0
    static let kindBase: UInt32 = 1
    static let kindEndOfBlock: UInt32 = 2
    static let kindPointer: UInt32 = 3
    static let kindInvalid: UInt32 = 4

    /// Packs the non-length part of an entry: what a symbol means.
    static func info(kind: UInt32, value: Int, extra: Int = 0) -> UInt32 {
        UInt32(value) << 16 | kind << 12 | UInt32(extra) << 8
    }

    static let invalidEntry: UInt32 = kindInvalid << 12

    var entries: [UInt32] = []
    var primaryBits: Int = 0

    /// Why building a table failed.
    enum BuildFailure: Error { case oversubscribed }

    /// Builds the table for the code lengths `lengths` (0 = symbol unused), where `infos[symbol]` says
    /// what each symbol means. Incomplete codes are accepted; their unused bit patterns decode as
    /// invalid entries and are reported when (if ever) they are met in the input.
    init(lengths: UnsafeBufferPointer<UInt8>, infos: [UInt32], primaryBits: Int) throws(BuildFailure) {
        self.primaryBits = primaryBits
        var counts = [Int](repeating: 0, count: 16)
        for l in lengths {
            guard l <= 15 else { throw .oversubscribed }
            counts[Int(l)] += 1
        }
        counts[0] = 0
        var left = 1
        for len in 1...15 {
            left = (left << 1) - counts[len]
            if left < 0 { throw .oversubscribed }
        }
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for len in 1...15 {
            code = (code + counts[len - 1]) << 1
            nextCode[len] = code
        }
        let primarySize = 1 << primaryBits
        let primaryMask = primarySize - 1
        // Assign codes in canonical order, keeping each symbol's bit-reversed code (DEFLATE sends
        // Huffman codes most-significant bit first into an LSB-first stream).
        var reversedCodes = [Int](repeating: 0, count: lengths.count)
        var longest = [Int](repeating: 0, count: primarySize)
        var hasLong = false
        for sym in 0..<lengths.count {
            let len = Int(lengths[sym])
            guard len > 0 else { continue }
            let c = nextCode[len]
            nextCode[len] = c + 1
            var r = 0
            for bit in 0..<len where c & (1 << bit) != 0 { r |= 1 << (len - 1 - bit) }
            reversedCodes[sym] = r
            if len > primaryBits {
                hasLong = true
                let p = r & primaryMask
                longest[p] = max(longest[p], len)
            }
        }
        var table = [UInt32](repeating: HuffmanTable.invalidEntry, count: primarySize)
        if hasLong {
            for p in 0..<primarySize where longest[p] > 0 {
                let subBits = longest[p] - primaryBits
                table[p] = HuffmanTable.info(kind: HuffmanTable.kindPointer, value: table.count, extra: subBits)
                table.append(contentsOf: repeatElement(HuffmanTable.invalidEntry, count: 1 << subBits))
            }
        }
        for sym in 0..<lengths.count {
            let len = Int(lengths[sym])
            guard len > 0 else { continue }
            let entry = infos[sym] | UInt32(len)
            let r = reversedCodes[sym]
            if len <= primaryBits {
                var i = r
                while i < primarySize { table[i] = entry; i += 1 << len }
            } else {
                let pointer = table[r & primaryMask]
                let start = Int(pointer >> 16)
                let subBits = Int((pointer >> 8) & 0xF)
                let step = 1 << (len - primaryBits)
                var i = r >> primaryBits
                while i < 1 << subBits { table[start + i] = entry; i += step }
            }
        }
        entries = table
    }
}

extension HuffmanTable {
    /// What each literal/length symbol (0...287) means: bytes, end of block, or a length base plus
    /// extra-bit count (RFC 1951 section 3.2.5). 286 and 287 never occur in valid data.
    static let literalLengthInfos: [UInt32] = {
        var infos = (0..<256).map { info(kind: kindLiteral, value: $0) }
        infos.append(info(kind: kindEndOfBlock, value: 256))
        let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                     35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                      3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        for i in 0..<29 { infos.append(info(kind: kindBase, value: bases[i], extra: extras[i])) }
        infos.append(invalidEntry)
        infos.append(invalidEntry)
        return infos
    }()

    /// What each distance symbol (0...31) means: a distance base plus extra-bit count. 30 and 31 are invalid.
    static let distanceInfos: [UInt32] = {
        var infos: [UInt32] = []
        var base = 1
        for sym in 0..<30 {
            let extra = sym < 2 ? 0 : sym / 2 - 1
            infos.append(info(kind: kindBase, value: base, extra: extra))
            base += 1 << extra
        }
        infos.append(invalidEntry)
        infos.append(invalidEntry)
        return infos
    }()

    /// Code-length alphabet symbols (0...18) decode to themselves.
    static let codeLengthInfos: [UInt32] = (0..<19).map { info(kind: kindLiteral, value: $0) }

    /// The fixed literal/length and distance tables of block type 1 (RFC 1951 section 3.2.6).
    static let fixed: (literals: HuffmanTable, distances: HuffmanTable) = {
        var lit = [UInt8](repeating: 8, count: 288)
        for i in 144..<256 { lit[i] = 9 }
        for i in 256..<280 { lit[i] = 7 }
        let dist = [UInt8](repeating: 5, count: 32)
        // These code lengths form complete codes, so building cannot fail; fall back to an
        // all-invalid table rather than trapping if it somehow did.
        let l = lit.withUnsafeBufferPointer { try? HuffmanTable(lengths: $0, infos: literalLengthInfos, primaryBits: 9) }
        let d = dist.withUnsafeBufferPointer { try? HuffmanTable(lengths: $0, infos: distanceInfos, primaryBits: 5) }
        return (l ?? HuffmanTable.unusable(9), d ?? HuffmanTable.unusable(5))
    }()

    /// A table in which every bit pattern is invalid.
    static func unusable(_ bits: Int) -> HuffmanTable {
        var t = HuffmanTable()
        t.primaryBits = bits
        t.entries = [UInt32](repeating: invalidEntry, count: 1 << bits)
        return t
    }

    private init() {}
}
