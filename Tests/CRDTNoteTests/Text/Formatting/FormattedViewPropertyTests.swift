import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// A text view that shows formatting, updated only by what the session hands it: UTF-16 units,
/// each with the attributes the view shows on it (as `NSTextStorage` holds them).
struct FormattedFakeView: Equatable {
    var units: [UInt16] = []
    var attributes: [TextAttributes] = []

    /// The view of `note` as `formattedSpans()` cuts it (the oracle the patches must reach).
    init(_ note: NoteText) throws {
        for span in try note.formattedSpans() {
            units += span.text.utf16
            attributes += repeatElement(TextAttributes(marks: span.marks, paragraph: span.paragraph), count: span.text.utf16.count)
        }
    }

    /// The user typed `text` over `range`: the view gives it `typing` (its typing attributes).
    mutating func type(_ text: String, over range: Range<Int>, typing: TextAttributes) {
        units.replaceSubrange(range, with: Array(text.utf16))
        attributes.replaceSubrange(range, with: repeatElement(typing, count: text.utf16.count))
    }

    /// Attribute changes alone (after the view's own edit, or a formatting command).
    mutating func apply(_ changes: [TextAttributeChange]) {
        for change in changes {
            attributes.replaceSubrange(change.utf16Range, with: repeatElement(change.attributes, count: change.utf16Range.count))
        }
    }

    /// A patch from a merge, an undo or a redo: replacements (new text without attributes), then
    /// the attribute changes.
    mutating func apply(_ patch: TextPatch) {
        for r in patch.replacements {
            units.replaceSubrange(r.utf16Range, with: Array(r.text.utf16))
            attributes.replaceSubrange(r.utf16Range, with: repeatElement(TextAttributes(), count: r.text.utf16.count))
        }
        apply(patch.attributeChanges)
    }
}

/// Seeded property test: a session edits, formats, merges other devices' formatted work, undoes
/// and redoes; a view updated only by the patches and changes the session returns always shows
/// exactly `formattedSpans()`, and typed text always gets the typing attributes it was promised.
@Suite struct FormattedViewPropertyTests {
    static let marks: [TextMark] = [.bold, .italic, .underline, .strikethrough, .code, .link("https://a.example"),
                                     .link("https://b.example"), .highlight("yellow")]
    static let paragraphs: [ParagraphAttribute] = [.heading(0), .heading(2), .list(.bullet), .list(.check), .list(.none),
                                                   .checked(true), .quote(true), .quote(false), .codeBlock(true)]
    static let pieces = ["a", "bc", " ", "\n", "word ", "é", "👋", "x\ny"]

