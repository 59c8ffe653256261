/// The fixed 18-byte header in front of every payload:
/// magic "CRNT", format version (UInt16 LE), minimum reader version (UInt16 LE),
/// kind (UInt8), flags (UInt8), body length (UInt32 LE), CRC-32C of the body (UInt32 LE).
package struct PayloadHeader: Sendable, Hashable {
    /// Version of the writer.
    package var formatVersion: UInt16
    /// Oldest reader version that can decode the body.
    package var minimumReaderVersion: UInt16
    /// Snapshot or changes.
    package var kind: PayloadKind
    /// Reserved flag bits; version 1 writes 0 and rejects unknown bits.
    package var flags: UInt8
    /// Length of the body that follows the header.
    package var bodyLength: Int
    /// CRC-32C (Castagnoli) of the body.
    package var checksum: UInt32

    /// Reads and checks the header of `bytes`: magic, version gate (before anything
    /// else is interpreted), kind, flags, length and checksum.
    /// `supportedReader` is the newest minimum reader version accepted (tests lower it to
    /// check the gate as an older release would apply it).
    package static func read(_ bytes: [UInt8], supportedReader: UInt16 = NoteFormat.readerVersion) throws(PayloadError) -> PayloadHeader {
        do {
            var reader = ByteReader(bytes)
            let magic = try reader.readBytes(4)
            guard magic.elementsEqual(NoteFormat.magic) else {
                throw BinaryDecodingError(.badMagic, at: 0, "not a crdtnote payload (expected magic \"CRNT\")")
            }
            let format = try readUInt16(&reader)
            let minimumReader = try readUInt16(&reader)
            if minimumReader > supportedReader {
                throw PayloadError.newerFormat(requiredReader: minimumReader, supportedReader: supportedReader)
            }
            let kindOffset = reader.offset
            let kindByte = try reader.readByte()
            guard let kind = PayloadKind(rawValue: kindByte) else {
                throw BinaryDecodingError(.invalidValue, at: kindOffset, "unknown payload kind \(kindByte)")
            }
            let flagsOffset = reader.offset
            let flags = try reader.readByte()
            guard flags == 0 else {
                throw BinaryDecodingError(.invalidValue, at: flagsOffset, "unknown flags 0x\(String(flags, radix: 16))")
            }
            let lengthOffset = reader.offset
            let length = Int(try reader.readUInt32LE())
            let checksum = try reader.readUInt32LE()
            guard length == reader.remaining else {
                throw BinaryDecodingError(length > reader.remaining ? .truncated : .trailingBytes, at: lengthOffset,
                                          "header declares a \(length)-byte body but \(reader.remaining) bytes follow")
            }
            let actual = CRC32C.checksum(bytes[NoteFormat.headerSize...])
            guard actual == checksum else {
                throw BinaryDecodingError(.checksumMismatch, at: NoteFormat.headerSize - 4,
                                          "body checksum is 0x\(String(actual, radix: 16)), header says 0x\(String(checksum, radix: 16))")
            }
            return PayloadHeader(formatVersion: format, minimumReaderVersion: minimumReader, kind: kind, flags: flags,
                                 bodyLength: length, checksum: checksum)
        } catch let error as PayloadError {
            throw error
        } catch let error as BinaryDecodingError {
            throw .corrupt(error)
        } catch {
            throw .corrupt(BinaryDecodingError(.invalidValue, at: 0, "\(error)"))
        }
    }

    /// The minimum reader version a payload declares, read from its header alone (nothing else is
    /// checked); nil when `bytes` do not start with a payload header. Lets callers refuse a
    /// payload from a newer writer before decoding or overwriting it.
    package static func requiredReaderVersion(of bytes: [UInt8]) -> UInt16? {
        guard bytes.count >= 8, bytes[0..<4].elementsEqual(NoteFormat.magic) else { return nil }
        return UInt16(bytes[6]) | UInt16(bytes[7]) << 8
    }

    private static func readUInt16(_ reader: inout ByteReader) throws(BinaryDecodingError) -> UInt16 {
        let b = try reader.readBytes(2)
        return UInt16(b[b.startIndex]) | UInt16(b[b.startIndex + 1]) << 8
    }

    /// Wraps `body` in a header declaring format `version`, readable by readers of that version
    /// or newer (format 1 unless a snapshot is written in another ``SnapshotFormat``).
    static func wrap(_ body: [UInt8], kind: PayloadKind, version: UInt16 = 1) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: body.count + NoteFormat.headerSize)
        out.writeBytes(NoteFormat.magic)
        out.writeByte(UInt8(version & 0xFF)); out.writeByte(UInt8(version >> 8))
        out.writeByte(UInt8(version & 0xFF)); out.writeByte(UInt8(version >> 8))
        out.writeByte(kind.rawValue)
        out.writeByte(0)
        out.writeUInt32LE(UInt32(body.count))
        out.writeUInt32LE(CRC32C.checksum(body))
        out.writeBytes(body)
        return out.bytes
    }

    /// Checks the header and kind, returning the header and a reader positioned on the body.
    static func body(of bytes: [UInt8], expecting kind: PayloadKind) throws(PayloadError) -> (PayloadHeader, ByteReader) {
        let header = try read(bytes)
        guard header.kind == kind else {
            throw .corrupt(BinaryDecodingError(.invalidValue, at: 8, "expected a \(kind) payload, found \(header.kind)"))
        }
        return (header, ByteReader(bytes, range: NoteFormat.headerSize..<bytes.count))
    }

    /// ``body(of:expecting:)`` for a payload that travels beside the note (formatting,
    /// history), refused first when it is larger than `limits` lets a reader accept.
    static func body(of bytes: [UInt8], expecting kind: PayloadKind, limits: NoteLimits) throws(PayloadError) -> (PayloadHeader, ByteReader) {
        guard bytes.count <= limits.maximumAssetBytes else {
            throw .corrupt(BinaryDecodingError(.lengthTooLarge, at: 0,
                                               "the \(kind) payload has \(bytes.count) bytes, more than the \(limits.maximumAssetBytes) a reader accepts"))
        }
        return try body(of: bytes, expecting: kind)
    }
}
