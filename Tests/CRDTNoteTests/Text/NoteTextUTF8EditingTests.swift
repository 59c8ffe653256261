import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// The byte-level entry point (`replaceScalars(in:withUTF8:)`, used by trace replay) against
/// the `String` one: the same edits must give the same state, and bad bytes change nothing.
@Suite struct NoteTextUTF8EditingTests {
    /// A note whose clock stands still, so two notes given the same edits stamp them alike.
    private static func note() -> NoteText {
        NoteText(replica: .test(5), clock: HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000)))
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func bytesAndStringsMakeTheSameState(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var viaString = Self.note()
        var viaBytes = Self.note()
        for step in 0..<600 {
            let count = viaString.scalarCount
            let lo = Int.random(in: 0...count, using: &rng)
            let hi = Bool.random(using: &rng) ? lo : min(count, lo + Int.random(in: 0...6, using: &rng))
            // Single keystrokes (ASCII and not), pieces of random text, and pure deletions.
            let text: String
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: text = String(UnicodeScalar(UInt8.random(in: 0x20...0x7E, using: &rng)))
            case 1: text = ["é", "€", "😀", "\n"].randomElement(using: &rng) ?? "é"
            case 2: text = RandomText.make(&rng)
            default: text = ""
            }
            try viaString.replaceScalars(in: lo..<hi, with: text)
            let bytes = Array(text.utf8)
            try bytes.withUnsafeBufferPointer { utf8 throws(NoteTextError) in
                try viaBytes.replaceScalars(in: lo..<hi, withUTF8: utf8)
            }
            if step % 50 == 0 { #expect(viaBytes.invariantViolations == []) }
        }
        #expect(viaBytes.string == viaString.string)
        #expect(viaBytes.clock.latest == viaString.clock.latest)
        #expect(viaBytes.encodedSnapshot() == viaString.encodedSnapshot())
        #expect(viaBytes.invariantViolations == [])
    }

    @Test(arguments: [
        [0xFF], [0x80], [0x61, 0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80],
    ] as [[UInt8]])
    func invalidBytesAreRefusedAndChangeNothing(bytes: [UInt8]) throws {
        var note = Self.note()
        try note.insert("abc", atScalarOffset: 0)
        let before = note.encodedSnapshot()
        let clock = note.clock.latest
        var thrown: NoteTextError?
        do {
            try bytes.withUnsafeBufferPointer { utf8 throws(NoteTextError) in
                try note.replaceScalars(in: 1..<2, withUTF8: utf8)
            }
        } catch {
            thrown = error
        }
        #expect(thrown?.code == .invalidUTF8)
        #expect(note.encodedSnapshot() == before)
        #expect(note.clock.latest == clock)
        #expect(note.string == "abc")
    }
}
