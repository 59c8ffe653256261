/// A pack file, `notes/pack-<generation>`: the blobs one compaction wrote, written whole and
/// flushed once, never changed after (Docs/LIBRARY.md, "Layout on disk").
///
/// A 16-byte header: `"CRNP"`, versions (`UInt32` LE: writer version, minimum reader << 16) and
/// the generation (`UInt64` LE); then records, one per blob, framed like the journal's:
/// `[blob length: UInt32 LE][CRC-32C of the blob: UInt32 LE][blob]`. Nothing in the file says
/// which note a record belongs to: the index holds each note's ``BlobRef``s.
enum PackFormat {
    /// "CRNP".
    static let magic: [UInt8] = [0x43, 0x52, 0x4E, 0x50]
    static let headerSize = 16
    static let recordPrefixSize = JournalFraming.frameHeaderSize
    /// Most bytes of one blob (the record's length field is 32 bits).
    static let maximumBlob = Int(UInt32.max)

    /// The header of the pack of `generation`.
    static func header(generation: UInt64) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: headerSize)
        out.writeBytes(magic)
        out.writeUInt32LE(UInt32(LibraryFormat.version) | UInt32(LibraryFormat.minimumReader) << 16)
        out.writeUInt64LE(generation)
        return out.bytes
    }

    /// The blob in `record` (the bytes read at `ref.offset`, `ref.recordBytes` of them asked
    /// for), checked against the reference and its checksum.
    static func blob(in record: [UInt8], for ref: BlobRef) throws(LibraryFileError) -> ArraySlice<UInt8> {
        guard record.count == ref.recordBytes else {
            throw .damaged("the record at offset \(ref.offset) is cut short: \(record.count) of \(ref.recordBytes) bytes are there")
        }
        let length = readUInt32(record, 0)
        guard Int(length) == ref.length else {
            throw .damaged("the record at offset \(ref.offset) holds \(length) bytes, the index says \(ref.length)")
        }
        let body = record[recordPrefixSize...]
        guard CRC32C.checksum(body) == readUInt32(record, 4) else {
            throw .damaged("the record at offset \(ref.offset) fails its checksum")
        }
        return body
    }

    private static func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
