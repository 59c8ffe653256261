import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// The formatting payload (Docs/FORMAT.md §10.7): random formatting round-trips, encodes the
/// same whatever order its operations arrived in, and damaged bytes give typed errors, never a trap.
@Suite struct FormattingEncodingTests {
    /// Random formatting made by 2–4 devices (the convergence test's actions), all merged.
    static func randomFormatting(seed: UInt64) throws -> (NoteFormatting, [FormattingDevice]) {
        var rng = SplitMix64(seed: seed)
        let base = try NoteText("Hello\nworld", replica: .test(99))
        var devices = (0..<Int.random(in: 2...4, using: &rng)).map { k in
            FormattingDevice(base.forked(as: ReplicaID(rawValue: UInt64(k + 1) &* 0x9E37_79B9_7F4A_7C15)))
        }
        let actions = FormattingConvergencePropertyTests()
        for _ in 0..<60 { try actions.step(&devices, Int.random(in: 0..<devices.count, using: &rng), &rng) }
        var all = NoteFormatting()
        for device in devices { all.merge(device.formatting) }
        return (all, devices)
    }

    @Test(arguments: Array(1...20) as [UInt64])
    func randomFormattingRoundTripsCanonically(seed: UInt64) throws {
        let (formatting, devices) = try Self.randomFormatting(seed: seed)
        let bytes = formatting.encoded()
        #expect(try NoteFormatting(encoded: bytes) == formatting)
        var reversed = NoteFormatting()
        for device in devices.reversed() { reversed.merge(device.formatting) }
        #expect(reversed.encoded() == bytes)
    }

    @Test func anEmptyFormattingIsTwentyTwoBytes() throws {
        let bytes = NoteFormatting().encoded()
        #expect(bytes.count == 18 + 4)
        #expect(Array(bytes[18...]) == [0, 0, 0, 0])
        #expect(try NoteFormatting(encoded: bytes).isEmpty)
    }

    /// Random byte changes behind a valid checksum reach the body decoder: every outcome is a
    /// decoded formatting or a `.corrupt` error with an offset inside the payload.
    @Test(arguments: Array(1...8) as [UInt64])
    func damagedBodiesGiveTypedErrors(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let good = try Self.randomFormatting(seed: seed).0.encoded()
        var refused = 0
        for _ in 0..<400 {
            var bytes = good
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    bytes[Int.random(in: 18..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            case 1:
                bytes.removeLast(Int.random(in: 1...min(8, bytes.count - 18), using: &rng))
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 18...bytes.count, using: &rng))
            }
            Self.reseal(&bytes)
            do {
                _ = try NoteFormatting(encoded: bytes)
            } catch {
                refused += 1
                #expect(error.code == .corrupt)
                if let offset = error.decodingError?.offset { #expect(offset >= 0 && offset <= bytes.count) }
            }
        }
        #expect(refused > 0)
    }

    /// Rewrites the header's body length and checksum after a change to the body.
    static func reseal(_ bytes: inout [UInt8]) {
        let length = UInt32(bytes.count - 18), crc = CRC32C.checksum(bytes[18...])
        for i in 0..<4 {
            bytes[10 + i] = UInt8(truncatingIfNeeded: length >> (8 * i))
            bytes[14 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i))
        }
    }
}
