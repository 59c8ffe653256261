import Testing
@testable import CRDTNote
@testable import CRDTNoteTesting
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// The rANS coder and the raw-or-coded byte columns of snapshot format 2: round trips of
/// random streams (the input is the oracle) and hostile streams (a typed error, never a trap).
@Suite struct RANSCoderTests {
    /// Random streams of several shapes: uniform, skewed, one symbol, two symbols, tiny.
    static func streams(seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        let n = Int.random(in: 1...5_000, using: &rng)
        let uniform = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let skewed = (0..<n).map { _ -> UInt8 in
            var v: UInt8 = 0
            while v < 255, Int.random(in: 0..<8, using: &rng) != 0 { v += 1 }   // geometric: mostly small
            return v
        }
        let one = [UInt8](repeating: UInt8.random(in: 0...255, using: &rng), count: n)
        let two = (0..<n).map { _ in Int.random(in: 0..<1000, using: &rng) == 0 ? UInt8(7) : UInt8(200) }
        let tiny = (0..<Int.random(in: 1...3, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return [uniform, skewed, one, two, tiny]
    }

    @Test(arguments: Array(1...30) as [UInt64])
    func streamsRoundTrip(seed: UInt64) throws {
        for bytes in Self.streams(seed: seed) {
            let table = RANSCoder.Table(normalizing: bytes)
            #expect(table.frequencies.reduce(0, +) == 4096)
            for s in 0..<256 {
                #expect((table.frequencies[s] > 0) == bytes.contains(UInt8(s)), "symbol \(s) present iff in the input")
            }
            let coded = RANSCoder.encode(bytes, table: table)
            var reader = ByteReader(coded)
            #expect(try RANSCoder.decode(&reader, count: bytes.count, table: table, "test") == bytes)
            // A table survives its own encoding.
            var w = ByteWriter()
            table.write(into: &w)
            var tr = ByteReader(w.bytes)
            #expect(try RANSCoder.Table.read(&tr, "test") == table)
            #expect(tr.isAtEnd)
            // Through a column, raw or coded, whichever is smaller.
            var column = ByteWriter()
            CodedColumn.write(bytes, into: &column)
            #expect(column.count <= bytes.count + 4, "a column is never much larger than raw")
            var cr = ByteReader(column.bytes)
            var decoded = try CodedColumn.read(&cr, maximumCount: bytes.count, "test")
            #expect(cr.isAtEnd)
            #expect(Array(try decoded.readBytes(decoded.remaining)) == bytes)
        }
    }

    @Test func skewedAndSingleSymbolStreamsAreCoded() throws {
        let one = [UInt8](repeating: 9, count: 10_000)
        var w = ByteWriter()
        CodedColumn.write(one, into: &w)
        #expect(w.bytes[0] == CodedColumn.rans)
        #expect(w.count < 16, "one symbol costs its table and the 4-byte state: \(w.count) bytes")
        let skewed = Self.streams(seed: 5)[1]
        var s = ByteWriter()
        CodedColumn.write(skewed, into: &s)
        #expect(s.bytes[0] == CodedColumn.rans)
        #expect(s.count < skewed.count * 3 / 5, "about 4.4 bits a symbol")
    }

    @Test func anEmptyColumnIsRaw() throws {
        var w = ByteWriter()
        CodedColumn.write([], into: &w)
        #expect(w.bytes == [CodedColumn.raw, 0])
        var r = ByteReader(w.bytes)
        #expect(try CodedColumn.read(&r, maximumCount: 0, "test").remaining == 0)
    }

    /// Decodes `bytes` as a column, expecting a typed error of `code`.
    func refused(_ bytes: [UInt8], maximumCount: Int = 1_000, _ code: BinaryDecodingError.Code, or other: BinaryDecodingError.Code? = nil,
                 _ comment: Comment) {
        var r = ByteReader(bytes)
        do {
            _ = try CodedColumn.read(&r, maximumCount: maximumCount, "test column")
            Issue.record("accepted: \(comment)")
        } catch {
            #expect(error.code == code || error.code == other, comment)
            #expect(error.offset >= 0 && error.offset <= bytes.count, comment)
        }
    }

    @Test func hostileColumnsAreRefused() {
        let bytes: [UInt8] = Array("hello, hello, hello".utf8)
        let table = RANSCoder.Table(normalizing: bytes)
        let stream = RANSCoder.encode(bytes, table: table)
        func column(count: Int = bytes.count, table: [UInt8]? = nil, stream s: [UInt8] = stream) -> [UInt8] {
            var w = ByteWriter()
            w.writeByte(CodedColumn.rans)
            w.writeVarUInt(UInt64(count))
            if let table { w.writeBytes(table) } else { RANSCoder.Table(normalizing: bytes).write(into: &w) }
            w.writeLengthPrefixed(s)
            return w.bytes
        }
        var good = ByteReader(column())
        #expect(throws: Never.self) { _ = try CodedColumn.read(&good, maximumCount: 100, "ok") }

        refused([7, 0], .invalidValue, "unknown mode")
        refused([CodedColumn.raw, 5, 1, 2], .invalidValue, "raw column longer than the input")
        refused([CodedColumn.raw, 3, 1, 2, 3], maximumCount: 2, .lengthTooLarge, "raw column longer than its runs need")
        refused(column(), maximumCount: bytes.count - 1, .lengthTooLarge, "more symbols than the runs need")
        refused(column(count: 0), .invalidValue, "coded but empty")
        refused(column(table: [1, 10, 0x80, 0x20, 20, 0x80, 0x20]), .invalidValue, "frequencies sum to 8192")
        refused(column(table: [1, 10, 0xFF, 0x0F, 20, 1]), .invalidValue, "frequencies sum to 2048")
        refused(column(table: [1, 10, 0x80, 0x20, 20, 0]), .invalidValue, "zero frequency")
        refused(column(table: [1, 20, 0x80, 0x10, 10, 0x80, 0x10]), .invalidValue, "symbols out of order")
        refused(column(table: [0, 10, 0x81, 0x20]), .invalidValue, "frequency above 4096")
        refused(column(stream: Array(stream.dropLast())), .truncated, "stream one byte short")
        refused(column(stream: stream + [0]), .trailingBytes, "a byte after the stream")
        refused(column(stream: [0, 0, 0, 0] + stream.dropFirst(4)), .invalidValue, "initial state below 2^23")
        refused(column(stream: [0xFF, 0xFF, 0xFF, 0xFF] + stream.dropFirst(4)), .invalidValue, "initial state above 2^31")
        refused(column(count: bytes.count - 1), .trailingBytes, or: .invalidValue, "fewer symbols than coded")
        refused(column(count: bytes.count + 1), .truncated, or: .invalidValue, "more symbols than coded")
    }

    /// Every prefix and every single-byte change of coded columns: a typed error or a value, never a trap.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func damagedColumnsNeverTrap(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for bytes in Self.streams(seed: seed).map({ Array($0.prefix(300)) }) {
            var w = ByteWriter()
            CodedColumn.write(bytes, into: &w)
            let column = w.bytes
            var variants: [[UInt8]] = (0..<column.count).map { Array(column[0..<$0]) }
            for _ in 0..<500 {
                var m = column
                m[Int.random(in: 0..<m.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                variants.append(m)
            }
            for v in variants {
                var r = ByteReader(v)
                do {
                    var decoded = try CodedColumn.read(&r, maximumCount: bytes.count, "fuzz")
                    #expect(decoded.remaining <= bytes.count)
                    _ = try? decoded.readBytes(decoded.remaining)
                } catch {
                    #expect(error.offset >= 0 && error.offset <= v.count)
                }
            }
        }
    }
}
