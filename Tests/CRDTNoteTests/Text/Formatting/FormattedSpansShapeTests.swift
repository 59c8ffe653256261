import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// `formattedSpans()` on random formatted notes with multi-byte and astral text: the spans'
/// texts make up the note's text, their UTF-16 ranges tile it, neighbours differ in marks or
/// paragraph, and every character's marks equal the per-character resolution (`FormattingOracle`
/// through `FormattingDevice`, written apart from the span builder).
@Suite struct FormattedSpansShapeTests {
    @Test(arguments: Array(1...20) as [UInt64])
    func spansTileTheTextAndCarryEachCharactersMarks(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var note = NoteText(replica: .test(seed))
        let marks: [TextMark] = [.bold, .italic, .code, .link("https://x.example"), .highlight("red")]
        for _ in 0..<40 {
            let n = note.utf16Count
            switch Int.random(in: 0..<4, using: &rng) {
            case 0, 1:
                let at = try note.utf16Offset(forScalar: Int.random(in: 0...note.scalarCount, using: &rng))
                try note.insert(RandomText.make(&rng, maxPieces: 5), atUTF16Offset: at)
            case 2 where n > 0:
                let a = Int.random(in: 0...note.scalarCount, using: &rng), b = Int.random(in: a...note.scalarCount, using: &rng)
                let range = try note.utf16Offset(forScalar: a)..<note.utf16Offset(forScalar: b)
                let mark = marks[Int.random(in: 0..<marks.count, using: &rng)]
                if Bool.random(using: &rng) { try note.setMark(mark, utf16Range: range) } else { try note.removeMark(mark.kind, utf16Range: range) }
            default:
                let at = try note.utf16Offset(forScalar: Int.random(in: 0...note.scalarCount, using: &rng))
                try note.setParagraphAttribute(.heading(Int.random(in: 0...2, using: &rng)), utf16Range: at..<at)
            }
        }
        let spans = try note.formattedSpans()
        #expect(spans.map(\.text).joined() == note.string, "seed \(seed)")
        var utf16 = 0
        for (k, span) in spans.enumerated() {
            #expect(span.utf16Range == utf16..<utf16 + span.text.utf16.count, "seed \(seed), span \(k)")
            utf16 = span.utf16Range.upperBound
            if k > 0 { #expect(spans[k - 1].marks != span.marks || spans[k - 1].paragraph != span.paragraph, "seed \(seed), span \(k)") }
        }
        #expect(utf16 == note.utf16Count)
        // Per character, against the reference model (each operation saw what its core version says).
        let versions = Dictionary(uniqueKeysWithValues: note.formatting.marks.map { ($0, VersionVector($0.coreVersion.mapValues(UInt64.init))) })
        let expected = try FormattingOracle(note, versions: versions).characters(note.formatting)
        let perCharacter = spans.flatMap { span in
            Array(repeating: (Dictionary(uniqueKeysWithValues: span.marks.map { ($0.kind.rawValue, $0.value) }), span.paragraph),
                  count: span.text.unicodeScalars.count)
        }
        #expect(perCharacter.count == expected.count, "seed \(seed)")
        for (k, (got, want)) in zip(perCharacter, expected).enumerated() where got.0 != want.marks || got.1 != want.paragraph {
            Issue.record("seed \(seed), character \(k): \(got) but the oracle says \(want)")
            break
        }
    }
}
