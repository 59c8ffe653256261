/// The platform-independent half of a live text view bound to a note: the `UITextView` or
/// `NSTextView` delegate forwards the user's edits and selection changes here, hands incoming
/// copies or changes to ``receive(_:)-(NoteText)``, wires undo and redo here instead of the view's
/// own undo manager, and applies the ``EditorUpdate``s it gets back. Docs/TEXT-VIEWS.md shows
/// the whole shell.
///
/// The session holds the note, and the selection as ``TextSelection`` anchors, so a merge or an
/// undo moves the caret with its text instead of leaving it at a stale offset. It keeps the
/// note's ``NoteText/undoLimit`` history (the view's own must be off), and ends an undo step when
/// the user moves the selection somewhere else.
///
/// ```swift
/// var session = NoteEditorSession(note: note)
/// try session.userReplaced(utf16Range: 0..<0, with: "Hi")   // the view already shows it
/// let update = try session.receive(copyFromLaptop)          // apply update.patch to the view
/// ```
public struct NoteEditorSession: Sendable {
    /// The note as edited so far (save or sync this).
    public internal(set) var note: NoteText
    /// The selection, held by anchors.
    public private(set) var selection: TextSelection
    /// Marks toggled at a caret, for the next typed text (see ``toggleMark(_:)``): a mark to
    /// set, or nil to leave a kind off. Cleared when the selection moves or text is typed.
    var pendingMarks: [TextMarkKind: TextMark?] = [:]

    /// A session editing `note`, with the caret at the start, keeping `undoLimit` undo steps.
    public init(note: NoteText, undoLimit: Int = 100) {
        self.note = note
        self.note.undoLimit = undoLimit
        self.selection = TextSelection(caret: .start)
    }

    /// The selection's current UTF-16 range (what the view should show selected).
    public var selectedUTF16Range: Range<Int> {
        // The anchors are always made on this session's note, which never forgets a character,
        // so they always resolve; the end of the text is only a formal fallback.
        note.utf16Range(of: selection) ?? note.utf16Count..<note.utf16Count
    }

    /// True when ``undo()`` has something to undo.
    public var canUndo: Bool { note.canUndo }

    /// True when ``redo()`` has something to redo.
    public var canRedo: Bool { note.canRedo }

    /// The user replaced the UTF-16 `range` of the view's text with `text` (typing, deleting,
    /// pasting, dictation: whatever the view reports before changing its text). Records it in the
    /// note and puts the caret after the new text. Throws, changing nothing, when the range does
    /// not fit the note (the view and the note disagree) or the note would grow past its limits.
    ///
    /// The view gives the new text the ``typingAttributes()`` it had before the edit; the
    /// returned changes (none for a note without formatting) are the attributes it must set
    /// afterwards, e.g. on the paragraph that a deleted newline joined to the one before it.
    /// A newline typed inside a paragraph gives the new paragraph the same attributes.
    @discardableResult
    public mutating func userReplaced(utf16Range range: Range<Int>, with text: String) throws(NoteTextError) -> [TextAttributeChange] {
        guard !note.formatting.isEmpty || !pendingMarks.isEmpty else {
            try note.replaceUTF16(in: range, with: text)
            try caret(after: range, text)
            return []
        }
        let changes = try replaceFormatted(utf16Range: range, with: text)
        try caret(after: range, text)
        return changes
    }

    /// Puts the caret after `text`, typed in place of `range`.
    private mutating func caret(after range: Range<Int>, _ text: String) throws(NoteTextError) {
        selection = try note.selection(utf16Range: range.lowerBound + text.utf16.count..<range.lowerBound + text.utf16.count)
        pendingMarks = [:]
    }

    /// The user moved the selection (or the caret) to the UTF-16 `range`. A move elsewhere than
    /// where the session already has it ends the current undo step.
    public mutating func userSelected(utf16Range range: Range<Int>) throws(NoteTextError) {
        if range == selectedUTF16Range { return }
        selection = try note.selection(utf16Range: range)
        pendingMarks = [:]
        note.endUndoGroup()
    }

    /// Merges another copy of the note (from sync) and returns what the view must change: the
    /// patch to apply to its text and the selection to show afterwards.
    public mutating func receive(_ other: NoteText) throws(ChangeSetError) -> EditorUpdate {
        let patch = try note.merge(other)
        return EditorUpdate(patch: patch, selectedUTF16Range: selectedUTF16Range)
    }

    /// Applies changes from another copy; see ``receive(_:)-(NoteText)``.
    public mutating func receive(_ changes: NoteChanges) throws(ChangeSetError) -> EditorUpdate {
        let patch = try note.apply(changes)
        return EditorUpdate(patch: patch, selectedUTF16Range: selectedUTF16Range)
    }

    /// Undoes this device's latest step (see ``NoteText/undo()``); nil when there is nothing to
    /// undo. The selection becomes the text brought back, or a caret where text was removed.
    public mutating func undo() throws(NoteTextError) -> EditorUpdate? {
        guard let patch = try note.undo() else { return nil }
        return try update(after: patch)
    }

    /// Redoes the latest undo (see ``NoteText/redo()``); nil when there is nothing to redo.
    public mutating func redo() throws(NoteTextError) -> EditorUpdate? {
        guard let patch = try note.redo() else { return nil }
        return try update(after: patch)
    }

    /// Ends the current undo step (call it when the user pauses typing; see ``NoteText/endUndoGroup()``).
    public mutating func endUndoGroup() {
        note.endUndoGroup()
    }

    /// Selects what the last replacement of `patch` put in (a caret if it only removed text).
    private mutating func update(after patch: TextPatch) throws(NoteTextError) -> EditorUpdate {
        if let last = patch.replacements.last {
            let lower = last.utf16Range.lowerBound
            selection = try note.selection(utf16Range: lower..<lower + last.text.utf16.count)
        }
        return EditorUpdate(patch: patch, selectedUTF16Range: selectedUTF16Range)
    }
}
