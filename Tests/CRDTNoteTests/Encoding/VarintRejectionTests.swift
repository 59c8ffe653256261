import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite struct VarintRejectionTests {
    /// Reads a varint after `prefix` filler bytes and returns the error it raised.
    func varintError(_ encoded: [UInt8], prefix: Int = 0, baseOffset: Int = 0) -> BinaryDecodingError? {
        var r = ByteReader([UInt8](repeating: 0, count: prefix) + encoded, baseOffset: baseOffset)
        do {
            _ = try r.readBytes(prefix)
            _ = try r.readVarUInt()
            return nil
        } catch {
            #expect(r.offset == baseOffset + prefix, "a failed read must not move the cursor")
            return error
        }
    }

    @Test func overflowingVarintsAreRejectedAtTheirStart() {
        let tooHigh = [UInt8](repeating: 0xFF, count: 9) + [0x02]
        let eleven = [UInt8](repeating: 0x80, count: 10) + [0x01]
        for bad in [tooHigh, eleven, [UInt8](repeating: 0xFF, count: 12)] {
            let e = varintError(bad, prefix: 3, baseOffset: 40)
            #expect(e?.code == .varintOverflow)
            #expect(e?.offset == 43)
        }
        #expect(varintError([UInt8](repeating: 0xFF, count: 9) + [0x01]) == nil)
    }

    @Test func overlongVarintsAreRejected() {
        for bad: [UInt8] in [[0x80, 0x00], [0xFF, 0x80, 0x00], [0x81, 0x80, 0x80, 0x00],
                             [UInt8](repeating: 0x80, count: 9) + [0x00]] {
            let e = varintError(bad, prefix: 2)
            #expect(e?.code == .nonMinimalVarint)
            #expect(e?.offset == 2)
        }
    }

    @Test(arguments: varintBoundaries)
    func everyTruncatedPrefixReportsTruncationAtTheFieldStart(_ v: UInt64) {
        var w = ByteWriter()
        w.writeVarUInt(v)
        for k in 0..<w.count {
            let e = varintError(Array(w.bytes[0..<k]), prefix: 1)
            #expect(e?.code == .truncated)
            #expect(e?.offset == 1)
        }
    }

    /// Writes one of each field, then checks that every prefix of the encoding fails with
    /// `.truncated` exactly at the field that no longer fits.
    @Test func truncatingAMixedRecordAtEveryLengthNamesTheRightField() throws {
        var w = ByteWriter()
        var starts: [Int] = []
        starts.append(w.count); w.writeByte(7)
        starts.append(w.count); w.writeVarUInt(1 << 40)
        starts.append(w.count); w.writeVarInt(-123_456)
        starts.append(w.count); w.writeUInt32LE(0xCAFEBABE)
        starts.append(w.count); w.writeUInt64LE(42)
        starts.append(w.count); w.writeLengthPrefixed(Array(repeating: 0x55, count: 20))
        starts.append(w.count)
        let full = w.bytes

        func readAll(_ r: inout ByteReader) throws(BinaryDecodingError) {
            _ = try r.readByte()
            _ = try r.readVarUInt()
            _ = try r.readVarInt()
            _ = try r.readUInt32LE()
            _ = try r.readUInt64LE()
            _ = try r.readLengthPrefixed("body")
        }
        var complete = ByteReader(full)
        try readAll(&complete)
        try complete.expectEnd("record")

        for length in 0..<full.count {
            var r = ByteReader(Array(full[0..<length]))
            let error = #expect(throws: BinaryDecodingError.self) { try readAll(&r) }
            // The failing field is the last one starting at or before the cut.
            let expectedOffset = starts.last { $0 <= length } ?? -1
            #expect(error?.code == .truncated || error?.code == .lengthTooLarge)
            #expect(error?.offset == expectedOffset, "prefix \(length)")
        }
    }

    @Test func boundedReadsNameTheField() throws {
        var w = ByteWriter()
        w.writeVarUInt(1000)
        var r = ByteReader(w.bytes)
        let e = #expect(throws: BinaryDecodingError.self) { try r.readVarUInt(max: 999, "run length") }
        #expect(e?.code == .invalidValue)
        #expect(e?.offset == 0)
        #expect(e?.message.contains("run length") == true)
        #expect(try r.readVarUInt(max: 1000, "run length") == 1000)
    }

    @Test func inflatedCountsAreRejectedBeforeAnythingIsAllocated() throws {
        var w = ByteWriter()
        w.writeVarUInt(4_294_967_295)
        w.writeBytes([UInt8](repeating: 1, count: 12))
        var r = ByteReader(w.bytes)
        let e = #expect(throws: BinaryDecodingError.self) { try r.readCount("runs", minimumBytesEach: 3) }
        #expect(e?.code == .lengthTooLarge)
        #expect(e?.offset == 0)
        #expect(e?.message.contains("4294967295") == true)
        #expect(r.offset == 0)

        var exact = ByteWriter()
        exact.writeVarUInt(4)
        exact.writeBytes([UInt8](repeating: 0, count: 12))
        var ok = ByteReader(exact.bytes)
        #expect(try ok.readCount("runs", minimumBytesEach: 3) == 4)
        var tooMany = ByteReader(exact.bytes)
        #expect(throws: BinaryDecodingError.self) { try tooMany.readCount("runs", minimumBytesEach: 4) }
        var zeroSize = ByteReader(exact.bytes)
        #expect(try zeroSize.readCount("markers", minimumBytesEach: 0) == 4)
    }

    @Test func inflatedLengthPrefixIsRejected() {
        var w = ByteWriter()
        w.writeByte(0)
        w.writeVarUInt(UInt64.max)
        w.writeBytes([1, 2, 3])
        var r = ByteReader(w.bytes)
        _ = try? r.readByte()
        let e = #expect(throws: BinaryDecodingError.self) { try r.readLengthPrefixed("title") }
        #expect(e?.code == .lengthTooLarge)
        #expect(e?.offset == 1)
        #expect(r.offset == 1)
        var n = ByteReader([1, 2])
        #expect(throws: BinaryDecodingError.self) { try n.readBytes(-1) }
        #expect(throws: BinaryDecodingError.self) { try n.readBytes(3) }
        #expect(n.remaining == 2)
    }
}
