/// How the sync engine turns notes into records and back, and merges conflicting records.
/// (Provisional: a minimal v2 record until `NoteRecord` / `RecordMerger` are available.)
enum NoteRecordBridge {
    /// The record for `text`, built on `base` (its change tag and every other field kept).
    static func record(for text: NoteText, name: String, basedOn base: StoredRecord?, recordType: String) -> StoredRecord {
        var stored = base ?? StoredRecord(CloudRecord(recordName: name, recordType: recordType))
        stored.record[field: "version"] = .int64(2)
        stored.record[field: "text"] = .string(text.string)
        stored.record[field: "payload"] = .bytes(text.encodedSnapshot())
        return stored
    }

    /// The note state a record holds, edited from now on as `replica`.
    static func text(from stored: StoredRecord, replica: ReplicaID, clock: HybridLogicalClock) throws(NoteSyncError) -> NoteText {
        guard case .bytes(let payload)? = stored.record[field: "payload"] else {
            if case .string(let plain)? = stored.record[field: "text"] { return NoteText(plain, replica: replica, clock: clock) }
            return NoteText(replica: replica, clock: clock)
        }
        do {
            return try NoteText(snapshot: payload, replica: replica, clock: clock)
        } catch {
            throw NoteSyncError(.recordUnreadable, noteName: stored.recordName, "cannot decode the payload: \(error)")
        }
    }

    /// The merge of a conflict, built on the server record.
    static func merge(_ conflict: RecordConflict, replica: ReplicaID) throws(NoteSyncError) -> StoredRecord {
        var server = try text(from: conflict.server, replica: replica, clock: HybridLogicalClock())
        server.merge(try text(from: conflict.client, replica: replica, clock: HybridLogicalClock()))
        return record(for: server, name: conflict.server.recordName, basedOn: conflict.server, recordType: conflict.server.record.recordType)
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
