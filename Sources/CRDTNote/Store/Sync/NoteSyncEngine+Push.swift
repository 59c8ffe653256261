/// Saving local edits and deletes.
extension NoteSyncEngine {
    /// What to do with one record after its save failed.
    enum ItemOutcome {
        /// Try again, after waiting this long.
        case retry(afterSeconds: Double)
        /// Leave the note unsaved and go on (reported in `failedNotes`).
        case giveUp
        /// The note is settled (e.g. dropped by `.deleteWins`).
        case done
    }

    /// Sends pending deletes, then saves every unsaved note.
    public func pushLocalChanges() async throws(NoteSyncError) {
        try await ensureZone()
        try await pushDeletes()
        let names = unsavedNoteNames
        var start = 0
        while start < names.count {
            let end = min(start + configuration.batchSize, names.count)
            try await save(Array(names[start..<end]))
            start = end
        }
    }

    /// Saves the named notes until each is confirmed, merged-and-confirmed, or given up.
    func save(_ names: [String]) async throws(NoteSyncError) {
        var remaining = names
        var attempt = 0
        while !remaining.isEmpty {
            attempt += 1
            var revisions: [String: UInt64] = [:]
            var records: [CloudRecord] = []
            for name in remaining {
                guard let note = notes[name], note.hasUnsavedChanges else { continue }
                do {
                    records.append(try record(for: name, note))
                    revisions[name] = note.revision
                } catch {
                    report.failedNotes.append(name) // e.g. the base record is newer than this library
                }
            }
            if records.isEmpty { return }
            do {
                let saved = try await store.saveRecords(records, in: configuration.zone)
                confirm(saved, revisions: revisions)
                return
            } catch {
                switch error.code {
                case .partialFailure:
                    confirm(error.saved, revisions: revisions)
                    var retry: [String] = []
                    var wait = 0.0
                    for name in error.itemErrors.keys.sorted() {
                        guard let item = error.itemErrors[name] else { continue }
                        switch try await handle(item, for: name) {
                        case .retry(let seconds):
                            retry.append(name)
                            wait = max(wait, seconds)
                        case .giveUp: report.failedNotes.append(name)
                        case .done: break
                        }
                    }
                    remaining = retry
                    if !remaining.isEmpty && wait > 0 {
                        try await backOff(after: RecordStoreError(.serviceUnavailable, retryAfterSeconds: wait, "items failed"), attempt: attempt)
                    } else if !remaining.isEmpty && attempt >= configuration.maxAttempts {
                        throw NoteSyncError(.attemptsExhausted, noteName: remaining.first, storeError: error, "gave up after \(attempt) tries: \(error)")
                    }
                case .limitExceeded where remaining.count > 1:
                    statistics.batchSplits += 1
                    let half = remaining.count / 2
                    try await save(Array(remaining[..<half]))
                    try await save(Array(remaining[half...]))
                    return
                case .zoneNotFound, .userDeletedZone:
                    try await recoverZone(after: error)
                    remaining = unsavedNoteNames.filter { remaining.contains($0) }
                    if attempt >= configuration.maxAttempts {
                        throw NoteSyncError(.attemptsExhausted, storeError: error, "the zone kept vanishing: \(error)")
                    }
                default:
                    if error.isTransient {
                        try await backOff(after: error, attempt: attempt)
                    } else if let name = error.recordName, remaining.count == 1 {
                        // A single-record request failing for that record: treat it as an item.
                        switch try await handle(error, for: name) {
                        case .retry(let seconds):
                            if seconds > 0 || attempt >= configuration.maxAttempts {
                                try await backOff(after: RecordStoreError(.serviceUnavailable, retryAfterSeconds: seconds, "\(error)"), attempt: attempt)
                            }
                        case .giveUp:
                            report.failedNotes.append(name)
                            return
                        case .done: return
                        }
                    } else {
                        throw NoteSyncError(.storeFailure, storeError: error, "cannot save notes: \(error)")
                    }
                }
            }
        }
    }

    /// Marks saved records confirmed; a note edited during the request stays unsaved.
    func confirm(_ saved: [CloudRecord], revisions: [String: UInt64]) {
        for version in saved {
            let name = version.recordName
            guard var note = notes[name] else { continue } // deleted locally meanwhile: the delete follows
            note.base = version
            if note.revision == revisions[name] { note.hasUnsavedChanges = false }
            notes[name] = note
            statistics.recordsSaved += 1
            report.saved += 1
        }
    }

    /// Decides what one failed item needs.
    func handle(_ error: RecordStoreError, for name: String) async throws(NoteSyncError) -> ItemOutcome {
        switch error.code {
        case .serverRecordChanged:
            guard let conflict = error.conflict else { return .retry(afterSeconds: configuration.backoff(attempt: 1)) }
            do {
                try mergeConflict(conflict, name: name)
            } catch {
                // The server record is newer than this library or unreadable: leave it alone.
                return .giveUp
            }
            return .retry(afterSeconds: 0)
        case .unknownItem:
            return resolveDeletedWhileEdited(name)
        case .limitExceeded:
            return .giveUp
        case .zoneNotFound, .userDeletedZone:
            try await recoverZone(after: error)
            return .retry(afterSeconds: 0)
        default:
            if error.isTransient { return .retry(afterSeconds: error.retryAfterSeconds ?? configuration.backoff(attempt: 1)) }
            throw NoteSyncError(.storeFailure, noteName: name, storeError: error, "cannot save note: \(error)")
        }
    }

    /// Merges a save conflict into the local note; the next save builds on the merged record,
    /// which carries the server's change tag.
    func mergeConflict(_ conflict: RecordConflict, name: String) throws(NoteSyncError) {
        let merged = try NoteSyncEngine.merge(conflict, limits: configuration.recordLimits)
        guard var note = notes[name] else { return }
        do {
            try note.text.merge(merged.note)
        } catch {
            throw NoteSyncError(.recordUnreadable, noteName: name, "the merged record contradicts the local note: \(error)")
        }
        try NoteSyncEngine.checkLimits(note.text, name: name, limits: configuration.recordLimits)
        note.base = merged.record
        notes[name] = note
        statistics.conflictsMerged += 1
        report.conflictsMerged += 1
    }

    /// The record was deleted on the server while this device had unsaved edits.
    func resolveDeletedWhileEdited(_ name: String) -> ItemOutcome {
        guard var note = notes[name] else { return .done }
        switch configuration.deleteConflictPolicy {
        case .editResurrects:
            note.base = note.base?.withoutServerIdentity()
            notes[name] = note
            statistics.notesResurrected += 1
            return .retry(afterSeconds: 0)
        case .deleteWins:
            notes[name] = nil
            statistics.editsDroppedByDelete += 1
            return .done
        }
    }
}
