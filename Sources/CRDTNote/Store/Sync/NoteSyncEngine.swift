/// The sync loop a note app calls: keeps this device's notes, saves local edits to a
/// `RecordStore`, merges conflicts, and folds in other devices' changes.
///
/// - **Save.** Unsaved notes go out in batches, each record built on the last server record
///   seen (its change tag). On `serverRecordChanged` the conflict is merged (union of the CRDT
///   states, built on the server record) and saved again, up to `maxAttempts` tries. Throttling
///   and unavailability wait `retryAfterSeconds` (else exponential backoff) through the injected
///   `sleep`. `limitExceeded` splits the batch. A note stays "unsaved" until the server confirms
///   the revision it sent, so nothing typed is lost to a failure, a lost response or a restart.
/// - **Fetch.** Changes since the saved token are merged into local notes; an expired token or
///   a vanished zone restarts the feed from the beginning and re-creates notes the server lost.
/// - **Delete vs. edit.** See `NoteSyncConfiguration.DeleteConflictPolicy`; by default an edit
///   the deleting device had not seen brings the note back.
///
/// ```swift
/// let engine = NoteSyncEngine(store: store, replica: .random())
/// try await engine.createNote("note-1", text: "Groceries")
/// try await engine.sync()
/// ```
public actor NoteSyncEngine {
    /// The store notes are synced with.
    public nonisolated let store: any RecordStore
    /// This writer's replica id for every note it edits: made once with `ReplicaID.random()`
    /// and kept on this device only (see ``ReplicaID``). Never reuse one on a device that lost
    /// its state: make a fresh one.
    public nonisolated let replica: ReplicaID
    /// Behaviour settings.
    public nonisolated let configuration: NoteSyncConfiguration
    /// Waits the given number of seconds before a retry (inject a fake in tests).
    let sleep: @Sendable (Double) async -> Void
    /// Clock template for new notes.
    let clock: HybridLogicalClock

    var notes: [String: LocalNote] = [:]
    /// Notes deleted here, not yet on the server: name -> change tag of the version deleted.
    var pendingDeletes: [String: String] = [:]
    var token: ChangeToken?
    var zoneReady = false
    /// Revisions handed out by `recordToSend`, awaiting `recordWasSaved`.
    var sentRevisions: [String: UInt64] = [:]
    /// Cumulative counters.
    public internal(set) var statistics = NoteSyncStatistics()
    var report = NoteSyncReport()

    /// An engine with no notes, or resuming `state`.
    public init(store: any RecordStore, replica: ReplicaID, configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
                clock: HybridLogicalClock = HybridLogicalClock(), state: NoteSyncState? = nil,
                sleep: @escaping @Sendable (Double) async -> Void = NoteSyncEngine.taskSleep) throws(NoteSyncError) {
        self.store = store
        self.replica = replica
        self.configuration = configuration
        self.clock = clock
        self.sleep = sleep
        if let state {
            token = state.token
            pendingDeletes = state.pendingDeletes
            for (name, saved) in state.notes {
                do {
                    let text = try NoteText(snapshot: saved.snapshot, replica: replica, clock: clock)
                    notes[name] = LocalNote(text: text, base: saved.base, hasUnsavedChanges: saved.hasUnsavedChanges)
                } catch {
                    throw NoteSyncError(.recordUnreadable, noteName: name, "saved state of the note is unreadable: \(error)")
                }
            }
        }
    }

    /// Sleeps with `Task.sleep` (cancellation ends the wait early).
    public static let taskSleep: @Sendable (Double) async -> Void = { seconds in
        guard seconds > 0 else { return }
        try? await Task.sleep(nanoseconds: UInt64(min(seconds, 3600) * 1_000_000_000))
    }

    // MARK: Local notes

    /// Names of the notes on this device, sorted.
    public var noteNames: [String] { notes.keys.sorted() }

    /// Names of notes with edits the server has not confirmed, sorted.
    public var unsavedNoteNames: [String] { notes.filter { $0.value.hasUnsavedChanges }.keys.sorted() }

    /// The text of a note, nil if there is no such note.
    public func text(of name: String) -> String? { notes[name]?.text.string }

    /// The CRDT state of a note.
    public func note(_ name: String) -> NoteText? { notes[name]?.text }

    /// Creates a note (or, if it exists, replaces its text as an edit).
    ///
    /// Throws `.invalidEdit`, changing nothing, when the text exceeds the note's limits
    /// (see ``NoteText/setText(_:)``).
    public func createNote(_ name: String, text: String = "") throws(NoteSyncError) {
        if notes[name] != nil {
            try setText(text, of: name)
            return
        }
        var note = LocalNote(text: NoteText(replica: replica, clock: clock), base: nil, hasUnsavedChanges: true)
        if !text.isEmpty { try setText(text, of: &note.text, name: name) }
        pendingDeletes[name] = nil
        notes[name] = note
    }

    /// Replaces a note's whole text; the difference becomes CRDT edits.
    ///
    /// Throws `.invalidEdit`, changing nothing, when the result would exceed the note's limits
    /// (see ``NoteText/setText(_:)``).
    public func setText(_ text: String, of name: String) throws(NoteSyncError) {
        guard var note = notes[name] else { return try createNote(name, text: text) }
        try setText(text, of: &note.text, name: name)
        touch(&note)
        notes[name] = note
    }

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
        guard var note = notes[name] else { throw NoteSyncError(.unknownNote, noteName: name, "no note named '\(name)'") }
        do {
            try body(&note.text)
        } catch {
            throw NoteSyncError(.invalidEdit, noteName: name, "\(error)")
        }
        touch(&note)
        notes[name] = note
    }

    /// Deletes a note here and, at the next sync, on the server.
    public func deleteNote(_ name: String) {
        guard let note = notes.removeValue(forKey: name) else { return }
        if let base = note.base { pendingDeletes[name] = base.recordChangeTag ?? "" }
    }

    /// Everything to persist for a restart.
    public func savedState() -> NoteSyncState {
        var saved: [String: NoteSyncState.SavedNote] = [:]
        for (name, note) in notes {
            saved[name] = NoteSyncState.SavedNote(snapshot: note.text.encodedSnapshot(), base: note.base, hasUnsavedChanges: note.hasUnsavedChanges)
        }
        return NoteSyncState(token: token, notes: saved, pendingDeletes: pendingDeletes)
    }

    /// The record to save for a note: its text written on its base record.
    func record(for name: String, _ note: LocalNote) throws(NoteSyncError) -> CloudRecord {
        try NoteSyncEngine.makeRecord(for: note.text, name: name, basedOn: note.base, recordType: configuration.recordType,
                                    limits: configuration.recordLimits)
    }

    func touch(_ note: inout LocalNote) {
        note.hasUnsavedChanges = true
        note.revision &+= 1
    }

    // MARK: Sync

    /// Fetches remote changes, saves local ones, and returns what happened. Throws when the
    /// store keeps failing; everything unsaved stays pending for the next call.
    @discardableResult
    public func sync() async throws(NoteSyncError) -> NoteSyncReport {
        report = NoteSyncReport()
        try await fetchRemoteChanges()
        try await pushLocalChanges()
        return report
    }

    /// Waits before retry `attempt` of a request that failed with `error`.
    func backOff(after error: RecordStoreError, attempt: Int) async throws(NoteSyncError) {
        guard attempt < configuration.maxAttempts else {
            throw NoteSyncError(.attemptsExhausted, noteName: error.recordName, storeError: error,
                                "gave up after \(attempt) tries: \(error)")
        }
        let seconds = error.retryAfterSeconds ?? configuration.backoff(attempt: attempt)
        statistics.retries += 1
        statistics.secondsWaited += seconds
        await sleep(seconds)
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
                return
            } catch {
                guard error.isTransient else { throw try zoneFailure(error) }
                try await backOff(after: error, attempt: attempt)
            }
        }
    }

    /// The error to throw for a zone-level failure that cannot be retried.
    func zoneFailure(_ error: RecordStoreError) throws(NoteSyncError) -> NoteSyncError {
        if error.code == .userDeletedZone && configuration.userDeletedZonePolicy == .stopSyncing {
            return NoteSyncError(.zoneDeletedByUser, storeError: error, "the user deleted the notes zone")
        }
        return NoteSyncError(.storeFailure, noteName: error.recordName, storeError: error, "\(error)")
    }

    /// After the zone vanished (server reset, user deletion): recreate it and read the feed from
    /// the start; notes the server no longer has are created again after that fetch.
    func recoverZone(after error: RecordStoreError) async throws(NoteSyncError) {
        if error.code == .userDeletedZone && configuration.userDeletedZonePolicy == .stopSyncing {
            throw NoteSyncError(.zoneDeletedByUser, storeError: error, "the user deleted the notes zone")
        }
        statistics.zoneRecoveries += 1
        zoneReady = false
        token = nil
        for (name, note) in notes where note.base != nil {
            var copy = note
            copy.base = note.base?.withoutServerIdentity()
            copy.hasUnsavedChanges = true
            notes[name] = copy
        }
        pendingDeletes.removeAll()
        try await ensureZone()
    }
}
