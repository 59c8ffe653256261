import Testing
@testable import CRDTNote
@testable import CRDTNoteToolSupport

/// The backward newline search paragraph lookups use: `UTF8Counting.lastNewline(in:from:to:)`
/// (eight bytes a step) against a byte-by-byte scan, and `TextSequence.lastNewline(beforeScalar:)`
/// against the last "\n" before each caret position of the note's string, on notes with
/// multi-byte characters and tombstones between the runs.
@Suite struct NewlineSearchTests {
    @Test(arguments: Array(1...20) as [UInt64])
    func wordScanFindsTheLastNewlineByte(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Bytes around 0x0A in every bit (0x0B, 0x8A, 0x1A, 0x4A...), and the extremes.
        let alphabet: [UInt8] = [0x0A, 0x0B, 0x09, 0x8A, 0x1A, 0x2A, 0x4A, 0x0E, 0x00, 0x7F, 0x80, 0xFF, 0x61, 0xC3, 0xA9]
        let bytes = (0..<Int.random(in: 1...300, using: &rng)).map { _ in
            Int.random(in: 0..<4, using: &rng) == 0 ? alphabet[0] : alphabet[Int.random(in: 1..<alphabet.count, using: &rng)]
        }
        bytes.withUnsafeBufferPointer { buffer in
            for _ in 0..<200 {
                let lower = Int.random(in: 0...bytes.count, using: &rng)
                let upper = Int.random(in: lower...bytes.count, using: &rng)
                let expected = (lower..<upper).last { bytes[$0] == 0x0A }
                #expect(UTF8Counting.lastNewline(in: buffer, from: lower, to: upper) == expected, "seed \(seed): \(lower)..<\(upper)")
            }
        }
    }

    @Test(arguments: Array(1...10) as [UInt64])
    func paragraphKeyIsTheLastNewlineBeforeTheCaret(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let note = try NoteText.randomPieces(["a", "bc", "é", "😀", "\n", "xyz\nq", "ü😀", "long line of text ", "\n\n"],
                                             edits: 100...500, maximumDeletion: 5, &rng)
        let sequence = note.index
        let scalars = Array(note.string.unicodeScalars)
        for k in 0...scalars.count {
            // The oracle: the newline scalar's element, found through the scalar's position.
            let expected = (0..<k).last { scalars[$0] == "\n" }.map { sequence.ref(at: sequence.position(ofScalar: $0)) }
            #expect(sequence.lastNewline(beforeScalar: k) == expected, "seed \(seed): caret \(k)")
        }
    }
}
