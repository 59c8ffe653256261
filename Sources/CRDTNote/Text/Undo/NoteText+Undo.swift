extension NoteText {
    /// How many undo steps this copy keeps (and as many redo steps). 0, the default, keeps no
    /// history and costs nothing: notes in the sync engine, the CLI and benchmarks leave it there.
    /// An editor showing the note sets it (e.g. 100). Lowering it drops the oldest steps.
    ///
    /// Undo is per device: it only ever reverses this replica's own edits, and works on ids, so
    /// it still does the right thing after other devices' edits have been merged. The history is
    /// local: it is not in snapshots, records or changes, and a forked copy starts without one.
    public var undoLimit: Int {
        get { undoHistory.limit }
        set { undoHistory.setLimit(newValue) }
    }

    /// True when ``undo()`` has a step to undo.
    public var canUndo: Bool { undoHistory.next(redo: false) != nil }

    /// True when ``redo()`` has a step to redo.
    public var canRedo: Bool { undoHistory.next(redo: true) != nil }

    /// Ends the current undo step: the next edit starts a new one even if it continues this one.
    ///
    /// Consecutive edits that continue each other (typing on at the end of the previous insertion,
    /// deleting next to the previous deletion) form one step until this is called, an edit is made
    /// elsewhere, or another device's change is merged in between. Grouping by time is the app's:
    /// call this when the user pauses (as text views do after a second or so).
    public mutating func endUndoGroup() {
        undoHistory.group = .closed
    }

    /// Reverses this device's latest undo step, as a new edit that syncs and merges like any
    /// other: text this device inserted in the step and that still exists is deleted (by id,
    /// wherever it is now); text it deleted comes back as new characters where it was. Steps that
    /// other devices' edits left nothing to change in are skipped. A formatting command
    /// (``setMark(_:utf16Range:)``, ``removeMark(_:utf16Range:)``,
    /// ``setParagraphAttribute(_:utf16Range:)``) is a step of its own: undoing it sets back, as
    /// new operations, the values its characters and paragraphs had before. A whole attributed
    /// update (``setFormattedText(_:)``) is one step of both: undo reverses its text, then sets
    /// back the attributes, those of the text it deleted included (which comes back formatted as
    /// it was), and returns one patch; redo does the same the other way.
    ///
    /// Returns how the text changed (to apply to a text view), or nil when there was nothing to
    /// undo. Throws ``NoteTextError/Code/tooLarge``, changing nothing, when bringing text back would
    /// exceed the note's limits.
    @discardableResult
    public mutating func undo() throws(NoteTextError) -> TextPatch? {
        try performHistoryStep(redo: false)
    }

    /// Reverses the latest ``undo()`` (nil when there is nothing to redo). Any other local edit
    /// clears what there is to redo. Throws as ``undo()`` does.
    @discardableResult
    public mutating func redo() throws(NoteTextError) -> TextPatch? {
        try performHistoryStep(redo: true)
    }

    /// Performs the next undo (or redo) step that changes something.
    private mutating func performHistoryStep(redo: Bool) throws(NoteTextError) -> TextPatch? {
        while let step = undoHistory.next(redo: redo) {
            if let formattingStep = step.formatting, step.text.isEmpty {
                let before = try attributeRuns()
                let previous = formatting
                let inverse = try perform(formattingStep)
                undoHistory.performed(redo: redo, inverse: HistoryStep(formatting: inverse))
                if inverse.isEmpty { continue }
                return try formattingPatch(since: previous, attributesBefore: before)
            }
            guard let formattingStep = step.formatting else {
                let before = try attributesBeforeChange()
                guard let (inverse, replacements) = try performText(step.text) else {
                    undoHistory.performed(redo: redo, inverse: HistoryStep())
                    continue
                }
                undoHistory.performed(redo: redo, inverse: HistoryStep(text: inverse))
                return try patch(replacing: replacements, attributesBefore: before)
            }
            // Text and formatting (a whole attributed update): the text first, then the
            // formatting, which finds restored text through the ids it was restored as; what the
            // text part deletes keeps its attributes in the inverse, for when it comes back.
            try formatting.checkRoom(adding: formattingStep.maximumOperations)
            let before = try attributeRuns()
            let visible = try visibleCharacters()
            let text = try performText(step.text)
            var inverse = HistoryStep(text: text?.inverse ?? UndoStep())
            // Read before the formatting part changes what the deleted newlines' paragraphs hold.
            let deleted = text == nil ? FormattingUndoStep() : try snapshots(ofDeleted: visible)
            var formattingInverse = try perform(formattingStep)
            formattingInverse.snapshots += deleted.snapshots
            formattingInverse.paragraphSnapshots += deleted.paragraphSnapshots
            if !formattingInverse.isEmpty { inverse.formatting = formattingInverse }
            undoHistory.performed(redo: redo, inverse: inverse)
            if inverse.isEmpty { continue }
            return try patch(replacing: text?.replacements ?? [], attributesBefore: before)
        }
        return nil
    }

    /// Performs the text part of an undo or redo step: its inverse and the replacements it made,
    /// nil when it changed nothing. Throws ``NoteTextError/Code/tooLarge``, changing nothing,
    /// when bringing text back would exceed the note's limits.
    private mutating func performText(_ step: UndoStep) throws(NoteTextError) -> (inverse: UndoStep, replacements: [TextReplacement])? {
        var bytes = 0
        var scalars = 0
        for piece in step.restorations {
            bytes += piece.bytes.count
            scalars += piece.scalars
        }
        // Only a note that has edited has steps, so its index is built; checked all the same.
        if deferred != nil { try buildIndexForEdit() }
        if let problem = capacityProblem(adding: bytes, scalars: scalars) { throw problem }
        let local = localIndex()
        let firstSeq = sequence.nextSeq[Int(local)]
        var patch = TextPatchBuilder()
        let inverse = sequence.perform(step, replica: local, restored: &undoHistory.restored, patch: &patch)
        textChanged()
        if inverse.isEmpty { return nil }
        let stamp = clock.tick()
        sequence.noteStamp(stamp, replica: local, firstInsertedSeq: scalars > 0 ? firstSeq : nil)
        // What the step deleted is what its inverse restores.
        if historyRetention != nil {
            history.log(sequence.deletionEvents(of: inverse.restorations, deleter: replica, stamp: stamp))
        }
        return (inverse, patch.replacements)
    }
}
