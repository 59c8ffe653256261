/// Hooks for apps whose transport is not a `RecordStore` but, for example, `CKSyncEngine`:
/// the transport sends and fetches, and the engine makes every decision (merge, resurrect,
/// confirm) exactly as its own loop does. See Docs/CloudKit.md, "Using CKSyncEngine".
extension NoteSyncEngine {
    /// The record to send for a note (its text on its base record), or nil when the note is
    /// gone or has nothing unsaved. Remembers the revision sent, for `recordWasSaved`.
    public func recordToSend(for name: String) throws(NoteSyncError) -> CloudRecord? {
        guard let note = notes[name], note.hasUnsavedChanges else { return nil }
        let stored = try record(for: name, note)
        sentRevisions[name] = note.revision
        return stored
    }

    /// The server saved a note's record: it becomes the base; the note is confirmed unless it
    /// was edited after `recordToSend`.
    public func recordWasSaved(_ saved: CloudRecord) {
        let name = saved.recordName
        confirm([saved], revisions: sentRevisions[name].map { [name: $0] } ?? [:])
        sentRevisions[name] = nil
    }

    /// A save of a note failed. Merges conflicts, applies the delete policy, prepares a
    /// re-creation after zone loss. Returns whether the note should be sent again.
    public func recordSaveFailed(_ name: String, error: RecordStoreError) throws(NoteSyncError) -> Bool {
        sentRevisions[name] = nil
        switch error.code {
        case .serverRecordChanged:
            guard let conflict = error.conflict else { return true }
            do {
                try mergeConflict(conflict, name: name)
            } catch {
                report.failedNotes.append(name)
                return false
            }
            return true
        case .unknownItem:
            if case .retry = resolveDeletedWhileEdited(name) { return true }
            return false
        case .zoneNotFound, .userDeletedZone:
            guard var note = notes[name] else { return false }
            note.base = note.base?.withoutServerIdentity()
            note.hasUnsavedChanges = true
            notes[name] = note
            return true
        case .limitExceeded:
            return false
        default:
            return error.isTransient
        }
    }

    /// A record arrived from the server (e.g. `fetchedRecordZoneChanges` modifications).
    public func receive(_ stored: CloudRecord) throws(NoteSyncError) {
        try apply(stored)
    }

    /// A record was deleted on the server (e.g. `fetchedRecordZoneChanges` deletions).
    public func receiveDeletion(of name: String) {
        applyDeletion(of: name)
    }

    /// Notes deleted here whose delete the transport still has to send.
    public var pendingDeleteNames: [String] { pendingDeletes.keys.sorted() }

    /// The transport deleted a note on the server.
    public func deleteWasSent(_ name: String) {
        pendingDeletes[name] = nil
    }
}
