import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// Every power-of-two-of-7-bits boundary, where the varint length changes.
let varintBoundaries: [UInt64] = {
    var values: [UInt64] = [0, 1, UInt64.max, UInt64.max - 1, UInt64(Int64.max), UInt64(Int64.max) + 1]
    for k in 1...9 {
        let edge = UInt64(1) << UInt64(7 * k)
        values += [edge - 1, edge, edge + 1]
    }
    return values
}()

/// Expected LEB128 length: one byte per started group of 7 significant bits.
func expectedVarintLength(_ v: UInt64) -> Int {
    max(1, (64 - v.leadingZeroBitCount + 6) / 7)
}

@Suite struct VarintRoundTripTests {
    @Test(arguments: varintBoundaries)
    func unsignedRoundTripsWithShortestLength(_ v: UInt64) throws {
        var w = ByteWriter()
        w.writeVarUInt(v)
        #expect(w.count == expectedVarintLength(v))
        var r = ByteReader(w.bytes)
        #expect(try r.readVarUInt() == v)
        #expect(r.isAtEnd)
    }

    @Test func knownEncodings() {
        var w = ByteWriter()
        w.writeVarUInt(300)
        w.writeVarUInt(UInt64.max)
        #expect(w.bytes == [0xAC, 0x02] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        var z = ByteWriter()
        for v: Int64 in [0, -1, 1, -2, 2] { z.writeVarInt(v) }
        #expect(z.bytes == [0, 1, 2, 3, 4])
    }

    @Test func signedRoundTrips() throws {
        var values: [Int64] = [0, -1, 1, Int64.min, Int64.max, Int64.min + 1, Int64.max - 1]
        for k in 1...9 {
            let edge = Int64(1) << Int64(min(7 * k - 1, 62))
            values += [edge - 1, edge, -edge, -edge - 1]
        }
        var w = ByteWriter()
        for v in values { w.writeVarInt(v) }
        var r = ByteReader(w.bytes)
        for v in values { #expect(try r.readVarInt() == v) }
        try r.expectEnd("signed values")
        var one = ByteWriter()
        one.writeVarInt(Int64.min)
        #expect(one.count == 10)
    }

    @Test func fixedWidthAndLengthPrefixedRoundTrip() throws {
        var w = ByteWriter(reservingCapacity: 64)
        w.writeUInt32LE(0)                       // patched below
        w.writeByte(0xAB)
        w.writeUInt32LE(0xDEADBEEF)
        w.writeUInt64LE(0x0102030405060708)
        w.writeLengthPrefixed(Array("note".utf8))
        w.writeBytes([1, 2, 3][1...])            // ArraySlice fast path
        w.writeBytes((7...9).map { UInt8($0) }.reversed())  // non-contiguous collection
        w.patchUInt32LE(UInt32(w.count), at: 0)
        #expect(Array(w.bytes[5..<9]) == [0xEF, 0xBE, 0xAD, 0xDE])

        var r = ByteReader(w.bytes)
        #expect(try r.readUInt32LE() == UInt32(w.count))
        #expect(try r.readByte() == 0xAB)
        #expect(try r.readUInt32LE() == 0xDEADBEEF)
        #expect(try r.readUInt64LE() == 0x0102030405060708)
        #expect(Array(try r.readLengthPrefixed("title")) == Array("note".utf8))
        #expect(Array(try r.readBytes(2)) == [2, 3])
        #expect(r.remaining == 3)
        #expect(Array(try r.readBytes(3)) == [9, 8, 7])
        #expect(try r.readBytes(0).isEmpty)
        try r.expectEnd("record")
    }

    @Test func subReaderReportsAbsoluteOffsets() throws {
        let bytes: [UInt8] = [9, 9, 9, 0x05, 0x80]
        var outer = ByteReader(bytes, baseOffset: 100)
        _ = try outer.readBytes(3)
        var inner = try outer.subReader(length: 2, "payload")
        #expect(outer.isAtEnd)
        #expect(inner.offset == 103)
        #expect(try inner.readVarUInt() == 5)
        let error = #expect(throws: BinaryDecodingError.self) { try inner.readVarUInt() }
        #expect(error?.code == .truncated)
        #expect(error?.offset == 104)
        #expect(throws: BinaryDecodingError.self) { try ByteReader(bytes).expectEnd("x") }
        var tooLong = ByteReader(bytes)
        #expect(throws: BinaryDecodingError.self) { try tooLong.subReader(length: 6, "payload") }
        #expect(tooLong.offset == 0)
    }

    @Test func rangeOutsideBytesIsClamped() throws {
        var r = ByteReader([1, 2, 3], range: 2..<50)
        #expect(r.remaining == 1)
        #expect(try r.readByte() == 3)
        #expect(r.isAtEnd)
    }
}
