/// Saving local edits: the requests, retries and batch splits around `NoteSyncCore`'s decisions.
extension NoteSyncEngine {
    /// Sends pending deletes, then saves every unsaved note, and this device's record when it
    /// is due (Docs/RECORD-FORMAT.md, "Device records").
    public func pushLocalChanges() async throws(NoteSyncError) {
        try await ensureZone()
        try await pushDeletes()
        // This device's record, when due, goes with the first batch of notes.
        let names = try core.pendingChanges().recordsToSave
        var start = 0
        while start < names.count {
            let end = min(start + configuration.batchSize, names.count)
            try await save(Array(names[start..<end]))
            start = end
        }
        // The confirmations (the server's change tags) are made durable too: a power loss that
        // took them would leave this device taking its own saves for other devices' changes
        // (and a later delete of the note for a conflict with them).
        try flushLibrary()
    }

    /// Saves the named notes until each is confirmed, merged-and-confirmed, or given up.
    func save(_ names: [String]) async throws(NoteSyncError) {
        var remaining = names
        var attempt = 0
        while !remaining.isEmpty {
            attempt += 1
            try checkCancellation()
            var records: [CloudRecord] = []
            for name in remaining {
                do {
                    if let record = try core.recordToSend(for: name) { records.append(record) }
                } catch where error.code == .persistFailed {
                    throw error
                } catch {
                    core.noteFailed(error, name: name) // e.g. the base record is newer than this library
                }
            }
            if records.isEmpty { return }
            var saved: [CloudRecord] = []
            var failure: RecordStoreError?
            do {
                saved = try await store.saveRecords(records, in: configuration.zone)
            } catch {
                failure = error
            }
            guard let error = failure else {
                for version in saved { try core.recordWasSaved(version) }
                return
            }
            if error.code == .partialFailure { for version in error.saved { try core.recordWasSaved(version) } }
            if let zoneCode = error.zoneErrorCode, zoneCode != .changeTokenExpired {
                // One recovery for the request, however many of its items named the zone.
                try await recoverZone(after: error)
                remaining = try core.pendingChanges().recordsToSave.filter { remaining.contains($0) }
                if attempt >= configuration.maxAttempts {
                    throw NoteSyncError(.attemptsExhausted, storeError: error, "the zone kept vanishing: \(error)")
                }
                continue
            }
            switch error.code {
            case .partialFailure:
                var retry: [String] = []
                var wait: Duration = .zero
                for name in error.itemErrors.keys.sorted() {
                    guard let item = error.itemErrors[name] else { continue }
                    if let seconds = try await resolve(item, for: name) {
                        retry.append(name)
                        wait = max(wait, seconds)
                    }
                }
                remaining = retry
                if !remaining.isEmpty && wait > .zero {
                    try await backOff(after: error, attempt: attempt, wait: wait)
                } else if !remaining.isEmpty && attempt >= configuration.maxAttempts {
                    throw NoteSyncError(.attemptsExhausted, noteName: remaining.first, storeError: error, "gave up after \(attempt) tries: \(error)")
                }
            case .limitExceeded where remaining.count > 1:
                core.statistics.batchSplits += 1
                let half = remaining.count / 2
                try await save(Array(remaining[..<half]))
                try await save(Array(remaining[half...]))
                return
            default:
                if error.isTransient {
                    try await backOff(after: error, attempt: attempt)
                } else if let name = error.recordName, remaining.count == 1 {
                    // A single-record request failing for that record: treat it as an item.
                    guard let wait = try await resolve(error, for: name) else { return }
                    if wait > .zero || attempt >= configuration.maxAttempts {
                        try await backOff(after: error, attempt: attempt, wait: wait)
                    }
                } else {
                    throw NoteSyncError(.storeFailure, storeError: error, "cannot save notes: \(error)")
                }
            }
        }
    }

    /// Carries out the core's decision for one failed item: nil when the note is settled or
    /// given up, else the wait before sending it again.
    func resolve(_ item: RecordStoreError, for name: String) async throws(NoteSyncError) -> Duration? {
        switch core.recordSaveFailed(name, error: item) {
        case .sendAgain:
            return .zero
        case .retryLater(let after):
            return after ?? configuration.backoff(attempt: 1)
        case .fetchServerRecord:
            // The conflict's server record came without its asset: fetch it whole and merge.
            return try await refetchAndReceive(name) ? .zero : nil
        case .recreateZone:
            try await recoverZone(after: item)
            return .zero
        case .giveUp, .done:
            return nil
        case .stop(let error):
            throw error
        }
    }

    /// Fetches `name` and merges it into the local note; false (reported) when that fails.
    func refetchAndReceive(_ name: String) async throws(NoteSyncError) -> Bool {
        var attempt = 0
        while true {
            attempt += 1
            let fetched: CloudRecord?
            do throws(RecordStoreError) {
                fetched = try await store.fetchRecord(named: name, in: configuration.zone)
            } catch {
                guard error.isTransient else {
                    core.noteFailed(NoteSyncError(.assetUnavailable, noteName: name, storeError: error,
                                                  "cannot fetch the record whose asset is missing: \(error)"), name: name)
                    return false
                }
                try await backOff(after: error, attempt: attempt)
                continue
            }
            guard let fresh = fetched else { return try core.resolveDeletedWhileEdited(name) }
            do {
                try core.receive(fresh)
                return true
            } catch where error.code == .persistFailed {
                throw error
            } catch {
                core.noteFailed(error, name: name)
                return false
            }
        }
    }
}