    @Test(arguments: Array(1...30) as [UInt64])
    func viewFollowsPatchesOnly(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let base = try NoteText("Hello bold world\nsecond line", replica: .test(99))
        var session = NoteEditorSession(note: base.forked(as: .test(1)))
        var others = (2...3).map { base.forked(as: .test(UInt64($0))) }
        var view = try FormattedFakeView(session.note)
        for step in 0..<Int.random(in: 60...140, using: &rng) {
            let context = "seed \(seed) step \(step)"
            let count = session.note.utf16Count
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<30:  // the user types or deletes over a selection
                let range = Self.range(in: session.note, &rng)
                try session.userSelected(utf16Range: range)
                let text = Bool.random(using: &rng) && !range.isEmpty ? "" : Self.pieces.randomElement(using: &rng)!
                let typing = try session.typingAttributes()
                let changes = try session.userReplaced(utf16Range: range, with: text)
                view.type(text, over: range, typing: typing)
                view.apply(changes)
                // What was typed carries what the typing attributes promised.
                let typed = try FormattedFakeView(session.note).attributes[range.lowerBound..<range.lowerBound + text.utf16.count]
                #expect(typed.allSatisfy { $0 == typing }, "\(context): typed \(text.debugDescription) over \(range)")
            case 30..<45:  // a toolbar mark on the selection (or at the caret, for what is typed next)
                try session.userSelected(utf16Range: Self.range(in: session.note, &rng))
                view.apply(try session.toggleMark(Self.marks.randomElement(using: &rng)!).patch)
            case 45..<52:
                try session.userSelected(utf16Range: Self.range(in: session.note, &rng))
                view.apply(try session.setParagraphAttribute(Self.paragraphs.randomElement(using: &rng)!).patch)
            case 52..<70:  // another device edits and formats
                let i = Int.random(in: 0..<others.count, using: &rng)
                try Self.remoteWork(&others[i], &rng)
            case 70..<82:  // its work arrives (sometimes as changes: text only)
                let other = others.randomElement(using: &rng)!
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    view.apply(try session.receive(other.changes(since: session.note.version)).patch)
                } else {
                    view.apply(try session.receive(other).patch)
                }
            case 82..<86:
                let i = Int.random(in: 0..<others.count, using: &rng)
                try others[i].merge(session.note)
            case 86..<94:
                if let update = try session.undo() { view.apply(update.patch) }
            default:
                if let update = try session.redo() { view.apply(update.patch) }
            }
            let expected = try FormattedFakeView(session.note)
            #expect(view.units == expected.units, "\(context): text (was \(count) units)")
            #expect(view.attributes == expected.attributes, "\(context): attributes")
            if view != expected { return }
        }
    }

    /// Formatting commands are undone and redone like edits.
    @Test func undoRedoFormatting() throws {
        var session = NoteEditorSession(note: try NoteText("one two\nthree", replica: .test(1)))
        var view = try FormattedFakeView(session.note)
        try session.userSelected(utf16Range: 0..<7)
        view.apply(try session.toggleMark(.bold).patch)
        view.apply(try session.setParagraphAttribute(.heading(1)).patch)
        #expect(try session.note.formattedSpans().map(\.text) == ["one two", "\n", "three"])
        view.apply(try #require(try session.undo()).patch)   // the heading
        #expect(try session.note.formattedSpans().first?.paragraph.heading == 0)
        view.apply(try #require(try session.undo()).patch)   // the bold
        #expect(try session.note.formattedSpans().count == 1)
        #expect(view == (try FormattedFakeView(session.note)))
        view.apply(try #require(try session.redo()).patch)
        #expect(try session.note.formattedSpans().first?.marks == [.bold])
        #expect(try session.note.formattedSpans().first?.text == "one two")
        view.apply(try #require(try session.redo()).patch)
        #expect(try session.note.formattedSpans().first?.paragraph.heading == 1)
        #expect(view == (try FormattedFakeView(session.note)))
        // Toggling on a fully bold selection unbolds it.
        try session.userSelected(utf16Range: 0..<3)
        view.apply(try session.toggleMark(.bold).patch)
        #expect(try session.note.formattedSpans().first?.marks == [])
        #expect(view == (try FormattedFakeView(session.note)))
    }

    /// Marks toggled at the caret and the text typed with them are one undo step: undo removes
    /// the text, redo brings it back with its marks, and the view follows.
    @Test func typingWithToggledMarksIsOneUndoStep() throws {
        var note = try NoteText("plain ", replica: .test(1))
        note.undoLimit = 20
        var session = NoteEditorSession(note: note)
        var view = try FormattedFakeView(session.note)
        try session.userSelected(utf16Range: 6..<6)
        session.endUndoGroup()
        _ = try session.toggleMark(.bold)
        _ = try session.toggleMark(.italic)
        for (i, character) in ["a", "b", "c"].enumerated() {
            let typing = try session.typingAttributes()
            let changes = try session.userReplaced(utf16Range: 6 + i..<6 + i, with: character)
            view.type(character, over: 6 + i..<6 + i, typing: typing)
            view.apply(changes)
        }
        let typed = try session.note.formattedSpans()
        #expect(typed.map(\.text) == ["plain ", "abc"] && typed.last?.marks == [.bold, .italic], "\(typed)")
        view.apply(try #require(try session.undo()).patch)
        #expect(session.note.string == "plain ")
        #expect(!session.canUndo, "typing and its marks were one step")
        view.apply(try #require(try session.redo()).patch)
        let redone = try session.note.formattedSpans()
        #expect(redone.map(\.text) == ["plain ", "abc"] && redone.last?.marks == [.bold, .italic], "\(redone)")
        #expect(view == (try FormattedFakeView(session.note)))
    }

    /// Typing attributes at the caret follow the expansion rules.
    @Test func typingAttributesFollowTheExpansionRules() throws {
        var session = NoteEditorSession(note: try NoteText("bold link plain", replica: .test(1)))
        try session.userSelected(utf16Range: 0..<4)
        _ = try session.toggleMark(.bold)
        try session.userSelected(utf16Range: 5..<9)
        _ = try session.toggleMark(.link("https://x.example"))
        try session.userSelected(utf16Range: 4..<4)
        #expect(try session.typingAttributes().marks == [.bold], "just after bold: bold")
        try session.userSelected(utf16Range: 0..<0)
        #expect(try session.typingAttributes().marks == [], "at the start of bold: not bold")
        try session.userSelected(utf16Range: 9..<9)
        #expect(try session.typingAttributes().marks == [], "just after a link: not a link")
        try session.userSelected(utf16Range: 7..<7)
        #expect(try session.typingAttributes().marks == [.link("https://x.example")], "inside a link: the link")
        // A mark toggled at the caret applies to what is typed next, once.
        try session.userSelected(utf16Range: 15..<15)
        _ = try session.toggleMark(.italic)
        #expect(try session.typingAttributes().marks == [.italic])
        try session.userReplaced(utf16Range: 15..<15, with: "!")
        #expect(try session.note.formattedSpans().last == FormattedSpan(text: "!", utf16Range: 15..<16, marks: [.italic],
                                                                          paragraph: ParagraphAttributes()))
        // A newline typed in a heading keeps the heading on both halves.
        _ = try session.setParagraphAttribute(.heading(2))
        try session.userSelected(utf16Range: 4..<4)
        try session.userReplaced(utf16Range: 4..<4, with: "\n")
        #expect(try session.note.formattedSpans().allSatisfy { $0.paragraph.heading == 2 })
    }

    /// A random selection of `note` on UTF-16 offsets that do not split a surrogate pair.
    static func range(in note: NoteText, _ rng: inout SplitMix64) -> Range<Int> {
        let bounds = [0] + note.string.unicodeScalars.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.utf16.count) }
        let a = bounds.randomElement(using: &rng)!
        let b = Int.random(in: 0..<3, using: &rng) == 0 ? a : bounds.randomElement(using: &rng)!
        return min(a, b)..<max(a, b)
    }

    /// Another device's random edit, mark or paragraph attribute.
    static func remoteWork(_ note: inout NoteText, _ rng: inout SplitMix64) throws {
        let range = Self.range(in: note, &rng)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: try note.replaceUTF16(in: range, with: pieces.randomElement(using: &rng)!)
        case 1: try note.setMark(marks.randomElement(using: &rng)!, utf16Range: range)
        case 2: try note.removeMark(TextMarkKind.allCases.randomElement(using: &rng)!, utf16Range: range)
        default: try note.setParagraphAttribute(paragraphs.randomElement(using: &rng)!, utf16Range: range)
        }
    }
}
