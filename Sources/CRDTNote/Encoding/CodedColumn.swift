/// One byte column of a version 2 run table, stored raw or rANS-coded, whichever is smaller
/// (Docs/FORMAT.md, "Compressed columns"):
/// - mode 0 (raw): varuint byte count n, then the n bytes;
/// - mode 1 (rANS): varuint byte count n (at least 1), the frequency table, varuint length m of
///   the coded stream, then the m bytes (``RANSCoder``).
enum CodedColumn {
    static let raw: UInt8 = 0
    static let rans: UInt8 = 1

    /// Appends `bytes` in the smaller mode (raw on a tie), or raw when `raw` is set.
    static func write(_ bytes: [UInt8], into out: inout ByteWriter, raw forced: Bool = false) {
        var plain = ByteWriter(reservingCapacity: bytes.count + 6)
        plain.writeByte(raw)
        plain.writeLengthPrefixed(bytes)
        guard !bytes.isEmpty, !forced else { out.writeBytes(plain.bytes); return }
        let table = RANSCoder.Table(normalizing: bytes)
        let stream = RANSCoder.encode(bytes, table: table)
        var coded = ByteWriter(reservingCapacity: stream.count + 64)
        coded.writeByte(rans)
        coded.writeVarUInt(UInt64(bytes.count))
        table.write(into: &coded)
        coded.writeLengthPrefixed(stream)
        out.writeBytes(coded.count < plain.count ? coded.bytes : plain.bytes)
    }

    /// Reads a column of exactly `count` decoded bytes, one per `unit` (more: `lengthTooLarge`
    /// as ``read(_:maximumCount:_:)`` reports it; fewer: `invalidValue` at the column's mode byte).
    static func read(_ reader: inout ByteReader, exactly count: Int, _ what: String, per unit: String) throws(BinaryDecodingError) -> ByteReader {
        let start = reader.offset
        let column = try read(&reader, maximumCount: count, what)
        guard column.remaining == count else {
            throw BinaryDecodingError(.invalidValue, at: start, "\(what) are \(column.remaining) for \(count) \(unit)")
        }
        return column
    }

    /// Reads a column of at most `maximumCount` decoded bytes and returns a reader over them.
    /// A raw column's reader reports true payload offsets; a coded column's reports the
    /// column's offset (its mode byte) for every error in its decoded bytes.
    static func read(_ reader: inout ByteReader, maximumCount: Int, _ what: String) throws(BinaryDecodingError) -> ByteReader {
        let start = reader.offset
        let mode = try reader.readByte()
        switch mode {
        case raw:
            let n = try reader.readVarUInt(max: UInt64(reader.remaining), "byte count of \(what)")
            guard n <= maximumCount else {
                throw BinaryDecodingError(.lengthTooLarge, at: start, "\(what) has \(n) bytes, more than the \(maximumCount) its runs can use")
            }
            return try reader.subReader(length: n, what)
        case rans:
            let countOffset = reader.offset
            let n = try reader.readVarUInt(max: UInt64(Int32.max), "byte count of \(what)")
            guard n >= 1, n <= maximumCount else {
                throw BinaryDecodingError(n == 0 ? .invalidValue : .lengthTooLarge, at: countOffset,
                                          n == 0 ? "\(what) is coded but empty" : "\(what) has \(n) bytes, more than the \(maximumCount) its runs can use")
            }
            let table = try RANSCoder.Table.read(&reader, what)
            let m = try reader.readVarUInt(max: UInt64(reader.remaining), "coded length of \(what)")
            var stream = try reader.subReader(length: m, what)
            let decoded = try RANSCoder.decode(&stream, count: n, table: table, what)
            return ByteReader(decoded, baseOffset: start, pinned: true)
        default:
            throw BinaryDecodingError(.invalidValue, at: start, "\(what) has unknown mode \(mode)")
        }
    }
}
