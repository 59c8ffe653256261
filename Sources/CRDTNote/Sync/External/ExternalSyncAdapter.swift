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
    /// What became of the notes at account changes and zone deletions since the last report.
    var accountChanges: [NoteSyncAccountChange] = []
    var zoneDeletions: [NoteSyncZoneDeletion] = []
    /// What becomes of this device's notes when the account is signed out of or switched.
    let notesAtAccountChange: NoteSyncAccountChange.LocalNotes
    /// Set when the library could not take a fetched change: the engine's state is then ahead of
    /// the notes and is not saved again in this process (the next launch fetches from the last
    /// state saved).
    var libraryFailed = false
    /// Whether the engine started without a saved state (its first fetch reads the zone from the start).
    var startedWithoutState: Bool
    /// The most records and bytes one batch holds (CloudKit's request limits).
    let batchLimits: RecordStoreLimits

    /// An adapter for `library`'s notes. `startedWithoutState`: the engine was created without a
    /// saved state (``savedEngineState(in:)`` returned nil), so its first fetch reads the whole
    /// zone. `notesAtAccountChange`: what becomes of the notes when the user signs out or
    /// switches accounts (kept on the device, synced nowhere; or removed).
    public init(library: NoteLibrary, configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
                notesAtAccountChange: NoteSyncAccountChange.LocalNotes = .keep, startedWithoutState: Bool,
                batchLimits: RecordStoreLimits = .cloudKit) {
        self.notesAtAccountChange = notesAtAccountChange
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
    /// counts, failures about no one note in `notes.errors`), account changes and zone deletions.
    public func takeReport() -> ExternalSyncReport {
        defer {
            accountChanges = []
            zoneDeletions = []
        }
        return ExternalSyncReport(notes: core.takeReport(), accountChanges: accountChanges, zoneDeletions: zoneDeletions)
    }

    /// Records a failure for the report.
    func failed(_ error: NoteSyncError) {
        if let name = error.noteName {
            core.noteFailed(error, name: name)
        } else {
            core.report.errors.append(error)
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

    /// Makes the engine's pending changes match the library (``NoteSyncCore/pendingChanges()``):
    /// a save for every unsaved note and this device's record when due, a delete for every
    /// pending delete, no other change; and a zone save when the zone is to be created. Call it
    /// at launch; the adapter calls it itself after account changes and zone resets.
    package func reconcile(engine: some ExternalSyncEngine) async {
        guard let (changes, zoneStatus) = attempt({ (core) throws(NoteSyncError) in (try core.pendingChanges(), try core.zoneStatus()) })
        else { return }
        let wanted = Set(changes.recordsToSave.map(PendingRecordChange.save) + changes.recordsToDelete.map(PendingRecordChange.delete))
        let pending = await engine.pendingRecordChanges()
        let stale = pending.filter { !wanted.contains($0) }
        if !stale.isEmpty { await engine.removePendingRecordChanges(stale) }
        let have = Set(pending)
        let missing = changes.recordsToSave.map(PendingRecordChange.save).filter { !have.contains($0) }
            + changes.recordsToDelete.map(PendingRecordChange.delete).filter { !have.contains($0) }
        if zoneStatus == .needsSaving { await engine.addPendingZoneSave() }
        if !missing.isEmpty { await engine.addPendingRecordChanges(missing) }
    }

    /// Tells the engine about notes the app changed through the library (edited, created,
    /// deleted): each gets a pending save if it is unsaved, a pending delete if its delete is
    /// still to send, and loses the other. The Apple-only `CloudKitNoteSync` calls it for every
    /// `NoteLibrary.changes()` event; an app driving the adapter itself calls it after edits.
    package func notesChanged(_ names: some Sequence<String>, engine: some ExternalSyncEngine) async {
        await followUp(Set(names), engine: engine)
    }

    /// Makes the pending changes of `names` match the library: a save for each unsaved note (a
    /// merge, or an edit made while the note was being sent, leaves it so), a delete for each
    /// pending delete, and neither for the others (a note another device's edit brought back
    /// loses its pending delete).
    func followUp(_ names: Set<String>, engine: some ExternalSyncEngine) async {
        guard !names.isEmpty else { return }
        guard let changes = attempt({ (core) throws(NoteSyncError) in try core.pendingChanges() }) else { return }
        let unsaved = Set(changes.recordsToSave)
        let deletes = Set(changes.recordsToDelete)
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
    /// Account changes handled (which notes were kept on the device, removed, synced again).
    public var accountChanges: [NoteSyncAccountChange]
    /// Zone deletions handled; a purge lists the notes it removed, with their text, so the app
    /// can offer to export them.
    public var zoneDeletions: [NoteSyncZoneDeletion]

    /// Whether nothing failed (no note failed, no error about the library, zone or account).
    public var isClean: Bool { notes.failures.isEmpty && notes.errors.isEmpty }
}
