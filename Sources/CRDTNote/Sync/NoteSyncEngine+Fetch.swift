/// Reading the change feed around `NoteSyncCore.receive`.
extension NoteSyncEngine {
    /// Reads the change feed since the saved token and merges every change into local notes.
    /// The token advances only after a page is applied. A record that cannot be read (damaged,
    /// newer than this library, reported as an item error by the store) is passed over and
    /// reported, so it never blocks the feed; its local note and its server record stay as
    /// they were.
    public func fetchRemoteChanges() async throws(NoteSyncError) {
        try await ensureZone()
        var attempt = 0
        var fullRefetch = core.token == nil && core.notes.values.contains { $0.base != nil }
        var seen: Set<String> = []
        while true {
            let page: RecordChanges
            do {
                page = try await store.fetchChanges(in: configuration.zone, since: core.token, limit: configuration.pageLimit)
            } catch {
                attempt += 1
                if error.zoneErrorCode == .changeTokenExpired || (error.code == .invalidArguments && core.token != nil) {
                    // Expired, or not accepted (another store's, damaged): read the feed from the start.
                    core.statistics.fullRefetches += 1
                    core.token = nil
                    fullRefetch = true
                    seen.removeAll()
                } else if error.zoneErrorCode != nil {
                    try await recoverZone(after: error)
                    fullRefetch = false // every note is already marked for re-creation
                    seen.removeAll()
                } else if !error.isTransient {
                    throw NoteSyncError(.storeFailure, storeError: error, "cannot fetch changes: \(error)")
                }
                if attempt >= configuration.maxAttempts || error.isTransient {
                    try await backOff(after: error, attempt: attempt)
                }
                continue
            }
            if let transient = page.recordErrors.values.first(where: \.isTransient) {
                // Some records could not be returned this time: read the page again.
                attempt += 1
                try await backOff(after: transient, attempt: attempt)
                continue
            }
            attempt = 0
            for name in page.recordErrors.keys.sorted() {
                seen.insert(name)
                guard let error = page.recordErrors[name] else { continue }
                passOver(name, NoteSyncError(.recordUnreadable, noteName: name, storeError: error, "the store cannot return the record: \(error)"))
            }
            for stored in page.changed {
                seen.insert(stored.recordName)
                try await receiveFetched(stored)
            }
            for name in page.deletedRecordNames { core.receiveDeletion(of: name) }
            core.token = page.token
            if !page.moreComing { break }
        }
        if fullRefetch {
            // The feed restarted (zone recreated elsewhere): notes it lacks must be created again.
            core.feedRestarted(seen: seen)
        }
    }

    /// Merges one record of the feed; a copy without its asset file is fetched again first.
    func receiveFetched(_ stored: CloudRecord) async throws(NoteSyncError) {
        do {
            try core.receive(stored)
        } catch where error.code == .assetUnavailable {
            core.statistics.recordsRefetched += 1
            if !(try await refetchAndReceive(stored.recordName)) { core.statistics.recordsPassedOver += 1 }
        } catch {
            passOver(stored.recordName, error)
        }
    }

    /// Reports a record of the feed that cannot be applied and goes on without it.
    func passOver(_ name: String, _ error: NoteSyncError) {
        core.statistics.recordsPassedOver += 1
        core.noteFailed(error, name: name)
    }
}
