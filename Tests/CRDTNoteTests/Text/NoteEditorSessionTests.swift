import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// The editor session driven the way a text view drives it: a fake view (its text as UTF-16
/// units and a selected range) applies the session's updates, and must always show exactly the
/// note's text with the selection where the user expects it.
@Suite struct NoteEditorSessionTests {
    /// A stand-in for `UITextView`: text as UTF-16 units (as `NSTextStorage` holds it) and a selection.
    struct FakeTextView {
        var units: [UInt16] = []
        var selected = 0..<0
        var text: String { String(decoding: units, as: UTF16.self) }

        init(_ text: String) { units = Array(text.utf16) }

        /// The user types or deletes: the view changes itself and tells the session first.
        mutating func userTypes(_ text: String, replacing range: Range<Int>, in session: inout NoteEditorSession) throws {
            try session.userReplaced(utf16Range: range, with: text)
            units.replaceSubrange(range, with: Array(text.utf16))
            selected = range.lowerBound + text.utf16.count..<range.lowerBound + text.utf16.count
        }

        /// An update from a merge, an undo or a redo.
        mutating func apply(_ update: EditorUpdate) {
            for r in update.patch.replacements { units.replaceSubrange(r.utf16Range, with: Array(r.text.utf16)) }
            selected = update.selectedUTF16Range
        }
    }

    @Test func typingMergingUndoing() throws {
        var session = NoteEditorSession(note: try NoteText("Dear Ann,", replica: .test(1)))
        var laptop = session.note.forked(as: .test(2))
        var view = FakeTextView(session.note.string)
        try session.userSelected(utf16Range: 9..<9)
        view.selected = 9..<9
        for c in [" ", "h", "i", "👋"] { try view.userTypes(c, replacing: view.selected, in: &session) }
        #expect(view.text == "Dear Ann, hi👋")
        #expect(session.selectedUTF16Range == 14..<14)
        // The laptop renames Ann and adds a line at the end, at the caret: the caret stays before it.
        try laptop.replaceScalars(in: 5..<8, with: "Annabel")
        try laptop.insert("\r\nSee you", atScalarOffset: laptop.scalarCount)
        view.apply(try session.receive(laptop))
        #expect(view.text == session.note.string)
        #expect(view.text == "Dear Annabel, hi👋\r\nSee you")
        #expect(view.selected == 18..<18)
        // Undo removes exactly this device's typing; the laptop's edits stay.
        view.apply(try #require(try session.undo()))
        #expect(view.text == "Dear Annabel,\r\nSee you")
        #expect(view.selected == 13..<13)
        view.apply(try #require(try session.redo()))
        #expect(view.text == "Dear Annabel, hi👋\r\nSee you")
        #expect(view.selected == 13..<18)
        #expect(try session.redo() == nil)
        // Changes instead of whole copies.
        try laptop.merge(session.note)
        try laptop.deleteScalars(in: 0..<5)
        view.apply(try session.receive(laptop.changes(since: session.note.version)))
        #expect(view.text == "Annabel, hi👋\r\nSee you")
        #expect(view.selected == 8..<13)
    }

    @Test func selectionMovesEndTheUndoStep() throws {
        var session = NoteEditorSession(note: NoteText(replica: .test(1)))
        var view = FakeTextView("")
        for c in ["a", "b"] { try view.userTypes(c, replacing: view.selected, in: &session) }
        try session.userSelected(utf16Range: 0..<0)
        try session.userSelected(utf16Range: 2..<2)         // back to where typing stopped
        try view.userTypes("c", replacing: view.selected, in: &session)
        view.apply(try #require(try session.undo()))
        #expect(view.text == "ab")
        view.apply(try #require(try session.undo()))
        #expect(view.text == "")
        #expect(!session.canUndo && session.canRedo)
        #expect(throws: NoteTextError.self) { try session.userSelected(utf16Range: 0..<5) }
        #expect(throws: NoteTextError.self) { try session.userReplaced(utf16Range: 1..<2, with: "x") }
    }

    /// Random typing, deleting, selecting, undoing and redoing on one device while another edits
    /// and syncs: the fake view always equals the note, and its selection stays inside the text.
    @Test(arguments: Array(1...8) as [UInt64])
    func theViewAlwaysShowsTheNote(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var session = NoteEditorSession(note: try NoteText("note", replica: .test(1)), undoLimit: 20)
        var other = session.note.forked(as: .test(2))
        var view = FakeTextView("note")
        for step in 0..<200 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<3:
                try view.userTypes(RandomText.make(&rng, maxPieces: 2), replacing: view.selected, in: &session)
            case 3:
                if view.selected.isEmpty && view.selected.lowerBound > 0 {
                    // Backspace over one scalar (two units for a surrogate pair).
                    let end = view.selected.lowerBound
                    let start = UTF16.isTrailSurrogate(view.units[end - 1]) ? end - 2 : end - 1
                    try view.userTypes("", replacing: start..<end, in: &session)
                } else {
                    try view.userTypes("", replacing: view.selected, in: &session)
                }
            case 4:
                let scalars = session.note.scalarCount
                let a = Int.random(in: 0...scalars, using: &rng), b = Int.random(in: 0...scalars, using: &rng)
                let range = try session.note.utf16Offset(forScalar: min(a, b))..<session.note.utf16Offset(forScalar: max(a, b))
                try session.userSelected(utf16Range: range)
                view.selected = range
            case 5:
                if let update = try session.undo() { view.apply(update) }
            case 6:
                if let update = try session.redo() { view.apply(update) }
            case 7:
                let n = other.scalarCount
                let at = Int.random(in: 0...n, using: &rng)
                if n > 0 && Bool.random(using: &rng) {
                    try other.deleteScalars(in: min(at, n - 1)..<min(n, at + 2))
                } else {
                    try other.insert(RandomText.make(&rng), atScalarOffset: at)
                }
            case 8:
                view.apply(try session.receive(other))
            default:
                try other.merge(session.note)
            }
            #expect(view.units == Array(session.note.string.utf16), "seed \(seed) step \(step)")
            #expect(view.selected == session.selectedUTF16Range, "seed \(seed) step \(step)")
            #expect(view.selected.upperBound <= view.units.count)
            if view.units != Array(session.note.string.utf16) { return }
        }
    }
}
