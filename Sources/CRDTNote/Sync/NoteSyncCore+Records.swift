/// How note sync turns notes into records and back, and merges conflicting records:
/// through `NoteRecord` (schema, version gate, inline/asset payloads) and `RecordMerger`, with
/// their errors as sync errors. Records carry their asset bytes, so nothing is converted.
extension NoteSyncCore {
    /// The record for note `name`: its app fields (``NoteFieldStamps``) and `text` written on
    /// `base`, the server metadata (every other field kept), or on a new record. The note's
    /// formatting is united with what `base` holds, or, when that is a newer release's, left
    /// out (``NoteRecord/withWritableFormatting(_:)``).
    static func makeRecord(for text: NoteText, name: String, state: SyncNoteState, basedOn base: CloudRecord?,
                           configuration: NoteSyncConfiguration, form: RecordForm) throws(NoteSyncError) -> CloudRecord {
        var note = base.map(NoteRecord.init) ?? NoteRecord(recordName: name)
        if base == nil {
            note.record.recordType = configuration.recordType
            note.record.zoneID = configuration.zone
        }
        NoteFieldStamps.write(state, into: &note.record)
        do {
            // Formatting the base holds that cannot be united with the note's (a newer release's)
            // stays as it is, and the text goes out all the same.
            try note.write(note.withWritableFormatting(text), limits: configuration.recordLimits, mirror: configuration.textMirror,
                           format: form.format, history: form.history, layout: form.layout)
        } catch {
            throw syncError(error, name: name)
        }
        return note.record
    }

    /// The note state a record holds, edited from now on as `replica`.
    package static func text(from record: CloudRecord, replica: ReplicaID, clock: HybridLogicalClock = HybridLogicalClock()) throws(NoteSyncError) -> NoteText {
        do {
            return try NoteRecord(record).readVerified(as: replica, clock: clock).note
        } catch {
            throw syncError(error, name: record.recordName)
        }
    }

    /// The merge of a conflict (built on the server record) and the merged note.
    static func merge(_ conflict: RecordConflict, limits: NoteLimits, mirror: NoteTextMirror,
                      form: RecordForm) throws(NoteSyncError) -> (record: CloudRecord, note: NoteText) {
        do {
            var merger = RecordMerger(limits: limits, mirror: mirror, format: form.format, layout: form.layout)
            merger.history = form.history
            let result = try merger.merge(
                ancestor: conflict.ancestor.map(NoteRecord.init), client: NoteRecord(conflict.client), server: NoteRecord(conflict.server))
            return (result.record.record, result.note)
        } catch {
            throw syncError(error, name: conflict.server.recordName)
        }
    }

    /// Refuses (`.newerVersionAvailable`) a record this device cannot read: the version gate,
    /// at the reader version this device announces.
    func checkReadable(_ record: CloudRecord) throws(NoteSyncError) {
        do {
            try NoteRecord(record).checkReadable(by: configuration.ownReader, recordVersion: configuration.ownRecordVersion)
        } catch {
            throw Self.syncError(error, name: record.recordName)
        }
    }

    static func syncError(_ error: NoteRecordError, name: String) -> NoteSyncError {
        let code: NoteSyncError.Code
        switch error.code {
        case .newerVersion: code = .newerVersionAvailable
        case .assetUnavailable: code = .assetUnavailable
        case .limitExceeded: code = .limitExceeded
        default: code = .recordUnreadable
        }
        return NoteSyncError(code, noteName: name, "\(error)")
    }

    /// Refuses (before anything is stored) a merged note beyond the limits.
    static func checkLimits(_ text: NoteText, name: String, limits: NoteLimits) throws(NoteSyncError) {
        do {
            try text.checkLimits(limits)
        } catch {
            throw NoteSyncError(.limitExceeded, noteName: name, "merge refused, both versions kept: \(error.message)")
        }
    }
}
