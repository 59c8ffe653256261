import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Undo and redo by example: grouping, chains, the other device's edits around the undone text,
/// convergence after the undo is exchanged, limits.
@Suite struct NoteTextUndoTests {
    /// Undoes (or redoes) and checks the returned patch against the texts before and after.
    @discardableResult
    static func step(_ note: inout NoteText, redo: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws -> TextPatch? {
        let old = note.string
        let patch = redo ? try note.redo() : try note.undo()
        if let patch {
            #expect(TextPatchReplay.check(patch, from: old, to: note.string), "patch \(patch) does not turn \"\(old)\" into \"\(note.string)\"", sourceLocation: sourceLocation)
        } else {
            #expect(note.string == old, sourceLocation: sourceLocation)
        }
        #expect(note.invariantViolations == [], sourceLocation: sourceLocation)
        return patch
    }

    static func type(_ text: String, at offset: Int, into note: inout NoteText) throws {
        var at = offset
        for c in text.unicodeScalars {
            try note.insert(String(c), atScalarOffset: at)
            at += 1
        }
    }

    @Test func noHistoryUnlessAskedFor() throws {
        var note = try NoteText("abc", replica: .test(1))
        try note.insert("d", atScalarOffset: 3)
        #expect(!note.canUndo)
        #expect(try note.undo() == nil)
        #expect(note.string == "abcd")
        #expect(note.undoHistory.undoStack.isEmpty)
    }

    @Test func typingIsOneStepUntilTheGroupEnds() throws {
        var note = try NoteText("Hello", replica: .test(1))
        note.undoLimit = 10
        try Self.type(", world", at: 5, into: &note)
        note.endUndoGroup()
        try Self.type("!", at: 12, into: &note)
        #expect(note.string == "Hello, world!")
        try Self.step(&note)
        #expect(note.string == "Hello, world")
        let patch = try Self.step(&note)
        #expect(note.string == "Hello")
        #expect(patch?.replacements == [TextReplacement(utf16Range: 5..<12, scalarRange: 5..<12, text: "")])
        #expect(!note.canUndo)
        #expect(try Self.step(&note) == nil)
        try Self.step(&note, redo: true)
        #expect(note.string == "Hello, world")
        try Self.step(&note, redo: true)
        #expect(note.string == "Hello, world!")
        #expect(!note.canRedo)
    }

    @Test func anEditElsewhereStartsANewStep() throws {
        var note = try NoteText("ab", replica: .test(1))
        note.undoLimit = 10
        try Self.type("xy", at: 2, into: &note)
        try Self.type("12", at: 0, into: &note)
        try Self.type("34", at: 2, into: &note)     // continues "12"
        #expect(note.string == "1234abxy")
        try Self.step(&note)
        #expect(note.string == "abxy")
        try Self.step(&note)
        #expect(note.string == "ab")
    }

    @Test func backspaceAndForwardDeleteGroupAndComeBackInPlace() throws {
        var note = try NoteText("one two three", replica: .test(1))
        note.undoLimit = 10
        for k in stride(from: 7, to: 4, by: -1) { try note.deleteScalars(in: k - 1..<k) }   // backspace "two"
        #expect(note.string == "one  three")
        note.endUndoGroup()
        for _ in 0..<3 { try note.deleteScalars(in: 5..<6) }                                // forward delete "thr"
        #expect(note.string == "one  ee")
        try Self.step(&note)
        #expect(note.string == "one  three")
        try Self.step(&note)
        #expect(note.string == "one two three")
        try Self.step(&note, redo: true)
        #expect(note.string == "one  three")
        // The restored text is new characters of this replica.
        #expect(note.visibleIDs.filter { $0.replica == .test(1) }.count == note.scalarCount)
        #expect(note.version[.test(1)] == 13 + 3 + 3)
    }

    @Test func replacementAndSetTextAreSingleSteps() throws {
        var note = try NoteText("the quick fox", replica: .test(1))
        note.undoLimit = 10
        try note.replaceScalars(in: 4..<9, with: "slow")
        try Self.type("ish", at: 8, into: &note)               // typing on after a replacement continues it
        #expect(note.string == "the slowish fox")
        note.endUndoGroup()
        try note.setText("a slowish 🦊 jumps")
        try Self.step(&note)
        #expect(note.string == "the slowish fox")
        try Self.step(&note)
        #expect(note.string == "the quick fox")
        try Self.step(&note, redo: true)
        try Self.step(&note, redo: true)
        #expect(note.string == "a slowish 🦊 jumps")
    }

    @Test func aNewEditClearsRedoAndLimitsBoundTheStacks() throws {
        var note = NoteText(replica: .test(1))
        note.undoLimit = 3
        for i in 0..<6 {
            try note.insert("\(i)", atScalarOffset: note.scalarCount)
            note.endUndoGroup()
        }
        #expect(note.undoHistory.undoStack.count == 3)
        try Self.step(&note)
        #expect(note.canRedo)
        try note.insert("x", atScalarOffset: 0)
        #expect(!note.canRedo)
        #expect(note.string == "x01234")
        while note.canUndo { try Self.step(&note) }
        #expect(note.string == "012")
        note.undoLimit = 1
        #expect(note.undoHistory.redoStack.count == 1)
        note.undoLimit = 0
        #expect(!note.canRedo && !note.canUndo)
    }

    /// The other device deletes part of what this one typed and types inside it; undoing the
    /// typing deletes only this device's characters that remain.
    @Test func undoOfTypingSparesTheOtherDevicesText() throws {
        var phone = try NoteText("Shopping:", replica: .test(1))
        var laptop = phone.forked(as: .test(2))
        phone.undoLimit = 10
        try Self.type(" milk eggs", at: 9, into: &phone)
        try laptop.merge(phone)
        try laptop.deleteScalars(in: 10..<14)                  // "milk"
        try laptop.insert("bread", atScalarOffset: 12)        // inside "eggs"
        try phone.merge(laptop)
        #expect(phone.string == "Shopping:  ebreadggs")
        try Self.step(&phone)
        #expect(phone.string == "Shopping:bread")
        try laptop.merge(phone)
        #expect(laptop.string == phone.string)
        try Self.step(&phone, redo: true)
        try laptop.merge(phone)
        try phone.merge(laptop)
        #expect(phone.string == laptop.string)
        #expect(phone.string == "Shopping:  ebreadggs")
    }

    /// Text this device deleted comes back where it was, between the other device's edits on
    /// both sides, and the other device sees the same after merging.
    @Test func undoOfDeletionRestoresInPlaceAfterRemoteEdits() throws {
        var phone = try NoteText("alpha beta gamma", replica: .test(1))
        var laptop = phone.forked(as: .test(2))
        phone.undoLimit = 10
        try phone.deleteScalars(in: 5..<10)                    // " beta"
        try laptop.insert("<", atScalarOffset: 5)
        try laptop.insert(">", atScalarOffset: 11)
        try laptop.insert("ALPHA ", atScalarOffset: 0)
        try phone.merge(laptop)
        #expect(phone.string == "ALPHA alpha<> gamma")
        try Self.step(&phone)
        #expect(phone.string == "ALPHA alpha< beta> gamma")
        try laptop.merge(phone)
        #expect(laptop.string == phone.string)
        // Concurrent: the phone deletes " beta" again (redo) while the laptop types inside it,
        // then brings it back once more (undo).
        try Self.step(&phone, redo: true)
        #expect(phone.string == "ALPHA alpha<> gamma")
        try laptop.insert("X", atScalarOffset: 14)              // "< bXeta>"
        try Self.step(&phone)
        #expect(phone.string == "ALPHA alpha< beta> gamma")
        try phone.merge(laptop)
        try laptop.merge(phone)
        #expect(phone.string == laptop.string)
        #expect(phone.string == "ALPHA alpha<X beta> gamma")
    }

    /// A step that other devices left nothing to change in is skipped.
    @Test func stepsWithNothingLeftAreSkipped() throws {
        var phone = try NoteText("ab", replica: .test(1))
        var laptop = phone.forked(as: .test(2))
        phone.undoLimit = 10
        try phone.insert("1", atScalarOffset: 2)
        phone.endUndoGroup()
        try phone.insert("2", atScalarOffset: 3)
        try laptop.merge(phone)
        try laptop.deleteScalars(in: 3..<4)                    // the laptop deletes "2"
        try phone.merge(laptop)
        #expect(phone.string == "ab1")
        try Self.step(&phone)                                   // nothing left of "2": undoes "1"
        #expect(phone.string == "ab")
        #expect(!phone.canUndo)
        #expect(phone.canRedo)
    }

    /// Undo and redo are ordinary edits: they arrive through changes, stamped by the clock.
    @Test func undoSyncsAsChanges() throws {
        var phone = try NoteText("x", replica: .test(1))
        var laptop = phone.forked(as: .test(2))
        phone.undoLimit = 5
        try phone.insert("yz", atScalarOffset: 1)
        try phone.deleteScalars(in: 0..<1)
        phone.endUndoGroup()
        let before = phone.lastModified
        try Self.step(&phone)
        #expect(phone.string == "xyz")
        #expect(try #require(phone.lastModified) > #require(before))
        try laptop.apply(phone.changes(since: laptop.version))
        #expect(laptop.string == "xyz")
        try Self.step(&phone)
        #expect(phone.string == "x")
        try laptop.apply(phone.changes(since: laptop.version))   // deletions travel with every change set
        #expect(laptop.string == "x")
        let reloaded = try NoteText(snapshot: phone.encodedSnapshot(), replica: .test(1))
        #expect(reloaded.string == "x")
        #expect(!reloaded.canRedo && reloaded.undoLimit == 0)
    }

    @Test func forkedCopiesStartWithoutHistory() throws {
        var note = try NoteText("a", replica: .test(1))
        note.undoLimit = 5
        try note.insert("b", atScalarOffset: 1)
        let fork = note.forked(as: .test(2))
        #expect(!fork.canUndo)
        #expect(fork.undoLimit == 0)
    }
}
