/// The decisions of note sync, without any transport: this device's notes, what to save, how
/// a failed save is resolved (merge, re-create, give up), how a received record or deletion
/// changes the notes, and what changed visibly. A plain value: keep it wherever the app keeps
/// state (an actor, the main actor) and persist ``savedState()``.
///
/// `NoteSyncEngine` runs it against a `RecordStore`. Apps whose transport is `CKSyncEngine`
/// drive it directly (Docs/CloudKit.md, "Using CKSyncEngine"):
///
/// ```swift
/// var core = try NoteSyncCore(replica: replica, state: saved)
/// let record = try core.recordToSend(for: "note-1")      // nextRecordZoneChangeBatch
/// core.recordWasSaved(savedRecord)                        // sentRecordZoneChanges
/// switch core.recordSaveFailed("note-1", error: error) { case .sendAgain: ... }
/// let change = try core.receive(fetchedRecord)            // fetchedRecordZoneChanges
/// let report = core.takeReport()                          // notes that changed, failures
/// ```
public struct NoteSyncCore: Sendable {
    /// What to do after saving a note's record failed.
    public enum SaveFailureDecision: Hashable, Sendable {
        /// Send the note again now (a conflict was merged, or the note is to be re-created).
        case sendAgain
        /// A transient failure: send again after the given wait (nil: the transport's backoff).
        case retryLater(after: Duration?)
        /// The conflict's server record lacks a downloaded asset: fetch the record, hand it to
        /// ``receive(_:)`` (which merges it), then send again.
        case fetchServerRecord
        /// The zone is gone: call ``zoneWasLost(_:)`` once for the whole batch, create the zone,
        /// then send every unsaved note.
        case recreateZone
        /// The note cannot be saved (too large, server record newer than this library): it stays
        /// unsaved, untouched, and is named in the report's `failures`.
        case giveUp
        /// Nothing more to do (the note is gone, or `.deleteWins` dropped the edit).
        case done
        /// The failure is not about this note (quota full, invalid request): stop and report it.
        case stop(NoteSyncError)
    }

    /// The record sent for a note and the note's revision then.
    struct SentRecord: Sendable {
        var revision: UInt64
        var record: CloudRecord
    }

    /// This device's replica id for every note it edits. Never reuse one on a device that lost
    /// its state: use `ReplicaID.random()` for a fresh install.
    public let replica: ReplicaID
    /// Behaviour settings.
    public let configuration: NoteSyncConfiguration
    /// Clock template for new notes.
    let clock: HybridLogicalClock

    var notes: [String: LocalNote] = [:]
    /// Notes deleted here, not yet on the server.
    var pendingDeletes: [String: NoteSyncState.PendingDelete] = [:]
    /// The change-feed position (used by `NoteSyncEngine`; CKSyncEngine keeps its own).
    var token: ChangeToken?
    /// The subscription known to be saved on the server for the zone (persisted).
    var subscriptionID: String?
    /// Records handed out by `recordToSend`, awaiting `recordWasSaved`.
    var sent: [String: SentRecord] = [:]
    /// Cumulative counters.
    public internal(set) var statistics = NoteSyncStatistics()
    /// What happened since the last `takeReport()`.
    var report = NoteSyncReport()
    /// Whether a local change (edit, new note, delete) was made since the engine last persisted
    /// the state before sending: such changes must be persisted before they leave the device.
    var changedSincePersist = false

