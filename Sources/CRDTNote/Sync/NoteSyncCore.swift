/// The decisions of note sync, without any transport, on a ``NoteLibrary``: which notes to
/// send (the library's unsaved notes and pending deletes), the record to send for each (built
/// when asked from the note and the server metadata the library keeps), how a failed save is
/// resolved (merge, re-create, give up), how a received record or deletion changes the
/// library's notes, and what changed visibly. Every decision is written to the library as it
/// is made; only the notes a step touches are loaded.
///
/// `NoteSyncEngine` runs it against a `RecordStore`. A transport such as `CKSyncEngine` drives
/// it directly and keeps its own state in the library's transport slot
/// (``saveTransportState(_:)``), which is saved only after the notes it covers are durable:
///
/// ```swift
/// var core = NoteSyncCore(library: library)
/// try core.accountChanged(to: userRecordName, localNotes: .keep) // launch, accountChange
/// let pending = try core.pendingChanges()                 // what the engine's queue must hold
/// let record = try core.recordToSend(for: "note-1")      // nextRecordZoneChangeBatch
/// try core.recordWasSaved(savedRecord)                    // sentRecordZoneChanges
/// switch core.recordSaveFailed("note-1", error: error) { case .sendAgain: ... }
/// let change = try core.receive(fetchedRecord)            // fetchedRecordZoneChanges
/// try core.changesFetched(fromStart: false)               // didFetchChanges
/// try core.saveTransportState(serialization)              // stateUpdate
/// let purge = try core.zoneWasDeleted(.purged)            // fetchedDatabaseChanges
/// let report = core.takeReport()                          // notes that changed, failures
/// ```
///
/// Besides notes, each device keeps a device record in the zone saying what it reads
/// (``announcementDue()`` names it when it is to be saved; `recordToSend` builds it); note
/// records are written in the newest format every active device reads (``fleet()``).
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
        /// The zone is gone: call ``zoneWasLost(_:)`` once for the whole batch (it throws
        /// `.zoneDeletedByUser` when a zone the user deleted waits for the app's consent), save
        /// the zone, then send ``pendingChanges()``.
        case recreateZone
        /// The note cannot be saved (too large, server record newer than this library): it stays
        /// unsaved, untouched, and is named in the report's `failures`.
        case giveUp
        /// Nothing more to do (the note is gone, or `.deleteWins` dropped the edit).
        case done
        /// The failure is not about this note (quota full, invalid request, the library cannot
        /// be written): stop and report it.
        case stop(NoteSyncError)
    }

    /// The record sent for a note and the note's revision then.
    struct SentRecord: Sendable {
        var revision: UInt64
        var record: CloudRecord
    }

    /// The library whose notes are synced.
    public let library: NoteLibrary
    /// Behaviour settings.
    public let configuration: NoteSyncConfiguration
    /// The wall clock device records are dated by.
    let wallClock: PhysicalClock
    /// Records handed out by `recordToSend`, awaiting `recordWasSaved`.
    var sent: [String: SentRecord] = [:]
    /// Cumulative counters.
    public internal(set) var statistics = NoteSyncStatistics()
    /// What happened since the last `takeReport()`.
    var report = NoteSyncReport()

    /// The sync decisions for `library`'s notes.
    public init(library: NoteLibrary, configuration: NoteSyncConfiguration = NoteSyncConfiguration()) {
        self.init(library: library, configuration: configuration, wallClock: .system)
    }

    /// The sync decisions, dating device records by `wallClock` (simulations pass a manual one).
    package init(library: NoteLibrary, configuration: NoteSyncConfiguration, wallClock: PhysicalClock) {
        self.library = library
        self.configuration = configuration
        self.wallClock = wallClock
    }

    /// This process's replica: the library's.
    public var replica: ReplicaID { library.replica }

    /// Runs `body` with the library to itself, its failures as sync errors.
    func access<R>(_ body: (LibrarySyncAccess) throws(NoteSyncError) -> R) throws(NoteSyncError) -> R {
        try library.withSyncAccess({ NoteSyncError(library: $0) }, body)
    }

    /// Names of the notes with changes the server lacks, sorted.
    public func unsavedNoteNames() throws(NoteSyncError) -> [String] {
        try access { $0.unsavedNames() }
    }

    /// Names of the notes deleted here whose delete the transport still has to send, sorted.
    public func pendingDeleteNames() throws(NoteSyncError) -> [String] {
        try access { $0.pendingDeletes().map(\.name).sorted() }
    }

    /// The change tag of the version a pending delete deletes (nil: none known).
    func pendingDeleteTag(_ name: String) throws(NoteSyncError) -> String? {
        try access { access in access.pendingDeletes().first { $0.name == name }?.changeTag }
    }

    /// The transport deleted a note on the server.
    public mutating func deleteWasSent(_ name: String) throws(NoteSyncError) {
        let removed = try access { (access) throws(NoteSyncError) -> Bool in
            guard access.pendingDeletes().contains(where: { $0.name == name }) else { return false }
            do throws(NoteLibraryError) { try access.deleteWasSent(name) } catch { throw NoteSyncError(library: error) }
            return true
        }
        if removed { report.deleted += 1 }
    }

    /// The transport's state as last saved (nil: none).
    public func transportState() throws(NoteSyncError) -> [UInt8]? {
        try access { $0.transportState }
    }

    /// Saves the transport's state (a change token, a `CKSyncEngine` state serialization) in the
    /// library, durably, after everything received so far: notes are never older than the
    /// state that says they were fetched.
    public func saveTransportState(_ bytes: [UInt8]) throws(NoteSyncError) {
        try access { (access) throws(NoteSyncError) in
            do throws(NoteLibraryError) { try access.saveTransportState(bytes) } catch { throw NoteSyncError(library: error) }
        }
    }

    /// What happened since the last call (changed notes, failures, counts), and starts afresh.
    public mutating func takeReport() -> NoteSyncReport {
        defer { report = NoteSyncReport() }
        return report
    }

    /// Records a note that failed for good this time.
    mutating func noteFailed(_ error: NoteSyncError, name: String) {
        var error = error
        if error.noteName == nil { error.noteName = name }
        report.failures[name] = error
    }
}
