extension NoteText {
    /// Sets `mark` on the characters of the half-open UTF-16 range (what `NSRange` uses); text
    /// later typed at the end of a bold, italic, underline, strikethrough or highlight range
    /// joins it, text typed at its start or at either end of a link or code does not, also on
    /// other devices (Docs/FORMAT.md §10). An empty range changes nothing. Merging copies
    /// merges their formatting; the latest setting of a kind wins per character.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` for a range outside the text or inside a
    /// surrogate pair, ``NoteTextError/Code/tooLarge`` past
    /// ``NoteLimits/maximumFormattingOperations`` or for a value over 4,096 UTF-8 bytes.
    public mutating func setMark(_ mark: TextMark, utf16Range range: Range<Int>) throws(NoteTextError) {
        try addMark(mark.kind, mark.value, utf16Range: range)
    }

    /// Removes marks of `kind` from the characters of the UTF-16 range (an operation that wins
    /// over earlier settings there, with the kind's expansion rule: text typed at the end of an
    /// un-bolded stretch stays plain). Throws as ``setMark(_:utf16Range:)``.
    public mutating func removeMark(_ kind: TextMarkKind, utf16Range range: Range<Int>) throws(NoteTextError) {
        try addMark(kind, nil, utf16Range: range)
    }

    /// Sets `attribute` on every paragraph the UTF-16 range touches (for an empty range, the
    /// paragraph of that caret position). Throws ``NoteTextError/Code/outOfBounds`` for a range
    /// outside the text or a heading level outside 0...6, ``NoteTextError/Code/tooLarge`` past
    /// ``NoteLimits/maximumFormattingOperations``.
    public mutating func setParagraphAttribute(_ attribute: ParagraphAttribute, utf16Range range: Range<Int>) throws(NoteTextError) {
        let scalars = try scalarRange(forUTF16: range)
        if case .other(let name, let value) = attribute, name.utf8.count + value.utf8.count > NoteFormatting.maximumStringBytes {
            throw NoteTextError(.tooLarge, "a paragraph attribute over \(NoteFormatting.maximumStringBytes) bytes")
        }
        try buildIndexForEdit()
        let operations = try NoteFormatting.setParagraph(attribute, scalars: scalars, in: sequence, stamp: clock.tick(), replica: replica)
        try formatting.checkRoom(adding: operations.count)
        let undo = paragraphUndoStep(attribute, keys: operations.map(\.key))
        formatting.add(operations)
        if let undo { undoHistory.recordFormatting(undo) }
    }

    /// The visible text cut into stretches of equal marks and paragraph attributes, in order
    /// (one span, without marks, for plain text; none for an empty note). O(n) in the
    /// characters ever inserted plus the characters the operations cover.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's runs are corrupt.
    public func formattedSpans() throws(NoteTextError) -> [FormattedSpan] {
        let runs = try attributeRuns()
        let utf8 = Array(string.utf8)
        var spans: [FormattedSpan] = []
        spans.reserveCapacity(runs.count)
        var byte = 0
        for i in 0..<runs.count {
            // The run's bytes, from its scalar count.
            let start = byte
            for _ in runs.scalars(ofRun: i) {
                let lead = utf8[byte]
                byte += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            }
            let attributes = runs.attributes[i]
            let text = String(decoding: utf8[start..<byte], as: UTF8.self)
            if i > 0, runs.attributes[i - 1] == attributes {
                // Neighbouring runs with different winners that show the same: one span.
                spans[spans.count - 1].text += text
                spans[spans.count - 1].utf16Range = spans[spans.count - 1].utf16Range.lowerBound..<runs.utf16(ofRun: i).upperBound
            } else {
                spans.append(FormattedSpan(text: text, utf16Range: runs.utf16(ofRun: i), marks: attributes.marks, paragraph: attributes.paragraph))
            }
        }
        return spans
    }

    /// The attributes of the character at UTF-16 offset `offset` (`0..<utf16Count`): its marks
    /// and its paragraph's attributes. From the note's attributes index: O(log r) for r
    /// stretches of equal attributes once the note has been read since its last change (the
    /// first read after typing or deleting without a newline updates the index in O(r); after
    /// any other change it resolves the whole note, as ``formattedSpans()`` does).
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` when `offset` is outside the text, and
    /// ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's runs are corrupt.
    public func attributes(atUTF16 offset: Int) throws(NoteTextError) -> TextAttributes {
        guard offset >= 0, offset < utf16Count else {
            throw NoteTextError(.outOfBounds, "UTF-16 offset \(offset) is outside the text (0..<\(utf16Count))")
        }
        let runs = try attributeRuns()
        return runs.attributes.isEmpty ? TextAttributes() : runs.attributes[runs.run(atUTF16: offset)]
    }

    /// The mark of `kind` with `value` (nil: its removal) on the UTF-16 range, as ``setMark(_:utf16Range:)``
    /// and ``removeMark(_:utf16Range:)`` make it; without `recordingUndo`, part of the open undo
    /// step (text just typed, whose undo removes it) rather than a step of its own.
    mutating func addMark(_ kind: TextMarkKind, _ value: String?, utf16Range range: Range<Int>, recordingUndo: Bool = true) throws(NoteTextError) {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= utf16Count else {
            // Nothing to format (or out of bounds): the checks and errors of any UTF-16 range.
            _ = try scalarRange(forUTF16: range)
            try Self.checkMarkValue(kind, value)
            return
        }
        try buildIndexForEdit()
        // One tree search per end, for the scalars and the anchors alike.
        let placement = try MarkPlacement.of(utf16: range, in: sequence)
        // Stored properties and static functions only from here on: a method call on `self`
        // copies the whole note on every mark.
        try Self.checkMarkValue(kind, value)
        try formatting.checkRoom(adding: 1)
        let undo = recordingUndo && undoHistory.limit > 0 ? try markUndoStep(kind, scalars: placement.scalars) : nil
        let operation = NoteFormatting.mark(kind.kind, value, at: placement, in: sequence, stamp: clock.tick(), replica: replica)
        // The undo step read the attributes index (current now): it is updated where the mark
        // covers, so the next command reads it without resolving the note.
        let before = undo == nil ? nil : try attributeRuns()
        formatting.add(operation)
        if let before {
            var after = before
            _ = after.add([operation], paragraphKeys: [ParagraphKey](), formatting: formatting, in: sequence)
            attributeCache?.store(after)
        }
        if let undo { undoHistory.recordFormatting(undo) }
        if !recordingUndo { undoHistory.formatOpenStep() }
    }

    private static func checkMarkValue(_ kind: TextMarkKind, _ value: String?) throws(NoteTextError) {
        if let value, value.utf8.count > NoteFormatting.maximumStringBytes {
            throw NoteTextError(.tooLarge, "a \(kind.rawValue) value of \(value.utf8.count) UTF-8 bytes (at most \(NoteFormatting.maximumStringBytes))")
        }
    }
}
