/// Turns plain text (a v1 record, a clobbered mirror) into CRDT edits, deterministically:
/// the same inputs give the same operations on every device (see ``NoteReplicaDerivation``).
///
/// Clocks are fixed to the record's `modified` time, the moment the plain-text client edited,
/// so the stamps of folded edits are reproducible too.
enum PlainTextFolding {
    /// A clock reading the record's `modified` time (0 when absent or negative).
    static func clock(modified: Int64?) -> HybridLogicalClock {
        HybridLogicalClock(physicalClock: .fixed(UInt64(max(0, modified ?? 0))))
    }

    /// A legacy text as a CRDT note: one insertion by the legacy replica of (record, text).
    /// Throws `.limitExceeded` when the text exceeds `limits` (``NoteLimits/maximumElements``).
    static func legacyNote(text: String, recordName: String, modified: Int64?, limits: NoteLimits) throws(NoteRecordError) -> NoteText {
        var note = NoteText(replica: NoteReplicaDerivation.legacy(recordName: recordName, text: text), clock: clock(modified: modified))
        note.maximumElements = limits.maximumElements
        do {
            if !text.isEmpty { try note.insert(text, atScalarOffset: 0) }
        } catch {
            throw tooLarge(error, recordName: recordName)
        }
        return note
    }

    /// `base` forked as `replica` for folding, its edits held to `limits`.
    private static func folding(_ base: NoteText, as replica: ReplicaID, modified: Int64?, limits: NoteLimits) -> NoteText {
        var folded = base.forked(as: replica, clock: clock(modified: modified))
        folded.maximumElements = limits.maximumElements
        return folded
    }

    /// A local-edit refusal (only `.tooLarge` can happen here) as a record error.
    private static func tooLarge(_ error: NoteTextError, recordName: String) -> NoteRecordError {
        NoteRecordError(.limitExceeded, recordName: recordName, field: NoteSchema.Field.text, "the text cannot be folded into the note: \(error.message)")
    }

    /// `base` with `text` applied as a diff (insertions and deletions) by a replica derived
    /// from (record, base, text). Used when `base` is the state the plain text was edited from.
    /// Throws `.limitExceeded` when the result would exceed `limits` (``NoteLimits/maximumElements``).
    /// A base loaded lazily whose runs prove corrupt is `.corruptPayload`.
    static func fold(_ base: NoteText, text: String, recordName: String, modified: Int64?, limits: NoteLimits) throws(NoteRecordError) -> NoteText {
        if base.string == text { return base }
        let base = try base.built(forRecord: recordName)
        let replica = NoteReplicaDerivation.fold(recordName: recordName, base: base, text: text, mode: .diff)
        var folded = folding(base, as: replica, modified: modified, limits: limits)
        do {
            try folded.setText(text)
        } catch {
            throw tooLarge(error, recordName: recordName)
        }
        return folded
    }

    /// `base` with only the insertions of the diff base -> `text` applied: used when nothing
    /// tells which side deleted (no ancestor), so text either side has is kept.
    ///
    /// Where the diff replaces a stretch D of `base` with I, I goes before D when it sorts
    /// first (by Unicode scalar values) and after it otherwise; this makes the result the same
    /// whichever text is the base, so merging in either direction gives the same text. When
    /// that would join two letters or digits into one word (`apples` + `eggs`), the space or
    /// tab just before the second piece in its own text (else just after the first piece in
    /// its own text) goes between them, so both words stay words; without one, nothing is added.
    /// Throws `.limitExceeded` when the result would exceed `limits`, `.corruptPayload`
    /// as ``fold(_:text:recordName:modified:limits:)`` does.
    static func foldInsertions(_ base: NoteText, text: String, recordName: String, modified: Int64?, limits: NoteLimits) throws(NoteRecordError) -> NoteText {
        let old = base.utf8
        let new = Array(text.utf8)
        let edits = TextDiff.edits(from: old, to: new)
        guard edits.contains(where: { !$0.insert.isEmpty }) else { return base }
        let base = try base.built(forRecord: recordName)
        let replica = NoteReplicaDerivation.fold(recordName: recordName, base: base, text: text, mode: .insertions)
        var folded = folding(base, as: replica, modified: modified, limits: limits)
        let scalars = TextDiff.decodeScalars(old[...])
        let newScalars = TextDiff.decodeScalars(new[...])
        // Where each edit's insertion is in `text` (hunks run from the start, edits from the end).
        let hunks = TextDiff.forwardHunks(edits)
        // Edits run from the end of the text backwards, so earlier offsets stay valid.
        for (edit, h) in zip(edits, hunks.reversed()) where !edit.insert.isEmpty {
            var inserted = newScalars[h.newStart..<h.newEnd]
            var at = edit.offset
            if edit.deleteCount > 0 {
                let insertedFirst = TextDiff.sortsFirst(inserted, before: scalars[h.oldStart..<h.oldEnd])
                let i = TextDiff.Piece(start: h.newStart, end: h.newEnd, text: newScalars)
                let d = TextDiff.Piece(start: h.oldStart, end: h.oldEnd, text: scalars)
                let (first, second) = insertedFirst ? (i, d) : (d, i)
                if let separator = TextDiff.separator(between: first, and: second) {
                    if insertedFirst { inserted.append(separator) } else { inserted.insert(separator, at: inserted.startIndex) }
                }
                if !insertedFirst { at += edit.deleteCount }
            }
            // In range by construction (offsets come from the diff of this very text), so only
            // the note's size limits can refuse it.
            let bytes = TextDiff.edit(offset: at, deleteCount: 0, inserting: inserted).insert
            do {
                try folded.insert(String(decoding: bytes, as: UTF8.self), atScalarOffset: at)
            } catch {
                throw tooLarge(error, recordName: recordName)
            }
        }
        return folded
    }
}
