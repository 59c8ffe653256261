import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Formatting apart from its text: operations that arrive ahead of the characters they name,
/// and text that comes back by undo (Docs/FORMAT.md §10, §10.4).
@Suite struct FormattingMergeTests {
    @Test func operationsAheadOfTheirTextFormatNothingUntilItArrives() throws {
        var (a, b) = try devicePair("ab")
        try a.note.insert("cd", atScalarOffset: 2)
        try a.mark(.italic, 1..<4)
        try a.setParagraph(.quote(true), 0..<0)
        try a.splitParagraph(at: 3)                       // "abc\nd": the new key names a's newline
        b.formatting.merge(a.formatting)
        #expect(try b.spans() == [MarkSpan("ab")])
        var quote = ParagraphAttributes()
        quote.quote = true
        #expect(try b.paragraphs() == [quote, quote])
        try b.note.merge(a.note)
        #expect(try b.spans() == [MarkSpan("a"), MarkSpan("bc\nd", italic)])
        #expect(try b.paragraphs() == Array(repeating: quote, count: 5))
    }

    /// A copy loaded from a snapshot (its index built lazily) resolves the same formatting,
    /// tombstones and origins included.
    @Test func aCopyLoadedFromASnapshotResolvesTheSame() throws {
        var (a, b) = try devicePair("ab cd ef")
        try a.mark(.bold, 3..<5)
        try b.note.insert("X", atScalarOffset: 5)
        try a.note.deleteScalars(in: 0..<2)
        try a.merge(b)
        var loaded = FormattingDevice(try NoteText(snapshot: a.note.encodedSnapshot(), replica: .test(3)))
        loaded.formatting = a.formatting
        #expect(try loaded.spans() == [MarkSpan(" "), MarkSpan("cdX", bold), MarkSpan(" ef")])
        #expect(try loaded.formatting.attributes(of: loaded.note) == a.formatting.attributes(of: a.note))
    }

    /// Undo brings deleted text back as new characters (NoteText.undo()), which no operation
    /// names: the text returns unformatted, and a restored newline starts a paragraph with no
    /// attributes. Restoring formatting is for the formatting-aware undo of issue 32's editor
    /// session; this pins today's behaviour, which Docs/FORMAT.md §10.4 states.
    @Test func undoingADeletionBringsTheTextBackUnformatted() throws {
        var device = FormattingDevice(try NoteText("one\ntwo", replica: .test(1)))
        device.note.undoLimit = 10
        try device.mark(.bold, 1..<3)
        try device.setParagraph(.list(.check), 4..<4)
        #expect(try device.spans() == [MarkSpan("o"), MarkSpan("ne", bold), MarkSpan("\ntwo")])
        try device.note.deleteScalars(in: 1..<5)
        #expect(try device.spans() == [MarkSpan("owo")])
        try device.note.undo()
        #expect(device.note.string == "one\ntwo")
        #expect(try device.spans() == [MarkSpan("one\ntwo")])
        #expect(try device.paragraphs() == Array(repeating: ParagraphAttributes(), count: 7))
    }
}
