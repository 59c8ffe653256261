import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// The public formatting API on NoteText (Docs/API.md, "Format a note").
@Suite struct NoteTextFormattingAPITests {
    /// The example of Docs/API.md, as written there.
    @Test func theAPIPageExampleWorksAsWritten() throws {
        var note = try NoteText("Groceries\nmilk and eggs", replica: .test(1))
        try note.setParagraphAttribute(.heading(1), utf16Range: 0..<9)
        try note.setMark(.bold, utf16Range: 10..<14)                   // "milk"
        try note.setMark(.link("https://example.com"), utf16Range: 19..<23)
        try note.removeMark(.bold, utf16Range: 12..<14)                // "lk" plain again
        let spans = try note.formattedSpans()
        #expect(spans.map(\.text) == ["Groceries\n", "mi", "lk and ", "eggs"])
        #expect(spans.map(\.marks) == [[], [.bold], [], [.link("https://example.com")]])
        #expect(spans.map(\.paragraph.heading) == [1, 0, 0, 0])
        #expect(spans.map(\.utf16Range) == [0..<10, 10..<12, 12..<19, 19..<23])
        let here = try note.attributes(atUTF16: 10)                      // bold, in a body paragraph
        #expect(here == TextAttributes(marks: [.bold]))
    }

    @Test func rangesAreUTF16AndASurrogatePairCannotBeSplit() throws {
        var note = try NoteText("a😀b", replica: .test(1))
        try note.setMark(.italic, utf16Range: 1..<3)
        #expect(try note.formattedSpans().map(\.text) == ["a", "😀", "b"])
        #expect(try note.formattedSpans()[1].utf16Range == 1..<3)
        #expect(throws: NoteTextError.self) { try note.setMark(.bold, utf16Range: 2..<4) }
        #expect(throws: NoteTextError.self) { try note.setMark(.bold, utf16Range: 0..<5) }
        #expect(throws: NoteTextError.self) { try note.setParagraphAttribute(.heading(7), utf16Range: 0..<1) }
        try note.setMark(.bold, utf16Range: 1..<1)   // empty: nothing
        #expect(note.formatting.marks.count == 1)
    }

    @Test func mergingCopiesMergesTheirFormattingInEitherOrder() throws {
        let base = try NoteText("one two", replica: .test(9))
        var a = base.forked(as: .test(1)), b = base.forked(as: .test(2))
        try a.setMark(.bold, utf16Range: 0..<3)
        try b.setMark(.highlight("yellow"), utf16Range: 4..<7)
        try b.insert("!", atUTF16Offset: 7)
        let ab = try a.merging(b), ba = try b.merging(a)
        #expect(try ab.formattedSpans() == ba.formattedSpans())
        // Highlight grows at its end: the "!" typed there joins it.
        #expect(try ab.formattedSpans().map(\.text) == ["one", " ", "two!"])
        #expect(try ab.formattedSpans().map(\.marks) == [[.bold], [], [.highlight("yellow")]])
        // Formatting made after a merge wins over what was merged (the clock moved past it).
        var c = ab
        try c.removeMark(.bold, utf16Range: 0..<3)
        #expect(try c.merging(ab).formattedSpans().map(\.marks).first == [])
    }

    @Test func aPlainNoteHasOneSpanAndAnEmptyOneNone() throws {
        #expect(try NoteText("plain", replica: .test(1)).formattedSpans()
            == [FormattedSpan(text: "plain", utf16Range: 0..<5, marks: [], paragraph: ParagraphAttributes())])
        #expect(try NoteText(replica: .test(1)).formattedSpans().isEmpty)
    }
}
