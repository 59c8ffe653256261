import CRDTNoteSupport
import CRDTNote
extension Inflater {
    /// Order in which code-length code lengths are sent (RFC 1951 section 3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Reads a dynamic block's header and builds its literal/length and distance tables.
    mutating func readDynamicTables() throws(BinaryDecodingError) -> (literals: HuffmanTable, distances: HuffmanTable) {
        let headerOffset = bits.byteOffset
        let literalCount = Int(try bits.take(5, "dynamic block header")) + 257
        let distanceCount = Int(try bits.take(5, "dynamic block header")) + 1
        let codeLengthCount = Int(try bits.take(4, "dynamic block header")) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw BinaryDecodingError(.invalidValue, at: headerOffset,
                "dynamic block declares \(literalCount) literal/length and \(distanceCount) distance codes (max 286 and 30)")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount {
            codeLengthLengths[Inflater.codeLengthOrder[i]] = UInt8(try bits.take(3, "code length code lengths"))
        }
        let codeLengthTable = try buildTable(codeLengthLengths, HuffmanTable.codeLengthInfos, primaryBits: 7, "code length code", headerOffset)

        // Literal/length and distance code lengths form one sequence; repeats may cross between them.
        let total = literalCount + distanceCount
        var lengths = [UInt8](repeating: 0, count: total)
        var i = 0
        try codeLengthTable.entries.withUnsafeBufferPointer { (table) throws(BinaryDecodingError) in
            while i < total {
                let symbolOffset = bits.byteOffset
                let symbol = Int(try bits.decode(table, primaryBits: 7, "code lengths") >> 16)
                var repeatValue: UInt8 = 0
                var repeatCount = 0
                switch symbol {
                case 0...15:
                    lengths[i] = UInt8(symbol)
                    i += 1
                    continue
                case 16:
                    guard i > 0 else {
                        throw BinaryDecodingError(.invalidValue, at: symbolOffset, "code length repeat with no previous length")
                    }
                    repeatValue = lengths[i - 1]
                    repeatCount = 3 + Int(try bits.take(2, "code lengths"))
                case 17:
                    repeatCount = 3 + Int(try bits.take(3, "code lengths"))
                default:
                    repeatCount = 11 + Int(try bits.take(7, "code lengths"))
                }
                guard repeatCount <= total - i else {
                    throw BinaryDecodingError(.invalidValue, at: symbolOffset,
                        "code length repeat of \(repeatCount) overruns the \(total) declared lengths")
                }
                for k in i..<(i + repeatCount) { lengths[k] = repeatValue }
                i += repeatCount
            }
        }
        guard lengths[256] != 0 else {
            throw BinaryDecodingError(.invalidValue, at: headerOffset, "dynamic block has no end-of-block code")
        }
        let literals = try buildTable(lengths[0..<literalCount], HuffmanTable.literalLengthInfos, primaryBits: 10, "literal/length code", headerOffset)
        let distances = try buildTable(lengths[literalCount...], HuffmanTable.distanceInfos, primaryBits: 8, "distance code", headerOffset)
        return (literals, distances)
    }

    /// Builds a table, turning an over-subscribed code into a decoding error at `offset`.
    func buildTable<C: Collection>(_ lengths: C, _ infos: [UInt32], primaryBits: Int, _ what: String, _ offset: Int)
        throws(BinaryDecodingError) -> HuffmanTable where C.Element == UInt8 {
        let array = Array(lengths)
        let table: HuffmanTable? = array.withUnsafeBufferPointer { try? HuffmanTable(lengths: $0, infos: infos, primaryBits: primaryBits) }
        guard let table else {
            throw BinaryDecodingError(.invalidValue, at: offset, "\(what) lengths are over-subscribed")
        }
        return table
    }
}
