/// Folding other devices' changes into local notes.
extension NoteSyncEngine {
    /// Reads the change feed since the saved token and merges every change into local notes.
    /// The token advances only after a page is applied.
    public func fetchRemoteChanges() async throws(NoteSyncError) {
        try await ensureZone()
        var attempt = 0
        var fullRefetch = token == nil && notes.values.contains { $0.base != nil }
        var seen: Set<String> = []
        while true {
            let page: RecordChanges
            do {
                page = try await store.fetchChanges(in: configuration.zone, since: token, limit: configuration.pageLimit)
            } catch {
                attempt += 1
                switch error.code {
                case .changeTokenExpired:
                    statistics.fullRefetches += 1
                    token = nil
                    fullRefetch = true
                    seen.removeAll()
                case .zoneNotFound, .userDeletedZone:
                    try await recoverZone(after: error)
                    fullRefetch = false // every note is already marked for re-creation
                    seen.removeAll()
                default:
                    guard error.isTransient else {
                        throw NoteSyncError(.storeFailure, storeError: error, "cannot fetch changes: \(error)")
                    }
                }
                if attempt >= configuration.maxAttempts || error.isTransient {
                    try await backOff(after: error, attempt: attempt)
                }
                continue
            }
            for stored in page.changed {
                seen.insert(stored.recordName)
                do {
                    try apply(stored)
                } catch {
                    // A record this library cannot read (newer schema, damage) is left alone;
                    // the rest of the feed is still applied.
                    report.failedNotes.append(stored.recordName)
                }
            }
            for name in page.deletedRecordNames { applyDeletion(of: name) }
            token = page.token
            if !page.moreComing { break }
        }
        if fullRefetch {
            // The feed restarted (zone recreated elsewhere): notes it lacks must be created again.
            for (name, note) in notes where note.base != nil && !seen.contains(name) {
                var copy = note
                copy.base = note.base?.withoutServerIdentity()
                copy.hasUnsavedChanges = true
                notes[name] = copy
            }
        }
    }

    /// Merges one fetched record into the local note (or adds the note).
    func apply(_ stored: CloudRecord) throws(NoteSyncError) {
        let name = stored.recordName
        if let tag = stored.recordChangeTag, notes[name]?.base?.recordChangeTag == tag { return } // our own save
        statistics.recordsFetched += 1
        report.fetched += 1
        guard var note = notes[name] else {
            if let deletedTag = pendingDeletes[name] {
                // The version this device deleted, echoed back: nothing new.
                if deletedTag == (stored.recordChangeTag ?? "") { return }
                // Changed elsewhere, and this device deleted it without seeing that change.
                if configuration.deleteConflictPolicy == .deleteWins { return }
                pendingDeletes[name] = nil
                statistics.notesResurrected += 1
            }
            let text = try NoteSyncEngine.text(from: stored, replica: replica, clock: clock)
            notes[name] = LocalNote(text: text, base: stored, hasUnsavedChanges: false)
            return
        }
        let remote: NoteText
        if note.hasUnsavedChanges {
            // Local edits meet a newer server record: merge as a conflict would.
            let client = try record(for: name, note)
            let merged = try NoteSyncEngine.merge(RecordConflict(ancestor: note.base, client: client, server: stored),
                                                    limits: configuration.recordLimits)
            remote = merged.note
            note.base = merged.record
        } else {
            remote = try NoteSyncEngine.text(from: stored, replica: replica, clock: clock)
            note.base = stored
        }
        do {
            try note.text.merge(remote)
        } catch {
            throw NoteSyncError(.recordUnreadable, noteName: name, "the server's record contradicts the local note: \(error)")
        }
        try NoteSyncEngine.checkLimits(note.text, name: name, limits: configuration.recordLimits)
        if !remote.version.includes(note.text.version) || remote.string != note.text.string {
            // This device holds edits the server record lacks (e.g. a lost save response).
            note.hasUnsavedChanges = true
        }
        notes[name] = note
    }

    /// A note was deleted on the server.
    func applyDeletion(of name: String) {
        pendingDeletes[name] = nil
        guard let note = notes[name] else { return }
        if note.hasUnsavedChanges {
            _ = resolveDeletedWhileEdited(name)
        } else {
            notes[name] = nil
        }
    }
}
