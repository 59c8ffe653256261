import CRDTNoteSupport

/// How the sync engine turns notes into records and back, and merges conflicting records:
/// through `NoteRecord` (schema, version gate, inline/asset payloads) and `RecordMerger`.
package enum NoteRecordBridge {
    /// The record for `text`, built on `base` (its change tag and every other field kept).
    package static func record(for text: NoteText, name: String, basedOn base: StoredRecord?, recordType: String,
                       limits: NoteRecordLimits) throws(NoteSyncError) -> StoredRecord {
        var note = base.map(noteRecord) ?? NoteRecord(recordName: name)
        if base == nil { note.record.recordType = recordType }
        do {
            try note.write(text, limits: limits)
        } catch {
            throw syncError(error, name: name)
        }
        return storedRecord(note)
    }

    /// The note state a record holds, edited from now on as `replica`.
    package static func text(from stored: StoredRecord, replica: ReplicaID, clock: HybridLogicalClock) throws(NoteSyncError) -> NoteText {
        do {
            return try noteRecord(stored).read(as: replica, clock: clock).note
        } catch {
            throw syncError(error, name: stored.recordName)
        }
    }

    /// The merge of a conflict (built on the server record) and the merged note.
    package static func merge(_ conflict: RecordConflict, limits: NoteRecordLimits) throws(NoteSyncError) -> (record: StoredRecord, note: NoteText) {
        do {
            let result = try RecordMerger(limits: limits).merge(
                ancestor: conflict.ancestor.map(noteRecord), client: noteRecord(conflict.client), server: noteRecord(conflict.server))
            return (storedRecord(result.record), result.note)
        } catch {
            throw syncError(error, name: conflict.server.recordName)
        }
    }

    package static func noteRecord(_ stored: StoredRecord) -> NoteRecord {
        NoteRecord(stored.record, assets: NoteAssets(stored.assets))
    }

    package static func storedRecord(_ note: NoteRecord) -> StoredRecord {
        StoredRecord(note.record, assets: note.assets.bytesByField)
    }

    package static func syncError(_ error: NoteRecordError, name: String) -> NoteSyncError {
        NoteSyncError(error.code == .newerVersion ? .newerVersionAvailable : .recordUnreadable, noteName: name, "\(error)")
    }
}

extension StoredRecord {
    /// This record as a new record: no change tag and no CloudKit system fields, so saving it
    /// creates the record again (used when an edit resurrects a deleted note or after a reset).
    public func withoutServerIdentity() -> StoredRecord {
        var copy = self
        copy.record.recordChangeTag = nil
        copy.record.extra = copy.record.extra.removing([CloudRecord.systemFieldsKey])
        copy.record.created = nil
        copy.record.modified = nil
        return copy
    }
}

extension CloudRecord {
    /// Top-level key under which the CloudKit adapter keeps a record's archived system fields
    /// (base64 of `CKRecord.encodeSystemFields`), so a rebuilt `CKRecord` carries its change tag.
    public static let systemFieldsKey = "crdtnoteSystemFields"
}
