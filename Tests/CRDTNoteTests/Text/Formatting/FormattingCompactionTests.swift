import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Compaction keeps what formatting names (Docs/FORMAT.md §10.6): a mark whose end characters
/// were deleted and then compacted formats what it formatted before, also once text typed at
/// its end on a device that never compacted is merged in. The oracle: the same copies, never
/// compacted.
@Suite("Formatting and compaction")
struct FormattingCompactionTests {
    @Test func aMarkWhoseEndCharactersWereDeletedAndCompactedKeepsItsMeaning() throws {
        var a = try NoteText("hello", replica: .test(1))
        try a.insert(" world\n", atScalarOffset: 5)
        try a.insert("second\n", atScalarOffset: 12)
        var b = a.forked(as: .test(2))
        try a.setMark(.bold, utf16Range: 0..<5)                       // "hello"
        try a.setParagraphAttribute(.heading(2), utf16Range: 12..<13) // "second"
        try a.deleteScalars(in: 3..<5)                                 // "lo": the mark's last characters
        var compacted = a
        try compacted.compact(settled: nil)
        let kept = compacted.index.runsInOrder().filter(\.isDeleted)
        #expect(!kept.isEmpty, "the mark's last character and end stay")
        #expect(try compacted.formattedSpans() == a.formattedSpans())
        // B, which never saw the mark or the deletion, types at the mark's end and in the heading.
        try b.insert("!", atScalarOffset: 5)
        try b.insert("2nd ", atScalarOffset: 13)
        var full = a
        try full.merge(b)
        try compacted.merge(b)
        #expect(compacted.string == full.string)
        #expect(try compacted.formattedSpans() == full.formattedSpans())
        #expect(compacted.invariantViolations.isEmpty)
    }

    /// Random text (ASCII, so UTF-16 offsets are scalar offsets), marks, paragraph attributes
    /// and deletions on two devices, compacted at random: each device's spans always equal those
    /// of its never-compacted shadow (same edits, same formatting operations, same merges).
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func compactedCopiesFormatLikeFullOnes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x51_7CC1_B727_220A)
        var notes = [NoteText(replica: .test(1)), NoteText(replica: .test(2))]
        var shadows = notes
        var compactions = 0
        for step in 0..<160 {
            let i = rng.below(2)
            let count = notes[i].scalarCount
            let before = notes[i]
            switch rng.below(10) {
            case 0..<4:
                let text = rng.below(4) == 0 ? "\n" : String((0..<(1 + rng.below(5))).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.below(26)))) })
                try notes[i].insert(text, atScalarOffset: rng.below(count + 1))
            case 4..<6 where count > 0:
                let lo = rng.below(count)
                try notes[i].deleteScalars(in: lo..<min(count, lo + 1 + rng.below(4)))
            case 6 where count > 1:
                let lo = rng.below(count - 1)
                try notes[i].setMark([TextMark.bold, .italic, .link("https://example.com")][rng.below(3)],
                                     utf16Range: lo..<min(count, lo + 1 + rng.below(6)))
            case 7:
                let at = rng.below(count + 1)
                try notes[i].setParagraphAttribute(.heading(1 + rng.below(3)), utf16Range: at..<at)
            case 8:
                try notes[i].merge(notes[1 - i])
                try shadows[i].merge(shadows[1 - i])
                continue
            default:
                try notes[i].compact(settled: nil)
                compactions += 1
            }
            try shadows[i].apply(try notes[i].changes(after: before))
            shadows[i].formatting.merge(notes[i].formatting)
            #expect(notes[i].string == shadows[i].string, "seed \(seed) step \(step)")
            let (mine, theirs) = (try notes[i].formattedSpans(), try shadows[i].formattedSpans())
            #expect(mine == theirs, "seed \(seed) step \(step): \(mine.map { "\($0.text.debugDescription) \($0.marks) \($0.paragraph)" }) vs \(theirs.map { "\($0.text.debugDescription) \($0.marks) \($0.paragraph)" })")
        }
        for i in 0..<2 {
            try notes[i].merge(notes[1 - i])
            try shadows[i].merge(shadows[1 - i])
        }
        #expect(try notes[0].formattedSpans() == shadows[0].formattedSpans())
        #expect(try notes[0].formattedSpans() == notes[1].formattedSpans())
        #expect(compactions > 5, "seed \(seed)")
    }
}
