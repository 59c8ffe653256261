import CRDTNoteSupport
import CRDTNote
/// Reads gzip files (RFC 1952) with a built-in DEFLATE decoder, so crdtnote needs no zlib.
///
/// Handles stored, fixed- and dynamic-Huffman blocks, the optional FEXTRA/FNAME/FCOMMENT/FHCRC header
/// fields and files made of several concatenated members. Each member's CRC-32 and length are verified.
/// Malformed input always ends in a `BinaryDecodingError` with the byte offset of the problem.
///
/// ```swift
/// let raw = try Gzip.decompress(fileBytes, maxOutputBytes: 64 << 20)
/// ```
public enum Gzip {
    /// Whether `bytes` starts with the gzip magic number 1f 8b.
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Decompresses every member of a gzip file and returns their concatenated contents.
    ///
    /// Fails with `.outputTooLarge` rather than producing more than `maxOutputBytes` bytes; with
    /// `.checksumMismatch` when a member's CRC-32 or ISIZE disagrees with the data; with
    /// `.trailingBytes` when bytes after a member are not another member.
    /// The output never grows past `maxOutputBytes` (plus one 258-byte match of slack), however
    /// small and repetitive the input: a gzip bomb fails at the limit, it is not inflated first.
    public static func decompress(_ bytes: [UInt8], maxOutputBytes: Int = 64 << 20) throws(BinaryDecodingError) -> [UInt8] {
        // Size the output from the last member's ISIZE, but never beyond what DEFLATE could produce
        // from this much input (at most ~1032:1) or the limit, so a forged ISIZE cannot force a
        // huge allocation.
        var expected = 0
        if bytes.count >= 18 {
            let n = bytes.count
            expected = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
            expected = min(expected, bytes.count.multipliedReportingOverflow(by: 1032).partialValue, max(0, maxOutputBytes))
        }
        return try withStream(bytes, maxOutputBytes: maxOutputBytes) { (stream) throws(BinaryDecodingError) in
            var out: [UInt8] = []
            out.reserveCapacity(expected)
            while true {
                let chunk = try stream.read()
                if chunk.isEmpty { return out }
                out.append(contentsOf: chunk)
            }
        }
    }

    /// Runs `body` with a ``GzipStream`` over `bytes`, which inflates at most `maxOutputBytes`
    /// in total (`.outputTooLarge` past that) and holds only a 96 KiB window at a time.
    static func withStream<R>(
        _ bytes: [UInt8], maxOutputBytes: Int, _ body: (inout GzipStream) throws(BinaryDecodingError) -> R
    ) throws(BinaryDecodingError) -> R {
        let result: Result<R, BinaryDecodingError> = bytes.withUnsafeBufferPointer { input in
            var stream = GzipStream(bytes, input: input, maxOutputBytes: maxOutputBytes)
            do throws(BinaryDecodingError) {
                return .success(try body(&stream))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Header flag bits (RFC 1952 section 2.3.1).
    static let flagHeaderCRC: UInt8 = 0x02, flagExtra: UInt8 = 0x04, flagName: UInt8 = 0x08, flagComment: UInt8 = 0x10

    /// Reads and checks a member header, leaving `r` at the first byte of DEFLATE data.
    static func readHeader(_ r: inout ByteReader, memberStart: Int, _ bytes: [UInt8]) throws(BinaryDecodingError) {
        let magic = try r.readBytes(2)
        guard magic.first == 0x1F, magic.last == 0x8B else {
            throw BinaryDecodingError(.badMagic, at: memberStart, "gzip member does not start with 1f 8b")
        }
        let method = try r.readByte()
        guard method == 8 else {
            throw BinaryDecodingError(.unsupportedVersion, at: memberStart + 2, "gzip compression method \(method) is not deflate (8)")
        }
        let flags = try r.readByte()
        guard flags & 0xE0 == 0 else {
            throw BinaryDecodingError(.invalidValue, at: memberStart + 3, "gzip header sets reserved flag bits (\(hex(flags)))")
        }
        _ = try r.readBytes(6)  // MTIME, XFL, OS: informational only.
        if flags & flagExtra != 0 {
            let lengthBytes = try r.readBytes(2)
            let length = Int(lengthBytes[lengthBytes.startIndex]) | Int(lengthBytes[lengthBytes.startIndex + 1]) << 8
            _ = try r.readBytes(length)
        }
        if flags & flagName != 0 { try skipZeroTerminated(&r, "file name") }
        if flags & flagComment != 0 { try skipZeroTerminated(&r, "comment") }
        if flags & flagHeaderCRC != 0 {
            let covered = memberStart..<r.offset
            let crcOffset = r.offset
            let stored = try r.readBytes(2)
            let expected = UInt16(stored[stored.startIndex]) | UInt16(stored[stored.startIndex + 1]) << 8
            let actual = UInt16(truncatingIfNeeded: CRC32.checksum(bytes[covered]))
            guard actual == expected else {
                throw BinaryDecodingError(.checksumMismatch, at: crcOffset, "gzip header CRC16 is \(actual) but the header says \(expected)")
            }
        }
    }

    /// Skips a zero-terminated header string.
    static func skipZeroTerminated(_ r: inout ByteReader, _ what: String) throws(BinaryDecodingError) {
        let start = r.offset
        while true {
            guard !r.isAtEnd else {
                throw BinaryDecodingError(.truncated, at: start, "gzip header \(what) has no terminating zero byte")
            }
            if try r.readByte() == 0 { return }
        }
    }

    static func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16)
        return s.count == 1 ? "0" + s : s
    }

    static func hex32(_ v: UInt32) -> String { "0x" + String(v, radix: 16) }
}
