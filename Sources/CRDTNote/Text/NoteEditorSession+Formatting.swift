extension NoteEditorSession {
    /// What text typed now in place of the selection gets: the marks the expansion rules give
    /// it (after bold text: bold; after a link or code: neither; at the start of a bold range:
    /// not bold) with the marks toggled at the caret since (``toggleMark(_:)``), and the
    /// attributes of its paragraph. Set the view's typing attributes from this after every
    /// selection change and update. Throws only for a note loaded from a corrupt snapshot.
    public func typingAttributes() throws(NoteTextError) -> TextAttributes {
        try typingAttributes(replacing: selectedUTF16Range)
    }

    /// The user pressed a mark's toolbar button: on a selection, removes the mark when every
    /// selected character has it already and sets it otherwise (one undo step); at a caret,
    /// toggles it for the text typed next (an empty update; the mark is then part of that
    /// typing's undo step). Returns the attributes the view
    /// must change. Throws as ``NoteText/setMark(_:utf16Range:)``.
    public mutating func toggleMark(_ mark: TextMark) throws(NoteTextError) -> EditorUpdate {
        let range = selectedUTF16Range
        if range.isEmpty {
            let current = try typingAttributes().mark(mark.kind)
            pendingMarks[mark.kind] = .some(current == mark ? nil : mark)
            return EditorUpdate(patch: TextPatch(), selectedUTF16Range: range)
        }
        let before = try note.attributeRuns()
        let previous = note.formatting
        let scalars = try note.scalarRange(forUTF16: range)
        if before.allSatisfy(in: scalars, { $0.mark(mark.kind) == mark }) {
            try note.removeMark(mark.kind, utf16Range: range)
        } else {
            try note.setMark(mark, utf16Range: range)
        }
        return EditorUpdate(patch: try note.formattingPatch(since: previous, attributesBefore: before), selectedUTF16Range: range)
    }

    /// Sets a paragraph attribute on every paragraph the selection touches (the caret's
    /// paragraph for a caret), as one undo step; returns the attributes the view must change.
    /// Throws as ``NoteText/setParagraphAttribute(_:utf16Range:)``.
    public mutating func setParagraphAttribute(_ attribute: ParagraphAttribute) throws(NoteTextError) -> EditorUpdate {
        let range = selectedUTF16Range
        let before = try note.attributeRuns()
        let previous = note.formatting
        try note.setParagraphAttribute(attribute, utf16Range: range)
        return EditorUpdate(patch: try note.formattingPatch(since: previous, attributesBefore: before), selectedUTF16Range: range)
    }

    /// ``userReplaced(utf16Range:with:)`` on a formatted note, or with marks toggled at the
    /// caret: the attribute changes are computed against the view's text, whose new text
    /// carries the typing attributes.
    mutating func replaceFormatted(utf16Range range: Range<Int>, with text: String) throws(NoteTextError) -> [TextAttributeChange] {
        let before = try note.attributeRuns()
        let typed = try typingAttributes(replacing: range)
        let scalars = try note.scalarRange(forUTF16: range)
        // Checked before the edit, so a refused edit changes nothing. (Typed newlines copy their
        // paragraph's attributes in the edit itself, Docs/FORMAT.md §10.5.)
        try note.formatting.checkRoom(adding: pendingMarks.count)
        try note.replaceUTF16(in: range, with: text)
        let insertedUTF16 = range.lowerBound..<range.lowerBound + text.utf16.count
        // Part of the typing's undo step: undoing it removes the text, redoing it brings the
        // text back with these marks (one step, however many marks were toggled).
        for (kind, mark) in pendingMarks.sorted(by: { $0.key.rank < $1.key.rank }) where !insertedUTF16.isEmpty {
            try note.addMark(kind, mark?.value, utf16Range: insertedUTF16, recordingUndo: false)
        }
        let replacement = TextReplacement(utf16Range: range, scalarRange: scalars, text: text)
        return try note.patch(replacing: [replacement], attributesBefore: before, inserted: typed).attributeChanges
    }

    /// What text typed in place of the UTF-16 `range` gets: from the caret's neighbours
    /// (``NoteText/typedAttributes(replacingUTF16:)``), else found by typing a character into
    /// a scratch copy of the note, so it follows the merge rules exactly.
    private func typingAttributes(replacing range: Range<Int>) throws(NoteTextError) -> TextAttributes {
        var attributes = TextAttributes()
        if note.formatting.isEmpty {
            // Nothing to look up.
        } else if let typed = try note.typedAttributes(replacingUTF16: range) {
            attributes = typed
        } else {
            var probe = note
            probe.undoLimit = 0
            let at = try probe.scalarRange(forUTF16: range).lowerBound
            try probe.replaceUTF16(in: range, with: "x")
            attributes = try probe.attributeRuns().attributes(atScalar: at)
        }
        var marks = attributes.marks.filter { pendingMarks[$0.kind] == nil }
        for case let mark? in pendingMarks.values { marks.append(mark) }
        return TextAttributes(marks: marks, paragraph: attributes.paragraph)
    }
}
