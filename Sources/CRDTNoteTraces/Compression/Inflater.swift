import CRDTNoteSupport
import CRDTNote
/// A DEFLATE (RFC 1951) decoder that appends decoded bytes to a growing output buffer.
///
/// Used by `Gzip` for one member at a time; all members share one output buffer and limit.
/// Every malformed stream ends in a `BinaryDecodingError` whose offset points into `input`.
struct Inflater {
    var bits: DeflateBitStream
    /// Output storage; only `out[0..<outCount]` is meaningful, the rest is spare capacity.
    var out: [UInt8]
    var outCount: Int = 0
    /// Where the current member's output starts: back-references may not reach before it.
    var memberStart: Int = 0
    let maxOutput: Int

    /// Longest output of one symbol (a length-258 match); the hot loop keeps this much room free.
    static let maxMatch = 258

    init(input: UnsafeBufferPointer<UInt8>, maxOutput: Int, expectedOutput: Int) {
        bits = DeflateBitStream(input, at: 0)
        self.maxOutput = max(0, min(maxOutput, Int.max / 4))
        out = [UInt8](repeating: 0, count: min(max(expectedOutput, 0), self.maxOutput) + Inflater.maxMatch)
    }

    /// Decodes one complete DEFLATE stream starting at `bits.position`; afterwards `bits.position`
    /// is the first byte after the stream.
    mutating func inflateStream() throws(BinaryDecodingError) {
        var isFinal = false
        while !isFinal {
            let blockOffset = bits.byteOffset
            let header = try bits.take(3, "block header")
            isFinal = header & 1 == 1
            switch header >> 1 {
            case 0:
                try copyStoredBlock()
            case 1:
                let fixed = HuffmanTable.fixed
                try decodeHuffmanBlock(fixed.literals, fixed.distances)
            case 2:
                let tables = try readDynamicTables()
                try decodeHuffmanBlock(tables.literals, tables.distances)
            default:
                throw BinaryDecodingError(.invalidValue, at: blockOffset, "reserved deflate block type 3")
            }
        }
        bits.alignAndRewind()
    }

    /// Makes room for at least `needed` more bytes after `outCount`, within the output limit.
    mutating func reserveOutput(_ needed: Int, at offset: Int) throws(BinaryDecodingError) {
        guard needed <= maxOutput - outCount else {
            throw BinaryDecodingError(.outputTooLarge, at: offset, "decompressed data exceeds the limit of \(maxOutput) bytes")
        }
        let wanted = outCount + max(needed, Inflater.maxMatch)
        guard wanted > out.count else { return }
        let newCount = min(max(out.count * 2, wanted, 1 << 16), maxOutput + Inflater.maxMatch)
        // A fresh zeroed array plus one bulk copy is far cheaper than appending a repeated element.
        var grown = [UInt8](repeating: 0, count: newCount)
        let used = outCount
        grown.withUnsafeMutableBufferPointer { g in
            out.withUnsafeBufferPointer { o in
                _ = UnsafeMutableBufferPointer(rebasing: g[0..<used]).update(fromContentsOf: o[0..<used])
            }
        }
        out = grown
    }

    /// Block type 0: LEN, NLEN (its complement), then LEN raw bytes.
    mutating func copyStoredBlock() throws(BinaryDecodingError) {
        bits.alignAndRewind()
        let input = bits.input
        let start = bits.position
        guard input.count - start >= 4 else {
            throw BinaryDecodingError(.truncated, at: start, "stored block header needs 4 bytes, \(input.count - start) remain")
        }
        let len = Int(input[start]) | Int(input[start + 1]) << 8
        let nlen = Int(input[start + 2]) | Int(input[start + 3]) << 8
        guard len == nlen ^ 0xFFFF else {
            throw BinaryDecodingError(.invalidValue, at: start, "stored block length \(len) does not match its complement \(nlen)")
        }
        let from = start + 4
        guard len <= input.count - from else {
            throw BinaryDecodingError(.truncated, at: from, "stored block of \(len) bytes but only \(input.count - from) remain")
        }
        try reserveOutput(len, at: start)
        let dest = outCount
        _ = out.withUnsafeMutableBufferPointer { ob in
            UnsafeMutableBufferPointer(rebasing: ob[dest..<(dest + len)])
                .update(fromContentsOf: UnsafeBufferPointer(rebasing: input[from..<(from + len)]))
        }
        outCount += len
        bits.position = from + len
    }
}
