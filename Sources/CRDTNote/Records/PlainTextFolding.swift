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
    /// Throws `.limitExceeded` when the text exceeds the note's limits.
    static func legacyNote(text: String, recordName: String, modified: Int64?) throws(NoteRecordError) -> NoteText {
        do {
            return try NoteText(text, replica: NoteReplicaDerivation.legacy(recordName: recordName, text: text), clock: clock(modified: modified))
        } catch {
            throw tooLarge(error, recordName: recordName)
        }
    }

    /// A local-edit refusal (only `.tooLarge` can happen here) as a record error.
    private static func tooLarge(_ error: NoteTextError, recordName: String) -> NoteRecordError {
        NoteRecordError(.limitExceeded, recordName: recordName, field: NoteSchema.Field.text, "the text cannot be folded into the note: \(error.message)")
    }

    /// `base` with `text` applied as a diff (insertions and deletions) by a replica derived
    /// from (record, base, text). Used when `base` is the state the plain text was edited from.
    /// Throws `.limitExceeded` when the result would exceed the note's limits.
    static func fold(_ base: NoteText, text: String, recordName: String, modified: Int64?) throws(NoteRecordError) -> NoteText {
        if base.string == text { return base }
        let replica = NoteReplicaDerivation.fold(recordName: recordName, base: base, text: text, mode: .diff)
        var folded = base.forked(as: replica, clock: clock(modified: modified))
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
    /// whichever text is the base, so merging in either direction gives the same text.
    /// Throws `.limitExceeded` when the result would exceed the note's limits.
    static func foldInsertions(_ base: NoteText, text: String, recordName: String, modified: Int64?) throws(NoteRecordError) -> NoteText {
        let old = base.utf8
        let new = Array(text.utf8)
        let edits = TextDiff.edits(from: old, to: new)
        guard edits.contains(where: { !$0.insert.isEmpty }) else { return base }
        let replica = NoteReplicaDerivation.fold(recordName: recordName, base: base, text: text, mode: .insertions)
        var folded = base.forked(as: replica, clock: clock(modified: modified))
        let scalars = Array(String(decoding: old, as: UTF8.self).unicodeScalars)
        // Edits run from the end of the text backwards, so earlier offsets stay valid.
        for edit in edits where !edit.insert.isEmpty {
            let inserted = String(decoding: edit.insert, as: UTF8.self)
            var at = edit.offset
            if edit.deleteCount > 0 {
                let replaced = scalars[edit.offset..<edit.offset + edit.deleteCount]
                let insertedFirst = inserted.unicodeScalars.lexicographicallyPrecedes(replaced) { $0.value < $1.value }
                if !insertedFirst { at += edit.deleteCount }
            }
            // In range by construction (offsets come from the diff of this very text), so only
            // the note's size limits can refuse it.
            do {
                try folded.insert(inserted, atScalarOffset: at)
            } catch {
                throw tooLarge(error, recordName: recordName)
            }
        }
        return folded
    }

    /// The union of several states. Throws when they contradict each other (only possible
    /// with damaged or forged payloads); nothing is changed then.
    static func union(_ states: [NoteText]) throws(ChangeSetError) -> NoteText? {
        guard var merged = states.first else { return nil }
        for other in states.dropFirst() {
            try merged.apply(other.changes(since: merged.version))
        }
        return merged
    }
}
