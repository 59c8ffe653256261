/// The sync loop a note app calls: runs a ``NoteSyncCore`` (this device's notes and every
/// decision) against a `RecordStore` — saves local edits, merges conflicts, folds in other
/// devices' changes, and retries what CloudKit says to retry.
///
/// - **Save.** Unsaved notes go out in batches, each record built on the last server record
///   seen (its change tag). On `serverRecordChanged` the conflict is merged (union of the CRDT
///   states, built on the server record) and saved again, up to `maxAttempts` tries. Throttling,
///   unavailability, lost responses and cancelled operations wait `retryAfterSeconds` (else
///   exponential backoff) on the injected `Clock`. `limitExceeded` splits the batch. A note
///   stays "unsaved" until the server confirms the revision it sent, so nothing typed is lost to
///   a failure, a lost response or a restart.
/// - **Fetch.** Changes since the saved token are merged into local notes; an expired, foreign
///   or damaged token, or a vanished zone, restarts the feed from the beginning and re-creates
///   notes the server lost. A record that cannot be read is passed over and reported.
/// - **Delete vs. edit.** See `NoteSyncConfiguration.DeleteConflictPolicy`; by default an edit
///   the deleting device had not seen brings the note back.
///
/// ```swift
/// let engine = try NoteSyncEngine(store: store, replica: .random())
/// await engine.createNote("note-1", text: "Groceries")
/// let report = try await engine.sync()   // report.changes: notes other devices changed
/// ```
public actor NoteSyncEngine {
    /// The store notes are synced with.
    public nonisolated let store: any RecordStore
    /// This device's replica id for every note it edits.
    public nonisolated let replica: ReplicaID
    /// Behaviour settings.
    public nonisolated let configuration: NoteSyncConfiguration
    /// The clock retry waits sleep on (inject a test clock to record them instead).
    let retryClock: any Clock<Duration>
    /// The notes and every decision about them.
    var core: NoteSyncCore
    var zoneReady = false
    /// Persists the state before local changes are sent (nil: the app persists on its own).
    let persistState: (@Sendable (NoteSyncState) async throws -> Void)?

    /// An engine with no notes, or resuming `state`. `clock` stamps edits; `retryClock` is what
    /// waits before retries sleep on (`ContinuousClock()`; tests pass a clock that only records).
    ///
    /// `persistState` writes the state where the app keeps it (the same place it is resumed
    /// from). The engine calls it before sending local changes made since its last call, so no
    /// edit reaches the server before a persisted state contains it: a process that dies after
    /// sending and restarts from its persisted state never reuses the ids of edits the server
    /// already has (Docs/CloudKit.md, "Crashes"). Pass it in apps; without it, the app must
    /// persist after every edit and before every `sync()`.
    public init(store: any RecordStore, replica: ReplicaID, configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
                clock: HybridLogicalClock = HybridLogicalClock(), state: NoteSyncState? = nil,
                retryClock: any Clock<Duration> = ContinuousClock(),
                persistState: (@Sendable (NoteSyncState) async throws -> Void)? = nil) throws(NoteSyncError) {
        self.persistState = persistState
        self.store = store
        self.replica = replica
        self.configuration = configuration
        self.retryClock = retryClock
        self.core = try NoteSyncCore(replica: replica, configuration: configuration, clock: clock, state: state)
    }

    // MARK: Local notes

    /// Cumulative counters.
    public var statistics: NoteSyncStatistics { core.statistics }

    /// Names of the notes on this device, sorted.
    public var noteNames: [String] { core.noteNames }

    /// Names of notes with edits the server has not confirmed, sorted.
    public var unsavedNoteNames: [String] { core.unsavedNoteNames }

    /// Notes deleted here whose delete the server has not confirmed, sorted.
    public var pendingDeleteNames: [String] { core.pendingDeleteNames }

    /// The text of a note, nil if there is no such note.
    public func text(of name: String) -> String? { core.text(of: name) }

    /// The CRDT state of a note.
    public func note(_ name: String) -> NoteText? { core.note(name) }

    /// Creates a note (or, if it exists, replaces its text as an edit).
    ///
    /// Throws `.invalidEdit`, changing nothing, when the text exceeds the note's limits.
    public func createNote(_ name: String, text: String = "") throws(NoteSyncError) { try core.createNote(name, text: text) }

    /// Replaces a note's whole text; the difference becomes CRDT edits.
    ///
    /// Throws `.invalidEdit`, changing nothing, when the result would exceed the note's limits.
    public func setText(_ text: String, of name: String) throws(NoteSyncError) { try core.setText(text, of: name) }

    /// `NoteText.setText`, its refusal reported as a sync error about note `name`.
    private func setText(_ text: String, of note: inout NoteText, name: String) throws(NoteSyncError) {
        do {
            try note.setText(text)
        } catch {
            throw NoteSyncError(.invalidEdit, noteName: name, "\(error)")
        }
    }

    /// Applies an edit to a note's text (scalar or UTF-16 ranges, see `NoteText`).
    public func edit(_ name: String, _ body: @Sendable (inout NoteText) throws -> Void) throws(NoteSyncError) {
        try core.edit(name, body)
    }

    /// Deletes a note here and, at the next sync, on the server.
    public func deleteNote(_ name: String) { core.deleteNote(name) }

    /// Everything to persist for a restart (`Codable`).
    public func savedState() -> NoteSyncState { core.savedState() }

    // MARK: Sync

    /// Fetches remote changes, saves local ones, and returns what happened: the notes that
    /// changed visibly, and the notes that failed (left as they were). Throws when the store
    /// keeps failing or the task is cancelled; everything unsaved stays pending for the next call.
    @discardableResult
    public func sync() async throws(NoteSyncError) -> NoteSyncReport {
        _ = core.takeReport()
        try await fetchRemoteChanges()
        try await pushLocalChanges()
        return core.takeReport()
    }

    /// Persists the state (``init(store:replica:configuration:clock:state:retryClock:persistState:)``)
    /// if local changes were made since the last time, so they never leave the device unpersisted.
    /// Call it right before building what is sent, with no suspension in between.
    func persistBeforeSending() async throws(NoteSyncError) {
        guard let persistState else { return }
        while core.changedSincePersist {
            core.changedSincePersist = false
            do {
                try await persistState(core.savedState())
            } catch {
                core.changedSincePersist = true
                throw NoteSyncError(.persistFailed, "cannot persist the sync state before sending; nothing was sent: \(error)")
            }
        }
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

    /// Creates the zone once per engine (and again after it vanished).
    func ensureZone() async throws(NoteSyncError) {
        guard !zoneReady else { return }
        var attempt = 0
        while true {
            attempt += 1
            do {
                try await store.createZone(configuration.zone)
                zoneReady = true
                break
            } catch {
                guard error.isTransient else { throw zoneFailure(error) }
                try await backOff(after: error, attempt: attempt)
            }
        }
        try await ensureSubscription()
    }

    /// The error to throw for a zone-level failure that cannot be retried.
    func zoneFailure(_ error: RecordStoreError) -> NoteSyncError {
        if error.zoneErrorCode == .userDeletedZone && configuration.userDeletedZonePolicy == .stopSyncing {
            return NoteSyncError(.zoneDeletedByUser, storeError: error, "the user deleted the notes zone")
        }
        return NoteSyncError(.storeFailure, noteName: error.recordName, storeError: error, "\(error)")
    }

    /// After the zone vanished (server reset, user deletion), once per failed request: recreate
    /// it and read the feed from the start; notes are created again after that.
    func recoverZone(after error: RecordStoreError) async throws(NoteSyncError) {
        try core.zoneWasLost(error)
        zoneReady = false
        try await ensureZone()
    }
}
