import CRDTNote

/// Fetching, account changes and zone deletions, as `CKSyncEngine` reports them.
extension SyncEngineModel {
    /// Fetches database and zone changes (`CKSyncEngine.fetchChanges()`), delivering the events.
    public func fetchChanges() async throws(Crashed) {
        try await startIfNeeded()
        guard let database else { return }
        try await emit(.willFetchChanges, "willFetchChanges")
        // The database's zone deletions since the last fetch (none reported at the first one).
        let (deletions, position) = await database.zoneDeletions(since: state.databasePosition ?? Int.max)
        if state.databasePosition != position {
            state.databasePosition = position
            unsavedStateChanges += 1
        }
        if !deletions.isEmpty {
            if deletions.contains(where: { $0.zone.zoneName == zone.zoneName }) { state.token = nil }
            let notices = deletions.map { ExternalSyncEvent.ZoneDeletion(zone: $0.zone, reason: $0.reason) }
            try await emit(.fetchedDatabaseChanges(modified: [], deleted: notices), "fetchedDatabaseChanges")
        }
        try await emit(.willFetchRecordZoneChanges(zone), "willFetchRecordZoneChanges")
        var failure: RecordStoreError?
        while true {
            let page: (modifications: [String: Result<CloudRecord, CloudKitFailure>], deletions: [String], changeToken: ChangeToken, moreComing: Bool)
            do {
                page = try await database.recordZoneChanges(in: zone, since: state.token.map(ChangeToken.init(bytes:)), resultsLimit: 50)
            } catch {
                if error.code == .changeTokenExpired && state.token != nil {
                    state.token = nil   // CKSyncEngine fetches the zone again from its start
                    continue
                }
                if error.code != .zoneNotFound { failure = RecordStoreError(cloudKit: error) }
                break
            }
            // CKSyncEngine delivers the records it could read; the others are not events.
            let records = page.modifications.keys.sorted().compactMap { name -> CloudRecord? in
                if case .success(let record)? = page.modifications[name] { return record }
                return nil
            }
            try await emit(.fetchedRecordZoneChanges(modified: records, deleted: page.deletions.sorted()), "fetchedRecordZoneChanges")
            state.token = page.changeToken.bytes
            unsavedStateChanges += 1
            try await checkpoint()
            if !page.moreComing { break }
        }
        try await emit(.didFetchRecordZoneChanges(zone, error: failure), "didFetchRecordZoneChanges")
        try await emit(.didFetchChanges, "didFetchChanges")
        try await checkpoint()
    }

    /// The device's account changes to `account` with `database` (nil: signed out): pending
    /// changes and tokens are cleared and the change is reported at once.
    public func changeAccount(to account: String?, database: InMemoryCloudDatabase?) async throws(Crashed) {
        let previous = self.account
        self.account = account
        self.database = database
        started = true
        try await accountChanged(from: previous, to: account)
    }

    /// On the first fetch or send: the account the state was saved under is compared with the
    /// current one, as `CKSyncEngine` does at start.
    func startIfNeeded() async throws(Crashed) {
        guard !started else { return }
        started = true
        if restoredAccount == nil && account != nil {
            try await emit(.accountChange(.signIn(current: account ?? "")), "accountChange")
            try await saveState()
        } else if restoredAccount != account {
            try await accountChanged(from: restoredAccount, to: account)
        }
    }

    /// Clears the state and reports the change.
    func accountChanged(from previous: String?, to current: String?) async throws(Crashed) {
        state = SavedState(account: current)
        unsavedStateChanges += 1
        let change: ExternalSyncEvent.AccountChange
        switch (previous, current) {
        case (let previous?, let current?): change = .switchAccounts(previous: previous, current: current)
        case (let previous?, nil): change = .signOut(previous: previous)
        case (nil, let current?): change = .signIn(current: current)
        case (nil, nil): return
        }
        try await emit(.accountChange(change), "accountChange")
        try await saveState()
    }
}
