import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport


@Suite struct ByteReaderFuzzTests {
    /// A valid-looking record to mutate: every field kind, random values.
    func seedRecord(_ rng: inout SplitMix64) -> [UInt8] {
        var w = ByteWriter()
        for _ in 0..<Int.random(in: 1...12, using: &rng) {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: w.writeByte(UInt8.random(in: 0...255, using: &rng))
            case 1: w.writeVarUInt(rng.next() >> UInt64.random(in: 0...63, using: &rng))
            case 2: w.writeVarInt(Int64(bitPattern: rng.next()) >> Int64.random(in: 0...63, using: &rng))
            case 3: w.writeUInt32LE(UInt32.random(in: 0...UInt32.max, using: &rng))
            case 4: w.writeUInt64LE(rng.next())
            default: w.writeLengthPrefixed((0..<Int.random(in: 0...9, using: &rng)).map { UInt8($0) })
            }
        }
        return w.bytes
    }

    func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !b.isEmpty:
                b[Int.random(in: 0..<b.count, using: &rng)] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            case 1 where !b.isEmpty:
                b.removeLast(Int.random(in: 0...b.count, using: &rng))
            case 2:
                b.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...b.count, using: &rng))
            case 3 where !b.isEmpty:
                b[Int.random(in: 0..<b.count, using: &rng)] = [0x00, 0x7F, 0x80, 0xFF].randomElement(using: &rng) ?? 0
            default:
                b += (0..<Int.random(in: 0...6, using: &rng)).map { _ in 0xFF }
            }
        }
        return b
    }

    /// A small decoder program: a random mix of every read, including nested sub-readers.
    /// Returns the first error, checking on the way that successful reads stay inside the input.
    func runProgram(_ r: inout ByteReader, _ rng: inout SplitMix64, depth: Int = 0) -> BinaryDecodingError? {
        do {
            for _ in 0..<40 {
                let before = r.remaining
                switch Int.random(in: 0..<12, using: &rng) {
                case 0: _ = try r.readByte()
                case 1: _ = try r.readBytes(Int.random(in: -1...16, using: &rng))
                case 2: _ = try r.readVarUInt()
                case 3: _ = try r.readVarInt()
                case 4: _ = try r.readVarUInt(max: UInt64.random(in: 0...1000, using: &rng), "field")
                case 5:
                    let n = try r.readCount("items", minimumBytesEach: Int.random(in: 0...8, using: &rng))
                    #expect(n <= before)
                case 6: _ = try r.readUInt32LE()
                case 7: _ = try r.readUInt64LE()
                case 8: _ = try r.readLengthPrefixed("blob")
                case 9 where depth < 2:
                    var sub = try r.subReader(length: Int.random(in: 0...max(0, r.remaining + 2), using: &rng), "section")
                    if let e = runProgram(&sub, &rng, depth: depth + 1) { return e }
                case 10: try r.expectEnd("record")
                default: _ = try r.readBytes(r.remaining)
                }
                #expect(r.remaining <= before && r.remaining >= 0)
            }
            return nil
        } catch {
            return error
        }
    }

    @Test func mutatedAndRandomInputsNeverTrapAndReportOffsetsInsideTheInput() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        var errors = 0
        for iteration in 0..<4000 {
            let input: [UInt8] = iteration % 4 == 0
                ? (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                : mutate(seedRecord(&rng), &rng)
            let base = Int.random(in: 0...3, using: &rng) == 0 ? 1000 : 0
            var r = ByteReader(input, baseOffset: base)
            if let e = runProgram(&r, &rng) {
                errors += 1
                #expect(e.offset >= base && e.offset <= base + input.count, "\(e) for \(input)")
                #expect(!e.message.isEmpty)
            }
        }
        #expect(errors > 1000, "the fuzzer should hit many malformed inputs")
    }
}
