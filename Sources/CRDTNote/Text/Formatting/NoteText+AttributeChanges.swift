extension NoteText {
    /// The attributes of every visible scalar, in order (the reference form a few commands
    /// read): the attributes index expanded, O(n).
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func scalarAttributes() throws(NoteTextError) -> [TextAttributes] {
        try attributeRuns().perScalar()
    }

    /// The attributes before a change, for ``patch(replacing:attributesBefore:inserted:)``: nil
    /// when the note has no formatting and the change brings none (`incoming`), so plain notes
    /// pay nothing. From the attributes index: no work when the note was read since it last
    /// changed (a text view's note always was).
    func attributesBeforeChange(bringing incoming: NoteFormatting = NoteFormatting()) throws(NoteTextError) -> AttributeRuns? {
        formatting.isEmpty && incoming.isEmpty ? nil : try attributeRuns()
    }

    /// A patch of `replacements` with the attribute changes that take a view from `before`
    /// (the attributes of the text before them; nil: the note had no formatting and has none
    /// now) to this note's attributes. Text the replacements inserted is taken to carry
    /// `inserted` in the view (no attributes, or the typing attributes the view gave it).
    /// O(r) in the attribute runs per replacement, plus the resolution of the new attributes
    /// (which fills the index for the next change).
    func patch(replacing replacements: [TextReplacement], attributesBefore before: AttributeRuns?,
               inserted: TextAttributes = TextAttributes()) throws(NoteTextError) -> TextPatch {
        guard let before else { return TextPatch(replacements: replacements) }
        var view = ViewRuns(before)
        for replacement in replacements {
            view.replace(replacement.scalarRange, inserted: replacement.text.unicodeScalars.count, carrying: inserted)
        }
        let after = try attributeRuns()
        guard let changes = after.changes(from: view, in: try indexForReading()) else {
            throw NoteTextError(.corruptSnapshot, "the patch gives \(view.scalarCount) scalars, the text holds \(after.scalarCount)")
        }
        return TextPatch(replacements: replacements, attributeChanges: changes)
    }

    /// The patch of a change that added the formatting operations `marks` and paragraph
    /// settings on `paragraphKeys` (this note's formatting holds them now) and left the visible
    /// text as it was, `before` being the attributes index then: the index updated where the
    /// new operations cover (``AttributeRuns/add(_:paragraphKeys:formatting:in:)``), not resolved
    /// again, and cached for the next change.
    func formattingPatch(adding marks: some Sequence<MarkOperation>, paragraphKeys: some Sequence<ParagraphKey>,
                         attributesBefore before: AttributeRuns) throws(NoteTextError) -> TextPatch {
        let sequence = try indexForReading()
        guard before.scalarCount == sequence.scalarCount else {
            throw NoteTextError(.corruptSnapshot, "the index holds \(before.scalarCount) scalars, the text \(sequence.scalarCount)")
        }
        var after = before
        let touched = after.add(marks, paragraphKeys: paragraphKeys, formatting: formatting, in: sequence)
        attributeCache?.store(after)
        return TextPatch(attributeChanges: after.changes(from: before, within: touched, in: sequence))
    }

    /// ``formattingPatch(adding:paragraphKeys:attributesBefore:)`` for the operations this
    /// note's formatting holds and `previous` (its formatting before the change) lacks.
    func formattingPatch(since previous: NoteFormatting, attributesBefore before: AttributeRuns) throws(NoteTextError) -> TextPatch {
        try formattingPatch(adding: formatting.marks.filter { !previous.marks.contains($0) },
                            paragraphKeys: Set(formatting.paragraphs.filter { !previous.paragraphs.contains($0) }.map(\.key)),
                            attributesBefore: before)
    }
}

extension NoteText {
    /// The attributes text typed in place of the UTF-16 `range` would get, from the attributes
    /// index and the caret's neighbours (AttributeRuns+LocalEdit.swift) without typing it; nil
    /// when that cannot tell (a newline in the range, a mark of the character before the caret
    /// whose end lies among the tombstones or replaced characters at the caret: then type into
    /// a copy). O(log r + log n per mark name there; right after a link or inline code, a pass
    /// over that name's operations).
    ///
    /// Throws as ``scalarRange(forUTF16:)``.
    func typedAttributes(replacingUTF16 range: Range<Int>) throws(NoteTextError) -> TextAttributes? {
        let scalars = try scalarRange(forUTF16: range)
        let runs = try attributeRuns()
        let sequence = try indexForReading()
        guard sequence.newlines(inScalars: scalars).isEmpty else { return nil }
        // The typed text lands after the character before the caret and before the one after the
        // replaced scalars.
        let before = scalars.lowerBound > 0 ? sequence.position(ofScalar: scalars.lowerBound - 1) : nil
        let after = scalars.upperBound < sequence.scalarCount ? sequence.position(ofScalar: scalars.upperBound) : nil
        guard let winners = runs.typedWinners(at: scalars.lowerBound, formatting: formatting, in: sequence, endsAfterTyped: { end in
            guard let position = sequence.position(of: end.replica, seq: end.seq) else { return nil }
            if let before, position <= before { return false }
            if let after, position >= after { return true }
            return nil
        }) else { return nil }
        return TextAttributes(winners: winners, paragraph: runs.typedParagraph(replacing: scalars, in: sequence, formatting: formatting))
    }
}

