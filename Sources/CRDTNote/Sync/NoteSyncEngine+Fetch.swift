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
        var transport = try transportState()
        if transport.token != nil, try core.feedNeedsRereading() {
            // Too many records were passed over to fetch one by one: read the feed again.
            transport.token = nil
            try saveTransport(transport)
        }
        // Without a token, notes synced before are checked against the whole feed.
        var fullRefetch = transport.token == nil
        // Whether the feed is read from its beginning (device records included).
        var fromStart = fullRefetch
        var seen: Set<String> = []
        while true {
            let page: RecordChanges
            do {
                page = try await store.fetchChanges(in: configuration.zone, since: transport.token, limit: configuration.pageLimit)
            } catch {
                attempt += 1
                if error.zoneErrorCode == .changeTokenExpired || (error.code == .invalidArguments && transport.token != nil) {
                    // Expired, or not accepted (another store's, damaged): read the feed from the start.
                    core.statistics.fullRefetches += 1
                    transport.token = nil
                    fullRefetch = true
                    fromStart = true
                    seen.removeAll()
                    if transport.subscriptionID != nil {
                        // The zone may have been recreated (by this engine's createZone after a
                        // restart, or elsewhere), which takes its subscriptions: save it again.
                        transport.subscriptionID = nil
                        try saveTransport(transport)
                        try await ensureSubscription()
                        transport = try transportState()
                    }
                } else if error.zoneErrorCode != nil {
                    try await recoverZone(after: error)
                    transport = try transportState()
                    fullRefetch = false // every note is already marked for re-creation
                    fromStart = true
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
            for name in page.deletedRecordNames { try core.receiveDeletion(of: name) }
            if !page.moreComing && fullRefetch {
                // The feed restarted (zone recreated elsewhere): notes it lacks must be created
                // again, before the token says the feed was read.
                try core.feedRestarted(seen: seen)
            }
            // The token is saved after the page's notes (durable together, see saveTransportState).
            if page.token != transport.token || !page.changed.isEmpty || !page.deletedRecordNames.isEmpty {
                transport.token = page.token
                try saveTransport(transport)
                try flushLibrary()
            }
            if !page.moreComing { break }
        }
        try core.changesFetched(fromStart: fromStart)
        if fromStart, try core.feedNeedsRereading() { try core.feedWasReread() }
        try await fetchSkippedRecordsAgain()
    }

    /// Records passed over for needing a newer reader, fetched again now that this device
    /// reads more: the change feed moved past them and would not bring them back.
    func fetchSkippedRecordsAgain() async throws(NoteSyncError) {
        for name in try core.recordsToFetchAgain() {
            let fetched: CloudRecord?
            do throws(RecordStoreError) {
                fetched = try await store.fetchRecord(named: name, in: configuration.zone)
            } catch {
                if error.isTransient { return } // the next fetch tries again
                passOver(name, NoteSyncError(.storeFailure, noteName: name, storeError: error, "cannot fetch the record again: \(error)"))
                continue
            }
            if let fresh = fetched {
                do {
                    try core.receive(fresh)
                } catch where error.code == .persistFailed {
                    throw error
                } catch where error.code == .newerVersionAvailable {
                    core.noteFailed(error, name: name) // still newer than this device reads: kept for later
                    continue
                } catch {
                    passOver(name, error)
                }
            }
            try core.recordWasFetchedAgain(name)
        }
    }

    /// Lets the library compact when its journal has grown (as a first download makes it).
    func flushLibrary() throws(NoteSyncError) {
        do { try library.flush() } catch { throw NoteSyncError(library: error) }
    }

    /// Merges one record of the feed; a copy without its asset file is fetched again first.
    func receiveFetched(_ stored: CloudRecord) async throws(NoteSyncError) {
        do {
            try core.receive(stored)
        } catch where error.code == .persistFailed {
            throw error
        } catch where error.code == .assetUnavailable {
            core.statistics.recordsRefetched += 1
            if try await refetchAndReceive(stored.recordName) {
                core.report.failures[stored.recordName] = nil // the copy fetched again was read
            } else {
                core.statistics.recordsPassedOver += 1
            }
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
