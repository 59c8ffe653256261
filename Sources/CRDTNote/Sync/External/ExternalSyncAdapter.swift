/// Everything a `CKSyncEngine` delegate does for a ``NoteLibrary``, in portable code: it drives a
/// ``NoteSyncCore`` from the engine's events (``handle(_:engine:)``), builds each batch from the
/// library's unsaved notes and pending deletes (``nextBatch(pending:engine:)``), keeps the
/// engine's state serialization in the library behind the notes it covers, and keeps the
/// engine's pending changes in step with the library (``reconcile(engine:)``): at launch, after
/// account changes and zone resets, after a merge or an edit made during a send. The library,
/// not the engine's state, is the record of what is still to send, so a crash that loses the
/// engine's latest state updates loses nothing. Every failure goes into the report
/// (``takeReport()``).
///
/// The Apple-only `CloudKitNoteSync` runs it under `CKSyncEngine`; CRDTNoteTesting's
/// `SyncEngineModel` runs it in tests.
public actor ExternalSyncAdapter {
    /// Every sync decision, on the library.
    var core: NoteSyncCore
    /// Failures since the last report that are not about one note.
    var errors: [NoteSyncError] = []
    /// Set when the library could not take a fetched change: the engine's state is then ahead of
    /// the notes and is not saved again in this process (the next launch fetches from the last
    /// state saved).
    var libraryFailed = false
    /// Whether the engine started without a saved state (its first fetch reads the zone from the start).
    var startedWithoutState: Bool
    /// Why sending is held back (an account change, a zone the user removed); nil: it is not.
    var hold: Hold?
    /// The most records and bytes one batch holds (CloudKit's request limits).
    let batchLimits: RecordStoreLimits

    /// An adapter for `library`'s notes. `savedState` is what ``savedEngineState()`` returned for
    /// the engine's configuration (nil on the first launch).
    public init(library: NoteLibrary, configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
                startedWithoutState: Bool, batchLimits: RecordStoreLimits = .cloudKit) {
        self.core = NoteSyncCore(library: library, configuration: configuration)
        self.startedWithoutState = startedWithoutState
        self.batchLimits = batchLimits
    }

    /// The engine's state serialization as last saved in `library` (nil: none; the engine then
    /// starts afresh and fetches the whole zone).
    public static func savedEngineState(in library: NoteLibrary) throws(NoteSyncError) -> [UInt8]? {
        try NoteSyncCore(library: library).transportState()
    }

    /// The notes zone.
    public var zone: RecordZoneID { core.configuration.zone }

    /// What happened since the last call: the core's report (changed notes, failures by note,
    /// counts) and the failures that are about no one note (library, zone, account, fetch).
    public func takeReport() -> ExternalSyncReport {
        defer { errors = [] }
        return ExternalSyncReport(notes: core.takeReport(), errors: errors)
    }

    /// Records a failure for the report.
    func failed(_ error: NoteSyncError) {
        if let name = error.noteName {
            core.noteFailed(error, name: name)
        } else {
            errors.append(error)
        }
        if error.code == .persistFailed { libraryFailed = true }
    }

    /// Runs a core step, its failure into the report; nil when it failed.
    @discardableResult
    func attempt<R>(_ body: (inout NoteSyncCore) throws(NoteSyncError) -> R) -> R? {
        do {
            return try body(&core)
        } catch {
            failed(error)
            return nil
        }
    }

    /// Makes the engine's pending changes match the library: a save for every unsaved note (and
    /// this device's record when due), a delete for every pending delete, and no other change.
    /// Call it at launch; the adapter calls it itself after account changes and zone resets.
    public func reconcile(engine: some ExternalSyncEngine) async {
        guard let wanted = attempt({ (core) throws(NoteSyncError) in try Self.wantedChanges(core) }) else { return }
        let pending = Set(await engine.pendingRecordChanges())
        let stale = pending.subtracting(wanted)
        if !stale.isEmpty { await engine.removePendingRecordChanges(stale.sorted(by: Self.order)) }
        let missing = wanted.subtracting(pending)
        if !missing.isEmpty { await engine.addPendingRecordChanges(missing.sorted(by: Self.order)) }
    }

    /// Every change the library still has to send.
    static func wantedChanges(_ core: NoteSyncCore) throws(NoteSyncError) -> Set<PendingRecordChange> {
        var wanted = Set(try core.unsavedNoteNames().map(PendingRecordChange.save))
        if let device = try core.announcementDue() { wanted.insert(.save(device)) }
        for name in try core.pendingDeleteNames() { wanted.insert(.delete(name)) }
        return wanted
    }

    /// A stable order for the changes handed to the engine.
    static func order(_ a: PendingRecordChange, _ b: PendingRecordChange) -> Bool {
        (a.recordName, a == .save(a.recordName) ? 0 : 1) < (b.recordName, b == .save(b.recordName) ? 0 : 1)
    }

    /// Tells the engine about notes the app changed through the library (edited, created,
    /// deleted): each gets a pending save if it is unsaved, a pending delete if its delete is
    /// still to send, and loses the other. The Apple-only `CloudKitNoteSync` calls it for every
    /// `NoteLibrary.changes()` event; an app driving the adapter itself calls it after edits.
    public func notesChanged(_ names: some Sequence<String>, engine: some ExternalSyncEngine) async {
        await followUp(Set(names), engine: engine)
    }

    /// Makes the pending changes of `names` match the library: a save for each unsaved note (a
    /// merge, or an edit made while the note was being sent, leaves it so), a delete for each
    /// pending delete, and neither for the others (a note another device's edit brought back
    /// loses its pending delete).
    func followUp(_ names: Set<String>, engine: some ExternalSyncEngine) async {
        guard !names.isEmpty else { return }
        guard let (unsaved, deletes) = attempt({ (core) throws(NoteSyncError) in
            (Set(try core.unsavedNoteNames()), Set(try core.pendingDeleteNames()))
        }) else { return }
        var wanted: [PendingRecordChange] = []
        var unwanted: [PendingRecordChange] = []
        for name in names.sorted() {
            if unsaved.contains(name) { wanted.append(.save(name)) } else { unwanted.append(.save(name)) }
            if deletes.contains(name) { wanted.append(.delete(name)) } else { unwanted.append(.delete(name)) }
        }
        await engine.removePendingRecordChanges(unwanted)
        if !wanted.isEmpty { await engine.addPendingRecordChanges(wanted) }
    }
}

/// What an ``ExternalSyncAdapter`` did since its last report.
public struct ExternalSyncReport: Sendable {
    /// The notes that changed and failed, and the counts (``NoteSyncCore/takeReport()``).
    public var notes: NoteSyncReport
    /// Failures about no one note: the library, the zone, the account, a fetch or send request.
    public var errors: [NoteSyncError]

    /// Whether nothing failed.
    public var isClean: Bool { notes.failures.isEmpty && errors.isEmpty }
}
