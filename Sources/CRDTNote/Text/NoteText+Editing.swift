import CRDTNoteSupport

extension NoteText {
    /// Inserts `text` so that it starts at Unicode-scalar `offset` (0...scalarCount).
    public mutating func insert(_ text: String, atScalarOffset offset: Int) throws(NoteTextError) {
        try replaceScalars(in: offset..<offset, with: text)
    }

    /// Deletes the Unicode scalars in `range`.
    public mutating func deleteScalars(in range: Range<Int>) throws(NoteTextError) {
        try replaceScalars(in: range, with: "")
    }

    /// Replaces the Unicode scalars in `range` with `text`, as one edit.
    ///
    /// Throws ``NoteTextError/Code/tooLarge``, changing nothing, when the note would grow past
    /// its limits (see that code).
    ///
    /// Every edit of a note loaded from a snapshot first builds its index; a snapshot whose runs
    /// are corrupt makes it throw ``NoteTextError/Code/corruptSnapshot``, changing nothing.
    public mutating func replaceScalars(in range: Range<Int>, with text: String) throws(NoteTextError) {
        var text = text
        // `withUTF8` rethrows untyped errors: the typed one comes out as a value.
        let failure: NoteTextError? = text.withUTF8 { utf8 in
            do throws(NoteTextError) {
                try replaceScalars(in: range, validUTF8: utf8)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Replaces the Unicode scalars in `range` with the UTF-8 text `utf8`, as one edit: for
    /// callers that hold bytes (trace replay), so no `String` is made per edit. Throws
    /// ``NoteTextError/Code/invalidUTF8``, changing nothing, when `utf8` is not valid UTF-8.
    package mutating func replaceScalars(in range: Range<Int>, withUTF8 utf8: UnsafeBufferPointer<UInt8>) throws(NoteTextError) {
        // Nothing or one ASCII byte (most keystrokes) needs no scan.
        if utf8.count > 1 || (utf8.count == 1 && utf8[0] >= 0x80), let bad = UTF8Validation.firstInvalidByte(in: utf8) {
            throw NoteTextError(.invalidUTF8, "the inserted text is not valid UTF-8 (byte \(bad) of \(utf8.count))")
        }
        try replaceScalars(in: range, validUTF8: utf8)
    }

    /// The one local edit both entry points make; `utf8` is valid UTF-8.
    @inline(__always)
    private mutating func replaceScalars(in range: Range<Int>, validUTF8 utf8: UnsafeBufferPointer<UInt8>) throws(NoteTextError) {
        if deferred != nil { try buildIndexForEdit() }
        guard range.lowerBound >= 0, range.upperBound <= sequence.scalarCount else {
            throw NoteTextError(.outOfBounds, "scalar range \(range.lowerBound)..<\(range.upperBound) is outside 0..<\(sequence.scalarCount)")
        }
        // Checked before touching the bytes: UTF-8 length bounds the scalar count.
        let byteCount = utf8.count
        // Stored properties only (a method call on `self` here copies the whole note).
        if let problem = Self.capacityProblem(
            contentBytes: sequence.content.count, nextSeq: sequence.nextSeq, local: localIndexIfAny,
            replica: replica, maximumElements: maximumElements, adding: byteCount, scalars: byteCount) { throw problem }
        if range.isEmpty && byteCount == 0 { return }
        let local = localIndex()
        let stamp = clock.tick()
        // One call into the sequence: only the stored property is touched in here, so the
        // note is not copied for every keystroke.
        guard undoHistory.limit > 0 else {
            textWillChange(replacing: range, with: utf8)
            if historyRetention == nil || range.isEmpty {
                var ignored = IgnoredDeletions()
                sequence.replaceLocal(range, with: utf8, replica: local, stamp: stamp, recording: &ignored)
            } else {
                var removed = DeletedStretches()
                sequence.replaceLocal(range, with: utf8, replica: local, stamp: stamp, recording: &removed)
                logDeletion(removed, stamp: stamp)
            }
            if !formatting.paragraphs.isEmpty, Self.typesNewline(utf8) { keepParagraphAttributes(insertedAt: range.lowerBound, utf8: utf8) }
            return
        }
        undoHistory.willReplace(range, inserts: byteCount > 0, marks: undoMarks(local))
        // The deletion hands the text it removes to the undo history from its own walk of the
        // tree, and to the deletion log.
        textWillChange(replacing: range, with: utf8)
        if range.isEmpty || historyRetention == nil {
            sequence.replaceLocal(range, with: utf8, replica: local, stamp: stamp, recording: &undoHistory)
        } else {
            var recorder = LoggingDeletions(inner: undoHistory)
            undoHistory = UndoHistory()
            sequence.replaceLocal(range, with: utf8, replica: local, stamp: stamp, recording: &recorder)
            undoHistory = recorder.inner
            logDeletion(recorder.stretches, stamp: stamp)
        }
        undoHistory.didReplace(range, marks: undoMarks(local))
        if !formatting.paragraphs.isEmpty, Self.typesNewline(utf8) { keepParagraphAttributes(insertedAt: range.lowerBound, utf8: utf8) }
    }

    /// What undo grouping compares between edits.
    @inline(__always)
    private func undoMarks(_ local: UInt32) -> UndoHistory.Marks {
        UndoHistory.Marks(contentBytes: sequence.content.count, scalars: sequence.scalarCount, nextSeq: sequence.nextSeq[Int(local)])
    }

    /// Inserts `text` at UTF-16 `offset` (as in `NSRange`).
    public mutating func insert(_ text: String, atUTF16Offset offset: Int) throws(NoteTextError) {
        try replaceUTF16(in: offset..<offset, with: text)
    }

    /// Deletes the UTF-16 code units in `range`.
    public mutating func deleteUTF16(in range: Range<Int>) throws(NoteTextError) {
        try replaceUTF16(in: range, with: "")
    }

    /// Replaces the UTF-16 code units in `range` (as in `NSRange`) with `text`.
    public mutating func replaceUTF16(in range: Range<Int>, with text: String) throws(NoteTextError) {
        if deferred != nil { try buildIndexForEdit() }
        try replaceScalars(in: scalarRange(forUTF16: range), with: text)
    }

    /// The Unicode-scalar range covering a UTF-16 range; throws when an end splits a surrogate pair
    /// (and ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built).
    public func scalarRange(forUTF16 range: Range<Int>) throws(NoteTextError) -> Range<Int> {
        guard range.lowerBound >= 0, range.upperBound <= utf16Count else {
            throw NoteTextError(.outOfBounds, "UTF-16 range \(range.lowerBound)..<\(range.upperBound) is outside 0..<\(utf16Count)")
        }
        // The built index is passed borrowed: no copy of the note per keystroke.
        if deferred == nil { return try Self.scalarRange(forUTF16: range, in: sequence) }
        return try Self.scalarRange(forUTF16: range, in: indexForReading())
    }

    private static func scalarRange(forUTF16 range: Range<Int>, in sequence: TextSequence) throws(NoteTextError) -> Range<Int> {
        let lower = try scalarOffset(forUTF16: range.lowerBound, in: sequence)
        let upper = range.isEmpty ? lower : try scalarOffset(forUTF16: range.upperBound, in: sequence)
        return lower..<upper
    }

    /// The UTF-16 offset of a Unicode-scalar offset (0...scalarCount); throws
    /// ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    public func utf16Offset(forScalar offset: Int) throws(NoteTextError) -> Int {
        guard offset >= 0, offset <= scalarCount else {
            throw NoteTextError(.outOfBounds, "scalar offset \(offset) is outside 0...\(scalarCount)")
        }
        if deferred == nil { return sequence.utf16Offset(ofScalar: offset) }
        return try indexForReading().utf16Offset(ofScalar: offset)
    }

    /// The index for a read that can throw (built from a loaded snapshot if need be, without
    /// changing this copy).
    func indexForReading() throws(NoteTextError) -> TextSequence {
        do {
            return try loadedSequence()
        } catch {
            throw NoteTextError(corruptSnapshot: error)
        }
    }

    private static func scalarOffset(forUTF16 offset: Int, in sequence: TextSequence) throws(NoteTextError) -> Int {
        if offset == sequence.utf16Count { return sequence.scalarCount }
        guard let scalar = sequence.scalarIndex(ofUTF16: offset) else { throw NoteTextError(insideSurrogatePairAt: offset) }
        return scalar
    }

    /// Why adding up to `scalars` elements and `bytes` bytes of text would take the note past its
    /// limits (see ``NoteTextError/Code/tooLarge``), or nil.
    func capacityProblem(adding bytes: Int, scalars: Int) -> NoteTextError? {
        Self.capacityProblem(contentBytes: sequence.content.count, nextSeq: sequence.nextSeq, local: localIndexIfAny,
                             replica: replica, maximumElements: maximumElements, adding: bytes, scalars: scalars)
    }

    /// The element limit (`maximumElements`, from the note's ``NoteLimits``) first; then what the
    /// index can address at all, which only limits above the defaults can reach: 2^32 − 1 bytes
    /// of text storage (every byte ever inserted), 2^32 − 1 ids per replica.
    private static func capacityProblem(contentBytes: Int, nextSeq: [UInt32], local: UInt32?, replica: ReplicaID,
                                        maximumElements: Int, adding bytes: Int, scalars: Int) -> NoteTextError? {
        if scalars > 0, nextSeq.reduce(0, { $0 + Int($1) }) + scalars > maximumElements {
            return NoteTextError(.tooLarge, "the note would have more than the \(maximumElements) elements (characters ever inserted, "
                                 + "deleted ones included) its limits allow (NoteLimits.maximumElements)")
        }
        if contentBytes + bytes >= Int(UInt32.max) {
            return NoteTextError(.tooLarge, "the note's text storage would reach 2^32 bytes")
        }
        if let local, Int(nextSeq[Int(local)]) + scalars >= Int(UInt32.max) {
            return NoteTextError(.tooLarge, "replica \(replica) would reach 2^32 inserted characters")
        }
        return nil
    }

    /// Makes the text equal `newText`, recording the edits a person would have made to get
    /// there, found by a coarse-to-fine diff: unchanged lines first (patience anchoring on
    /// unique lines, budgeted Myers' diff chunk by chunk), then words inside changed lines, then
    /// characters only for a pure insertion or deletion inside a word; a replaced word is
    /// replaced whole, never keeping a stray letter. Docs/RECORD-FORMAT.md ("Folding plain text:
    /// the diff, version 2") specifies it. Fast on large notes (a one-character change in
    /// 10 MB takes milliseconds; Docs/BENCHMARKS.md, `settext`).
    ///
    /// Prefer ``replaceUTF16(in:with:)`` with the keystroke-level edits when the app has them:
    /// a diff can only guess where a change was made (an insertion between two equal words may
    /// be recorded after the other one), and concurrent edits of other devices merge against
    /// what was recorded. Docs/GETTING-STARTED.md, "Whole-text updates", explains the trade-off.
    ///
    /// Throws ``NoteTextError/Code/tooLarge``, leaving the text unchanged, when the inserted text
    /// would take the note past its limits (see that code), and
    /// ``NoteTextError/Code/corruptSnapshot`` as ``replaceScalars(in:with:)`` does.
    public mutating func setText(_ newText: String) throws(NoteTextError) {
        let new = Array(newText.utf8)
        try applyEdits { old in TextDiff.edits(from: old, to: new) }
    }

    /// Applies the edits `derive` finds for the current text (its UTF-8; edits as
    /// `TextDiff.edits` returns them: end to start, scalar offsets, not overlapping) as local
    /// edits of this replica, in one undo step; returns whether there were any. Throws as
    /// ``setText(_:)`` does, changing nothing.
    @discardableResult
    mutating func applyEdits(_ derive: ([UInt8]) -> [TextDiff.Edit]) throws(NoteTextError) -> Bool {
        if deferred != nil { try buildIndexForEdit() }
        let edits = derive(sequence.utf8Bytes())
        guard !edits.isEmpty else { return false }
        let inserted = edits.reduce(0) { $0 + $1.insert.count }
        let insertedScalars = edits.reduce(0) { $0 + $1.insertScalars }
        if let problem = capacityProblem(adding: inserted, scalars: insertedScalars) { throw problem }
        let stamp = clock.tick()
        let local = localIndex()
        let firstSeq = sequence.nextSeq[Int(local)]
        // The whole update is one undo step.
        let recording = undoHistory.limit > 0
        if recording { undoHistory.beginStep(in: sequence, local: local) }
        // Edits are sorted from the end of the text backwards, so offsets stay valid.
        for edit in edits {
            let deletion = edit.offset..<edit.offset + edit.deleteCount
            if deletion.isEmpty {
                // Nothing to delete.
            } else if recording && historyRetention == nil {
                undoHistory.beginDeletion(on: .apart)
                sequence.deleteLocal(deletion, recording: &undoHistory)
                undoHistory.endDeletion()
            } else if recording {
                undoHistory.beginDeletion(on: .apart)
                var recorder = LoggingDeletions(inner: undoHistory)
                undoHistory = UndoHistory()
                sequence.deleteLocal(deletion, recording: &recorder)
                undoHistory = recorder.inner
                undoHistory.endDeletion()
                logDeletion(recorder.stretches, stamp: stamp)
            } else if historyRetention == nil {
                sequence.deleteLocal(deletion)
            } else {
                var removed = DeletedStretches()
                sequence.deleteLocal(deletion, recording: &removed)
                logDeletion(removed, stamp: stamp)
            }
            edit.insert.withUnsafeBufferPointer { bytes in
                sequence.insertLocal(bytes, scalars: edit.insertScalars, utf16: edit.insertUTF16, at: edit.offset, replica: local)
                if !formatting.paragraphs.isEmpty { keepParagraphAttributes(insertedAt: edit.offset, utf8: bytes) }
            }
        }
        sequence.noteStamp(stamp, replica: local, firstInsertedSeq: inserted > 0 ? firstSeq : nil)
        textChanged()
        if recording { undoHistory.finishStep(in: sequence, local: local) }
        return true
    }

    /// Logs a local deletion at `stamp` that removed `stretches` in the note's history.
    /// (Called only when ``historyRetention`` is set.)
    mutating func logDeletion(_ stretches: DeletedStretches, stamp: HLCTimestamp) {
        history.log(sequence.deletionEvents(of: stretches.all, deleter: replica, stamp: stamp))
    }
}

extension NoteTextError {
    /// The error for UTF-16 `offset` falling inside a surrogate pair.
    init(insideSurrogatePairAt offset: Int) {
        self.init(.insideSurrogatePair, "UTF-16 offset \(offset) falls inside a surrogate pair")
    }
}
