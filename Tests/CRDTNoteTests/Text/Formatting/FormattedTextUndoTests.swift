import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// Undo and redo of `setFormattedText` against a model: the states the note went through,
/// character by character with their attributes. Each whole attributed update is one step:
/// undo gives back the text and the attributes it had (deleted text returns with its marks and
/// paragraph attributes), redo the update again, and the one patch each returns takes a view
/// from the state before to the state after.
@Suite struct FormattedTextUndoTests {
    static func characters(_ note: NoteText) throws -> [String] {
        FormattedTextUpdateTests.characters(try note.formattedSpans())
    }

    /// `note`'s text and attributes, one span per scalar, changed at random: a stretch deleted,
    /// a word typed with random marks, a mark set or removed on a stretch, a paragraph's
    /// attributes changed (on all its characters).
    static func mutated(_ note: NoteText, _ rng: inout SplitMix64) throws -> [FormattedSpan] {
        var spans = try note.formattedSpans().flatMap { span in
            span.text.unicodeScalars.map { FormattedSpan(text: String($0), utf16Range: 0..<0, marks: span.marks, paragraph: span.paragraph) }
        }
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let lo = Int.random(in: 0...spans.count, using: &rng)
            let hi = min(spans.count, lo + Int.random(in: 0...6, using: &rng))
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                spans.removeSubrange(lo..<hi)
            case 1:
                let word = FormattedTextUpdateTests.words.randomElement(using: &rng)!
                let marks = FormattedViewPropertyTests.marks.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
                let unique = TextAttributes(marks: Array(Dictionary(marks.map { ($0.kind, $0) }) { a, _ in a }.values)).marks
                let paragraph = lo > 0 ? spans[lo - 1].paragraph : (spans.first?.paragraph ?? ParagraphAttributes())
                spans.insert(contentsOf: word.unicodeScalars.map { FormattedSpan(text: String($0), utf16Range: 0..<0, marks: unique, paragraph: paragraph) }, at: lo)
            case 2:
                let mark = FormattedViewPropertyTests.marks.randomElement(using: &rng)!
                let remove = Bool.random(using: &rng)
                for k in lo..<hi {
                    var marks = spans[k].marks.filter { $0.kind != mark.kind }
                    if !remove { marks.append(mark) }
                    spans[k].marks = TextAttributes(marks: marks).marks
                }
            default:
                guard lo < spans.count else { continue }
                // The paragraph holding `lo`, from the newline before it to its own.
                var start = lo, end = lo
                while start > 0, spans[start - 1].text != "\n" { start -= 1 }
                while end < spans.count, spans[end].text != "\n" { end += 1 }
                var paragraph = spans[lo].paragraph
                paragraph.apply(FormattedViewPropertyTests.paragraphs.randomElement(using: &rng)!)
                for k in start..<min(spans.count, end + 1) { spans[k].paragraph = paragraph }
            }
        }
        return spans
    }

    @Test(arguments: Array(1...40) as [UInt64])
    func undoAndRedoGiveBackWholeAttributedUpdates(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var note = try NoteText("", replica: .test(1))
        note.undoLimit = 100
        var states = [try Self.characters(note)]
        var at = 0
        var steps = 0
        var view = try FormattedFakeView(note)
        for _ in 0..<50 {
            let action = Int.random(in: 0..<10, using: &rng)
            switch action {
            case 0..<6:
                let stepsBefore = note.undoHistory.undoStack.count
                if action < 4, !note.isEmpty {
                    try note.setFormattedText(Self.mutated(note, &rng))
                } else if action < 5 {
                    try note.setFormattedText(FormattedTextUpdateTests.randomSpans(&rng))
                } else {
                    let lo = Int.random(in: 0...note.utf16Count, using: &rng)
                    let range = FormattingDeltaPropertyTests.avoidingSurrogates(lo..<min(note.utf16Count, lo + 5), in: note)
                    try note.setMark(FormattedViewPropertyTests.marks.randomElement(using: &rng)!, utf16Range: range)
                }
                // A command that changes nothing visible may still record a step (a mark set
                // again): the model follows the steps.
                if note.undoHistory.undoStack.count > stepsBefore {
                    states = Array(states[...at]) + [try Self.characters(note)]
                    at += 1
                    steps += 1
                }
                view = try FormattedFakeView(note)
            case 6..<8:
                let patch = try note.undo()
                guard at > 0 else {
                    #expect(patch == nil, "seed \(seed): undo with nothing to undo")
                    continue
                }
                at -= 1
                try expect(note, shows: states[at], view: &view, patch: patch, "seed \(seed): undo to state \(at)")
            default:
                let patch = try note.redo()
                guard at + 1 < states.count else {
                    #expect(patch == nil, "seed \(seed): redo with nothing to redo")
                    continue
                }
                at += 1
                try expect(note, shows: states[at], view: &view, patch: patch, "seed \(seed): redo to state \(at)")
            }
        }
        #expect(steps > 5)
    }

    func expect(_ note: NoteText, shows state: [String], view: inout FormattedFakeView, patch: TextPatch?, _ what: String) throws {
        let got = try Self.characters(note)
        if got != state {
            let k = (0..<min(got.count, state.count)).first { got[$0] != state[$0] } ?? min(got.count, state.count)
            Issue.record("\(what): character \(k) of \(state.count) (\(got.count) now): \(k < got.count ? got[k] : "-") but \(k < state.count ? state[k] : "-")")
        }
        guard let patch else {
            Issue.record("\(what): no patch")
            return
        }
        view.apply(patch)
        #expect(try view == FormattedFakeView(note), "\(what): the patch does not take the view there")
    }

    @Test func oneUndoStepGivesBackTextAndFormattingOfAnUpdate() throws {
        var note = try NoteText("", replica: .test(1))
        note.undoLimit = 10
        try note.setFormattedText([FormattedSpan(text: "Title\n", utf16Range: 0..<0, marks: [], paragraph: Self.heading),
                                   FormattedSpan(text: "bold", utf16Range: 0..<0, marks: [.bold], paragraph: ParagraphAttributes()),
                                   FormattedSpan(text: " text", utf16Range: 0..<0, marks: [], paragraph: ParagraphAttributes())])
        let first = try note.formattedSpans()
        // The update deletes the bold word and the heading's newline, and italicises the rest.
        try note.setFormattedText([FormattedSpan(text: "Title text", utf16Range: 0..<0, marks: [.italic], paragraph: ParagraphAttributes())])
        let second = try note.formattedSpans()
        #expect(note.string == "Title text")
        #expect(try note.undo() != nil)
        #expect(try note.formattedSpans() == first)
        #expect(try note.redo() != nil)
        #expect(try note.formattedSpans() == second)
        #expect(try note.undo() != nil)
        #expect(try note.formattedSpans() == first)
        #expect(try note.undo() != nil)   // the first update, also one step
        #expect(note.string == "" && !note.canUndo)
    }

    static var heading: ParagraphAttributes {
        var attributes = ParagraphAttributes()
        attributes.heading = 1
        return attributes
    }
}