    /// Notes with no notes, or resuming `state`. Throws `.newerVersionAvailable` for a state of
    /// a newer layout and `.recordUnreadable` for a damaged snapshot.
    public init(replica: ReplicaID, configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
                clock: HybridLogicalClock = HybridLogicalClock(), state: NoteSyncState? = nil) throws(NoteSyncError) {
        self.replica = replica
        self.configuration = configuration
        self.clock = clock
        guard let state else { return }
        guard state.version <= NoteSyncState.currentVersion else {
            throw NoteSyncError(.newerVersionAvailable,
                "sync state version \(state.version) was written by a newer crdtnote (this one reads up to \(NoteSyncState.currentVersion))")
        }
        token = state.token
        subscriptionID = state.subscriptionID
        pendingDeletes = state.pendingDeletes
        for (name, saved) in state.notes {
            do {
                let text = try NoteText(snapshot: saved.snapshot, replica: replica, clock: clock)
                // Saved states are checked in full on resume, as records are on receipt.
                try text.checkLoadedSnapshot()
                notes[name] = LocalNote(text: text, base: saved.base, hasUnsavedChanges: saved.hasUnsavedChanges)
            } catch {
                throw NoteSyncError(.recordUnreadable, noteName: name, "saved state of the note is unreadable: \(error)")
            }
        }
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
    public mutating func createNote(_ name: String, text: String = "") throws(NoteSyncError) {
        if notes[name] != nil {
            try setText(text, of: name)
            return
        }
        var note = LocalNote(text: NoteText(replica: replica, clock: clock), base: nil, hasUnsavedChanges: true)
        if !text.isEmpty { try Self.setText(text, of: &note.text, name: name) }
        pendingDeletes[name] = nil
        notes[name] = note
        changedSincePersist = true
    }

    /// Replaces a note's whole text; the difference becomes CRDT edits.
    ///
    /// Throws `.invalidEdit`, changing nothing, when the result would exceed the note's limits
    /// (see ``NoteText/setText(_:)``).
    public mutating func setText(_ text: String, of name: String) throws(NoteSyncError) {
        guard var note = notes[name] else { return try createNote(name, text: text) }
        try Self.setText(text, of: &note.text, name: name)
        touch(&note)
        notes[name] = note
    }

    /// `setText` with the note's refusal as a sync error.
    private static func setText(_ text: String, of note: inout NoteText, name: String) throws(NoteSyncError) {
        do {
            try note.setText(text)
        } catch {
            throw NoteSyncError(.invalidEdit, noteName: name, "\(error)")
        }
    }

    /// Applies an edit to a note's text (scalar or UTF-16 ranges, see `NoteText`).
    public mutating func edit(_ name: String, _ body: (inout NoteText) throws -> Void) throws(NoteSyncError) {
        guard var note = notes[name] else { throw NoteSyncError(.unknownNote, noteName: name, "no note named '\(name)'") }
        do {
            try body(&note.text)
        } catch {
            throw NoteSyncError(.invalidEdit, noteName: name, "\(error)")
        }
        touch(&note)
        notes[name] = note
    }

    /// Deletes a note here; the delete is sent with the next save (see ``pendingDeleteNames``).
    public mutating func deleteNote(_ name: String) {
        guard let note = notes.removeValue(forKey: name) else { return }
        sent[name] = nil
        if let base = note.base { pendingDeletes[name] = NoteSyncState.PendingDelete(changeTag: base.recordChangeTag) }
        changedSincePersist = true
    }

    /// Notes deleted here whose delete the transport still has to send, sorted.
    public var pendingDeleteNames: [String] { pendingDeletes.keys.sorted() }

    /// The transport deleted a note on the server.
    public mutating func deleteWasSent(_ name: String) {
        if pendingDeletes.removeValue(forKey: name) != nil { report.deleted += 1 }
    }

    /// Everything to persist for a restart.
    public func savedState() -> NoteSyncState {
        var saved: [String: NoteSyncState.SavedNote] = [:]
        for (name, note) in notes {
            saved[name] = NoteSyncState.SavedNote(snapshot: note.text.encodedSnapshot(format: configuration.recordLimits.snapshotFormat), base: note.base, hasUnsavedChanges: note.hasUnsavedChanges)
        }
        var state = NoteSyncState(token: token, notes: saved, pendingDeletes: pendingDeletes)
        state.subscriptionID = subscriptionID
        return state
    }

    /// What happened since the last call (changed notes, failures, counts), and starts afresh.
    public mutating func takeReport() -> NoteSyncReport {
        defer { report = NoteSyncReport() }
        return report
    }

    /// Marks a local change of `note`.
    mutating func touch(_ note: inout LocalNote) {
        Self.touch(&note)
        changedSincePersist = true
    }

    static func touch(_ note: inout LocalNote) {
        note.hasUnsavedChanges = true
        note.revision &+= 1
    }

    /// Records a note that failed for good this time.
    mutating func noteFailed(_ error: NoteSyncError, name: String) {
        var error = error
        if error.noteName == nil { error.noteName = name }
        report.failures[name] = error
    }

    // MARK: Zone

    /// The zone vanished (`zoneNotFound`, or `userDeletedZone` with `.recreateAndUpload`):
    /// forgets the token and pending deletes and marks every note to be created again. Call it
    /// once per failed request, however many of its items reported the zone. Throws
    /// `.zoneDeletedByUser` under `.stopSyncing`.
    public mutating func zoneWasLost(_ error: RecordStoreError) throws(NoteSyncError) {
        if error.zoneErrorCode == .userDeletedZone && configuration.userDeletedZonePolicy == .stopSyncing {
            throw NoteSyncError(.zoneDeletedByUser, storeError: error, "the user deleted the notes zone")
        }
        statistics.zoneRecoveries += 1
        token = nil
        subscriptionID = nil // a zone's subscriptions go with it
        sent.removeAll()
        for (name, note) in notes where note.base != nil {
            var copy = note
            copy.base = note.base?.withoutServerIdentity()
            copy.hasUnsavedChanges = true
            notes[name] = copy
        }
        pendingDeletes.removeAll()
    }
}
