import CRDTNoteSupport
import CRDTNote
/// A resumable DEFLATE (RFC 1951) decoder writing into a sliding ``InflateWindow``.
///
/// `inflateSome()` decodes until the window is full or the stream ends and can be called again
/// in the middle of any block, so a whole file never has to be held decompressed: `GzipStream`
/// hands each chunk out, then the window slides, keeping only the 32 KiB history matches need.
/// Every malformed stream ends in a `BinaryDecodingError` whose offset points into `input`.
struct Inflater {
    /// Where the decoder is inside the stream.
    enum BlockState {
        /// Before a block header (or, after the final block, the end of the stream).
        case header
        /// Inside a stored block, with this many raw bytes still to copy.
        case stored(remaining: Int)
        /// Inside a Huffman block, with its literal/length and distance tables.
        case huffman(HuffmanTable, HuffmanTable)
        /// The final block has ended.
        case finished
    }

    var bits: DeflateBitStream
    let window = InflateWindow()
    /// Bytes of `window` in use: history, then output not yet handed out.
    var outCount = 0
    /// Index in `window` where the current member's output starts (0 once it slid out of the
    /// window; the window then still holds a full history, so any valid distance is in reach).
    var memberStart = 0
    /// Output that slid out of the window: `windowBase + outCount` bytes were produced in total.
    var windowBase = 0
    let maxOutput: Int
    var block = BlockState.finished
    /// Whether the block being decoded (or the last one) has BFINAL set.
    var sawFinalBlock = false

    /// Longest output of one symbol (a length-258 match); the hot loop keeps this much room free.
    static let maxMatch = 258

    init(input: UnsafeBufferPointer<UInt8>, maxOutput: Int) {
        bits = DeflateBitStream(input, at: 0)
        self.maxOutput = max(0, min(maxOutput, Int.max / 4))
    }

    /// Bytes produced so far, over every member.
    var totalOutput: Int { windowBase + outCount }

    /// Starts decoding a DEFLATE stream at `offset` in the input; back-references may not reach
    /// output produced before it.
    mutating func startStream(at offset: Int) {
        bits = DeflateBitStream(bits.input, at: offset)
        memberStart = outCount
        block = .header
        sawFinalBlock = false
    }

    /// Slides the window when less than one maximal match of room is left. Call only once every
    /// byte in the window has been handed out; returns how far the data moved.
    mutating func makeRoom() -> Int {
        guard window.bytes.count - outCount < Inflater.maxMatch else { return 0 }
        let shift = window.keepHistory(endingAt: outCount)
        outCount -= shift
        windowBase += shift
        memberStart = max(0, memberStart - shift)
        return shift
    }

    /// Decodes until the window is full or the stream ends (then true, with `bits.position` the
    /// first byte after the stream). New output is `window.bytes[outCount before..<outCount]`.
    mutating func inflateSome() throws(BinaryDecodingError) -> Bool {
        while true {
            switch block {
            case .finished:
                return true
            case .header:
                if sawFinalBlock {
                    bits.alignAndRewind()
                    block = .finished
                    return true
                }
                try readBlockHeader()
            case .stored(let remaining):
                let n = min(remaining, window.bytes.count - outCount)
                if n > 0 { copyStored(n) }
                block = remaining == n ? .header : .stored(remaining: remaining - n)
                if remaining != n { return false }
            case let .huffman(literals, distances):
                switch decodeHuffman(literals, distances) {
                case .endOfBlock: block = .header
                case .needSpace: return false
                case let .failed(error): throw error
                }
            }
        }
    }

    /// Reads BTYPE and BFINAL and whatever header the block type has.
    mutating func readBlockHeader() throws(BinaryDecodingError) {
        let blockOffset = bits.byteOffset
        let header = try bits.take(3, "block header")
        sawFinalBlock = header & 1 == 1
        switch header >> 1 {
        case 0:
            block = .stored(remaining: try readStoredHeader())
        case 1:
            let fixed = HuffmanTable.fixed
            block = .huffman(fixed.literals, fixed.distances)
        case 2:
            let tables = try readDynamicTables()
            block = .huffman(tables.literals, tables.distances)
        default:
            throw BinaryDecodingError(.invalidValue, at: blockOffset, "reserved deflate block type 3")
        }
    }

    /// Block type 0: LEN, NLEN (its complement), then LEN raw bytes, all checked to be present
    /// and within the output limit before any is copied.
    mutating func readStoredHeader() throws(BinaryDecodingError) -> Int {
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
        guard len <= maxOutput - totalOutput else {
            throw BinaryDecodingError(.outputTooLarge, at: start, "decompressed data exceeds the limit of \(maxOutput) bytes")
        }
        bits.position = from
        return len
    }

    /// Copies the next `n` raw bytes of a stored block (present and within the limit: checked
    /// by `readStoredHeader`) into the window.
    mutating func copyStored(_ n: Int) {
        let from = bits.position
        _ = UnsafeMutableBufferPointer(rebasing: window.bytes[outCount..<(outCount + n)])
            .update(fromContentsOf: UnsafeBufferPointer(rebasing: bits.input[from..<(from + n)]))
        outCount += n
        bits.position = from + n
    }
}
