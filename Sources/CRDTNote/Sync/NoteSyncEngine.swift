/// The sync loop a note app calls: runs a ``NoteSyncCore`` (every decision, on a
/// ``NoteLibrary``) against a `RecordStore` — saves the library's unsaved notes, merges
/// conflicts, folds in other devices' changes, and retries what CloudKit says to retry. A sync
/// loads only the notes it sends or receives, and writes each one back to the library as it
/// goes.
///
/// - **Save.** Unsaved notes go out in batches, each record built on the server metadata the
///   library keeps (its change tag). On `serverRecordChanged` the conflict is merged (union of
///   the CRDT states, built on the server record) and saved again, up to `maxAttempts` tries.
///   Throttling, unavailability, lost responses and cancelled operations wait
///   `retryAfterSeconds` (else exponential backoff) on the injected `Clock`. `limitExceeded`
///   splits the batch. A note stays unsaved until the server confirms the revision it sent, and
///   the library's changes are durable before anything is sent, so nothing typed is lost to a
///   failure, a lost response or a crash.
/// - **Fetch.** Changes since the saved change token are merged into the library page by page;
///   a page's notes are durable before the token that covers them is saved, so a crash only
///   fetches a page again, which merging absorbs. An expired, foreign or damaged token, or a
///   vanished zone, restarts the feed from the beginning and re-creates notes the server lost.
///   A record that cannot be read is passed over and reported.
/// - **Delete vs. edit.** See `NoteSyncConfiguration.DeleteConflictPolicy`; by default an edit
///   the deleting device had not seen brings the note back.
/// - **Accounts and zones.** Tell it the signed-in account before syncing
///   (``accountChanged(to:localNotes:)``): nothing of one account is sent into another. The
///   zone is saved only when the library does not know it exists; a zone the user deleted is
///   created again only after ``consentToRecreateZone()``, and a purged one removes the local
///   notes after reporting them (``zoneWasDeleted(_:)``).
///
/// ```swift
/// let library = try NoteLibrary(folder: folder, replica: replica)
/// let engine = NoteSyncEngine(library: library, store: store)
/// try library.create("note-1", text: "Groceries")
/// let report = try await engine.sync()   // report.changes: notes other devices changed
/// ```
public actor NoteSyncEngine {
    /// The store notes are synced with.
    public nonisolated let store: any RecordStore
    /// The library whose notes are synced.
    public nonisolated let library: NoteLibrary
    /// Behaviour settings.
    public nonisolated let configuration: NoteSyncConfiguration
    /// The clock retry waits sleep on (inject a test clock to record them instead).
    let retryClock: any Clock<Duration>
    /// The decisions.
    var core: NoteSyncCore
    var zoneReady = false
    /// The change-feed position and subscription, as saved in the library (read when needed).
    var transport: EngineTransportState?

    /// An engine syncing `library` with `store`. `retryClock` is what waits before retries
    /// sleep on (`ContinuousClock()`; tests pass a clock that only records).
    public init(library: NoteLibrary, store: any RecordStore, configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
                retryClock: any Clock<Duration> = ContinuousClock()) {
        self.init(library: library, store: store, configuration: configuration, retryClock: retryClock, wallClock: .system)
    }

    /// An engine dating device records by `wallClock` (simulations pass a manual one).
    package init(library: NoteLibrary, store: any RecordStore, configuration: NoteSyncConfiguration,
                 retryClock: any Clock<Duration>, wallClock: PhysicalClock) {
        self.library = library
        self.store = store
        self.configuration = configuration
        self.retryClock = retryClock
        self.core = NoteSyncCore(library: library, configuration: configuration, wallClock: wallClock)
    }

    /// Cumulative counters.
    public var statistics: NoteSyncStatistics { core.statistics }

    /// The devices syncing the notes (from their device records, as of the last fetch), the
    /// format note records are written in, and the devices that hold it back.
    public func fleet() throws(NoteSyncError) -> NoteFleet {
        try core.fleet()
    }

    // MARK: Sync

    /// Fetches remote changes, saves local ones, and returns what happened: the notes that
    /// changed visibly, and the notes that failed (left as they were). Throws when the store
    /// keeps failing, the library cannot be written, or the task is cancelled; everything
    /// unsaved stays pending for the next call.
    @discardableResult
    public func sync() async throws(NoteSyncError) -> NoteSyncReport {
        _ = core.takeReport()
        try await fetchRemoteChanges()
        try await pushLocalChanges()
        return core.takeReport()
    }

    /// The change-feed position and subscription saved in the library.
    func transportState() throws(NoteSyncError) -> EngineTransportState {
        if let transport { return transport }
        let state = EngineTransportState(decoding: try core.transportState())
        transport = state
        return state
    }

    /// Saves the change-feed position and subscription (after every note received so far).
    func saveTransport(_ state: EngineTransportState) throws(NoteSyncError) {
        try core.saveTransportState(state.encoded())
        transport = state
    }

    /// Throws `.cancelled` when the task running the sync was cancelled.
    func checkCancellation() throws(NoteSyncError) {
        if Task.isCancelled { throw NoteSyncError(.cancelled, "the sync task was cancelled; unsaved edits stay pending") }
    }

    /// Waits before retry `attempt` of a request that failed with `error` (`wait`, else the
    /// error's retry-after, else exponential backoff).
    func backOff(after error: RecordStoreError, attempt: Int, wait: Duration? = nil) async throws(NoteSyncError) {
        try checkCancellation()
        guard attempt < configuration.maxAttempts else {
            throw NoteSyncError(.attemptsExhausted, noteName: error.recordName, storeError: error,
                                "gave up after \(attempt) tries: \(error)")
        }
        let duration = wait ?? error.retryAfterSeconds.map { .seconds($0) } ?? configuration.backoff(attempt: attempt)
        core.statistics.retries += 1
        core.statistics.timeWaited += duration
        do {
            try await retryClock.sleep(for: duration)
        } catch {
            throw NoteSyncError(.cancelled, "the sync task was cancelled while waiting to retry; unsaved edits stay pending")
        }
    }

    /// Makes sure the zone exists: saved only when the library does not know it exists (first
    /// sync, after it vanished, after the app consented to re-creating it), never on every
    /// launch, which would undo a deletion made while the app was closed. Throws `.signedOut`
    /// after a sign-out and `.zoneDeletedByUser` while a deleted zone waits for consent.
    func ensureZone() async throws(NoteSyncError) {
        guard !zoneReady else { return }
        if try core.isSignedOut() {
            throw NoteSyncError(.signedOut, "the account signed out; nothing syncs until an account signs in")
        }
        switch try core.zoneStatus() {
        case .deletedAwaitingConsent:
            throw NoteSyncCore.zoneDeletedByUser(nil)
        case .exists:
            zoneReady = true
        case .needsSaving:
            try await saveZone()
        }
        try await ensureSubscription()
    }

    /// Saves the zone and remembers that it exists.
    func saveZone() async throws(NoteSyncError) {
        var attempt = 0
        while true {
            attempt += 1
            do throws(RecordStoreError) {
                try await store.createZone(configuration.zone)
            } catch {
                guard error.isTransient else { throw NoteSyncError(.storeFailure, storeError: error, "cannot save the notes zone: \(error)") }
                try await backOff(after: error, attempt: attempt)
                continue
            }
            try core.zoneWasSaved()
            zoneReady = true
            return
        }
    }

    /// After the zone vanished (server reset, user deletion), once per failed request: recreate
    /// it and read the feed from the start; notes are created again after that. A zone the user
    /// deleted waits for the app's consent instead (`.zoneDeletedByUser`).
    func recoverZone(after error: RecordStoreError) async throws(NoteSyncError) {
        // The zone's change feed and subscriptions went with it.
        try forgetZoneTransport()
        try core.zoneWasLost(error)
        try await ensureZone()
    }

    /// Forgets the change token and subscription of a zone that is gone.
    func forgetZoneTransport() throws(NoteSyncError) {
        try saveTransport(EngineTransportState())
        zoneReady = false
    }
}
