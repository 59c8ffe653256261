/// Folding other devices' changes into local notes.
extension NoteSyncCore {
    /// Merges a record from the server (change feed, or a fetch) into the local note, or adds
    /// the note; returns the visible change (also recorded in the report), nil if none.
    /// A note with unsaved edits is merged as a conflict would be, so nothing typed is lost.
    /// Throws, changing nothing, when the record cannot be read (damaged, newer than this
    /// library, asset not downloaded); the caller goes on with the other records.
    @discardableResult
    public mutating func receive(_ stored: CloudRecord) throws(NoteSyncError) -> NoteSyncChange? {
        let name = stored.recordName
        if let tag = stored.recordChangeTag, notes[name]?.base?.recordChangeTag == tag { return nil } // our own save
        statistics.recordsFetched += 1
        report.fetched += 1
        guard var note = notes[name] else {
            if let deleted = pendingDeletes[name] {
                // The version this device deleted, echoed back: nothing new.
                if deleted.changeTag == stored.recordChangeTag { return nil }
                // Changed elsewhere, and this device deleted it without seeing that change.
                if configuration.deleteConflictPolicy == .deleteWins { return nil }
                pendingDeletes[name] = nil
                statistics.notesResurrected += 1
            }
            let text = try Self.text(from: stored, replica: replica, clock: clock)
            notes[name] = LocalNote(text: text, base: stored, hasUnsavedChanges: false)
            report.noteChanged(name, .added)
            return .added
        }
        let before = note.text.string
        let remote: NoteText
        if note.hasUnsavedChanges {
            // Local edits meet a newer server record: merge as a conflict would.
            let client = try Self.makeRecord(for: note.text, name: name, basedOn: note.base, recordType: configuration.recordType,
                                             limits: configuration.recordLimits, mirror: configuration.textMirror)
            var ancestor = note.base
            if let base = ancestor, Self.lacksAssetBytes(base) { ancestor = nil }
            let merged = try Self.merge(RecordConflict(ancestor: ancestor, client: client, server: stored),
                                        limits: configuration.recordLimits, mirror: configuration.textMirror)
            remote = merged.note
            note.base = merged.record
        } else {
            remote = try Self.text(from: stored, replica: replica, clock: clock)
            note.base = stored
        }
        do {
            try note.text.merge(remote, recordingPatch: false)
        } catch {
            throw NoteSyncError(.recordUnreadable, noteName: name, "the server's record contradicts the local note: \(error)")
        }
        try Self.checkLimits(note.text, name: name, limits: configuration.recordLimits)
        if !remote.version.includes(note.text.version) || remote.string != note.text.string {
            // This device holds edits the server record lacks (e.g. a lost save response).
            note.hasUnsavedChanges = true
        }
        notes[name] = note
        guard note.text.string != before else { return nil }
        report.noteChanged(name, .textChanged)
        return .textChanged
    }

    /// A note was deleted on the server; returns `.removed` when the local note went away
    /// (a note with unsaved edits follows the delete policy).
    @discardableResult
    public mutating func receiveDeletion(of name: String) -> NoteSyncChange? {
        pendingDeletes[name] = nil
        guard let note = notes[name] else { return nil }
        if note.hasUnsavedChanges {
            _ = resolveDeletedWhileEdited(name)
            return notes[name] == nil ? .removed : nil
        }
        notes[name] = nil
        sent[name] = nil
        report.noteChanged(name, .removed)
        return .removed
    }

    /// The change feed restarted from the beginning (expired or foreign token, zone recreated
    /// elsewhere) and has been read to its end: notes it did not contain (`seen`) are no longer
    /// on the server and are marked to be created again.
    mutating func feedRestarted(seen: Set<String>) {
        subscriptionID = nil // the zone may have been recreated elsewhere: save the subscription again
        for (name, note) in notes where note.base != nil && !seen.contains(name) {
            var copy = note
            copy.base = note.base?.withoutServerIdentity()
            copy.hasUnsavedChanges = true
            notes[name] = copy
        }
    }
}
