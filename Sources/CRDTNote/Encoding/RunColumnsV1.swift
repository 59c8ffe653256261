/// The framing of a version 1 run table (Docs/FORMAT.md, "Runs, version 1"): the run count and
/// six length-prefixed columns that fill the rest of the body, one flag byte per run.
struct RunColumnsV1 {
    /// Runs declared, within the run limit.
    var runCount: Int
    /// Offset of the run count, for errors about the runs as a whole.
    var countOffset: Int
    /// Each column, a reader over exactly its bytes.
    var flags: ByteReader
    var replicaColumn: ByteReader
    var seqColumn: ByteReader
    var lengthColumn: ByteReader
    var leftColumn: ByteReader
    var rightColumn: ByteReader

    /// Reads the run count and the column lengths, checking that the columns end the body
    /// exactly, that there is one flag byte per run and that the run count is within `limits`.
    static func frame(_ reader: inout ByteReader, limits: NoteLimits) throws(BinaryDecodingError) -> RunColumnsV1 {
        let countOffset = reader.offset
        let runCount = try reader.readCount("run count", minimumBytesEach: 2)
        let flags = try reader.subReader(length: try columnLength(&reader, "flag column"), "flag column")
        let replicaColumn = try reader.subReader(length: try columnLength(&reader, "replica column"), "replica column")
        let seqColumn = try reader.subReader(length: try columnLength(&reader, "sequence column"), "sequence column")
        let lengthColumn = try reader.subReader(length: try columnLength(&reader, "length column"), "length column")
        let leftColumn = try reader.subReader(length: try columnLength(&reader, "left-origin column"), "left-origin column")
        let rightColumn = try reader.subReader(length: try columnLength(&reader, "right-origin column"), "right-origin column")
        try reader.expectEnd("snapshot")
        guard flags.remaining == runCount else {
            throw BinaryDecodingError(.invalidValue, at: countOffset, "\(runCount) runs but \(flags.remaining) flag bytes")
        }
        guard runCount <= limits.maximumRuns else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset, "\(runCount) runs exceed the limit of \(limits.maximumRuns)")
        }
        return RunColumnsV1(runCount: runCount, countOffset: countOffset, flags: flags, replicaColumn: replicaColumn,
                            seqColumn: seqColumn, lengthColumn: lengthColumn, leftColumn: leftColumn, rightColumn: rightColumn)
    }

    private static func columnLength(_ reader: inout ByteReader, _ what: String) throws(BinaryDecodingError) -> Int {
        try reader.readVarUInt(max: UInt64(reader.remaining), "length of \(what)")
    }
}
