import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// The `AttributedString` bridge: random formatted notes round-trip through it exactly, on
/// every platform, and its attributes are the ones the note shows.
@Suite struct AttributedStringBridgeTests {
    @Test(arguments: Array(1...40) as [UInt64])
    func randomFormattedNotesRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var note = try NoteText("", replica: .test(1))
        try note.setFormattedText(FormattedTextUpdateTests.randomSpans(&rng))
        for _ in 0..<Int.random(in: 0...6, using: &rng) { try FormattedViewPropertyTests.remoteWork(&note, &rng) }
        let attributed = try AttributedString(note)
        #expect(String(attributed.characters) == note.string)
        var copy = try NoteText("", replica: .test(2))
        try copy.setAttributedText(attributed)
        #expect(FormattedTextUpdateTests.characters(try copy.formattedSpans()) == FormattedTextUpdateTests.characters(try note.formattedSpans()),
                "seed \(seed)")
        // The note already shows it: nothing is recorded.
        let operations = note.formatting.operationCount, version = note.version
        try note.setAttributedText(attributed)
        #expect(note.formatting.operationCount == operations && note.version == version)
    }

    @Test func attributesAreTheNotesOwn() throws {
        var note = try NoteText("Title\nsee the docs", replica: .test(1))
        try note.setParagraphAttribute(.heading(1), utf16Range: 0..<0)
        try note.setMark(.bold, utf16Range: 6..<9)
        try note.setMark(.link("https://docs.example/a b"), utf16Range: 14..<18)   // not a valid URL: kept as a string
        let text = try AttributedString(note)
        let runs = text.runs.map { (String(text[$0.range].characters), $0.crdtnote.heading, $0.crdtnote.bold, $0.crdtnote.linkURLString) }
        #expect(runs.map(\.0) == ["Title\n", "see", " the ", "docs"])
        #expect(runs.map(\.1) == [1, nil, nil, nil])
        #expect(runs.map(\.2) == [nil, true, nil, nil])
        #expect(runs.map(\.3) == [nil, nil, nil, "https://docs.example/a b"])
        // Foundation's link is read where crdtnote's is absent.
        var plain = AttributedString("go")
        plain.link = URL(string: "https://x.example")
        var other = try NoteText("", replica: .test(2))
        try other.setAttributedText(plain)
        #expect(try other.formattedSpans().map(\.marks) == [[.link("https://x.example")]])
    }
}
