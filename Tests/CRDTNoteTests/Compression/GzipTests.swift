import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

@Suite struct GzipTests {
    @Test func decodesEveryBlockKind() throws {
        #expect(try Gzip.decompress(GzipVectors.empty) == [])
        #expect(try Gzip.decompress(GzipVectors.stored) == Array(String(repeating: "hello stored block! ", count: 5).utf8))
        #expect(try Gzip.decompress(GzipVectors.fixed) == Array("hello, hello!".utf8))
        #expect(GzipVectors.dynamicText.count == 6309)
        #expect((GzipVectors.dynamic[10] >> 1) & 3 == 2, "vector must start with a dynamic block")
        #expect(try Gzip.decompress(GzipVectors.dynamic) == GzipVectors.dynamicText)
    }

    @Test func decodesAllMembersAndHeaderFields() throws {
        #expect(try Gzip.decompress(GzipVectors.multiMember) == Array("first member, second member".utf8))
        #expect(try Gzip.decompress(GzipVectors.headerFlags) == Array("flagged header payload payload payload".utf8))
        #expect(try Gzip.decompress(GzipVectors.dynamic + GzipVectors.empty + GzipVectors.fixed)
            == GzipVectors.dynamicText + Array("hello, hello!".utf8))
    }

    @Test func recognisesMagic() {
        #expect(Gzip.isGzip(GzipVectors.empty))
        #expect(!Gzip.isGzip([0x1F]))
        #expect(!Gzip.isGzip(Array("{\"a\":1}".utf8)))
    }

    func decodingError(_ bytes: [UInt8], maxOutputBytes: Int = 1 << 30) -> BinaryDecodingError? {
        do {
            _ = try Gzip.decompress(bytes, maxOutputBytes: maxOutputBytes)
            return nil
        } catch {
            #expect(error.offset >= 0 && error.offset <= bytes.count, "\(error)")
            return error
        }
    }

    @Test func rejectsWrongContainers() {
        #expect(decodingError([])?.code == .truncated)
        #expect(decodingError(Array("not gzip".utf8))?.code == .badMagic)
        var method = GzipVectors.fixed
        method[2] = 7
        #expect(decodingError(method)?.code == .unsupportedVersion)
        var reserved = GzipVectors.fixed
        reserved[3] = 0x20
        #expect(decodingError(reserved)?.code == .invalidValue)
        let trailing = decodingError(GzipVectors.fixed + [0x00, 0x01])
        #expect(trailing?.code == .trailingBytes)
        #expect(trailing?.offset == GzipVectors.fixed.count)
    }

    @Test func verifiesChecksumsAndSizes() {
        let n = GzipVectors.dynamic.count
        var crc = GzipVectors.dynamic
        crc[n - 8] ^= 0x01
        let crcError = decodingError(crc)
        #expect(crcError?.code == .checksumMismatch)
        #expect(crcError?.offset == n - 8)
        var size = GzipVectors.dynamic
        size[n - 4] ^= 0x01
        #expect(decodingError(size)?.code == .checksumMismatch)
        var headerCRC = GzipVectors.headerFlags
        headerCRC[12] ^= 0x01  // inside FEXTRA, covered by FHCRC
        #expect(decodingError(headerCRC)?.code == .checksumMismatch)
    }

    @Test func respectsTheOutputLimit() throws {
        let e = decodingError(GzipVectors.dynamic, maxOutputBytes: 1000)
        #expect(e?.code == .outputTooLarge)
        #expect(try Gzip.decompress(GzipVectors.dynamic, maxOutputBytes: 6309) == GzipVectors.dynamicText)
        #expect(decodingError(GzipVectors.dynamic, maxOutputBytes: 6308)?.code == .outputTooLarge)
        #expect(decodingError(GzipVectors.stored, maxOutputBytes: 10)?.code == .outputTooLarge)
    }

    @Test func rejectsMalformedDeflate() {
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        let trailer = [UInt8](repeating: 0, count: 8)
        // Fixed block whose first symbol is a match (length code 257, distance code 0): nothing to copy.
        var bits = DeflateBitWriter()
        bits.write(1, 1); bits.write(1, 2)
        bits.writeCode(0b0000001, length: 7)
        bits.writeCode(0, length: 5)
        let farBack = decodingError(header + bits.bytes + trailer)
        #expect(farBack?.code == .invalidValue)
        #expect(farBack?.message.contains("distance") == true)
        // Reserved block type 3.
        var reserved = DeflateBitWriter()
        reserved.write(1, 1); reserved.write(3, 2)
        #expect(decodingError(header + reserved.bytes + trailer)?.code == .invalidValue)
        // Stored block whose NLEN is not the complement of LEN.
        let badStored = header + [0x01, 0x05, 0x00, 0xFA, 0xFE] + [UInt8](repeating: 0x61, count: 5) + trailer
        #expect(decodingError(badStored)?.code == .invalidValue)
        // Dynamic block declaring 287 literal/length codes.
        var tooMany = DeflateBitWriter()
        tooMany.write(1, 1); tooMany.write(2, 2); tooMany.write(30, 5); tooMany.write(0, 5); tooMany.write(0, 4)
        #expect(decodingError(header + tooMany.bytes + [0, 0, 0] + trailer)?.code == .invalidValue)
    }

    @Test(arguments: [("stored", GzipVectors.stored), ("fixed", GzipVectors.fixed),
                      ("dynamic", GzipVectors.dynamic), ("multiMember", GzipVectors.multiMember),
                      ("headerFlags", GzipVectors.headerFlags)])
    func everyTruncationThrows(_ name: String, _ vector: [UInt8]) {
        for length in 0..<vector.count {
            let e = decodingError(Array(vector[0..<length]))
            // A multi-member file cut exactly between members is a valid shorter file.
            if name == "multiMember", length == multiMemberFirstLength { #expect(e == nil); continue }
            #expect(e != nil, "\(name) cut to \(length) bytes decoded without error")
        }
    }

    var multiMemberFirstLength: Int { GzipVectors.multiMember.count - 33 }

    /// Flipping any single bit either fails cleanly or (header MTIME/XFL/OS, padding bits)
    /// still yields exactly the original data.
    @Test(arguments: [GzipVectors.dynamic, GzipVectors.stored, GzipVectors.multiMember, GzipVectors.headerFlags])
    func everyBitFlipFailsCleanlyOrIsHarmless(_ vector: [UInt8]) throws {
        let original = try Gzip.decompress(vector)
        var failures = 0
        for bit in 0..<(vector.count * 8) {
            var corrupt = vector
            corrupt[bit / 8] ^= 1 << UInt8(bit % 8)
            // The limit keeps corrupted streams that expand wildly (up to ~1032:1) cheap to reject.
            if let e = decodingError(corrupt, maxOutputBytes: 1 << 15) {
                failures += 1
                #expect(!e.message.isEmpty)
            } else {
                #expect(try Gzip.decompress(corrupt) == original, "bit \(bit)")
            }
        }
        #expect(failures > vector.count * 8 * 3 / 4)
    }

    @Test func randomBodiesAfterAValidHeaderNeverTrap() {
        var rng = SplitMix64(seed: 1952)
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        for _ in 0..<3000 {
            var body = (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Bias towards dynamic blocks, the most intricate header.
            if !body.isEmpty, Bool.random(using: &rng) { body[0] = (body[0] & ~0b110) | 0b100 }
            _ = decodingError(header + body, maxOutputBytes: 1 << 20)
        }
    }
}

/// Writes DEFLATE's LSB-first bit stream, for hand-made malformed blocks.
struct DeflateBitWriter {
    var bytes: [UInt8] = []
    var used = 0

    /// Appends the low `count` bits of `value`, least significant first (header fields, extra bits).
    mutating func write(_ value: Int, _ count: Int) {
        for i in 0..<count {
            if used % 8 == 0 { bytes.append(0) }
            if value & (1 << i) != 0 { bytes[bytes.count - 1] |= 1 << UInt8(used % 8) }
            used += 1
        }
    }

    /// Appends a Huffman code, most significant bit first as RFC 1951 requires.
    mutating func writeCode(_ code: Int, length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) { write((code >> i) & 1, 1) }
    }
}
