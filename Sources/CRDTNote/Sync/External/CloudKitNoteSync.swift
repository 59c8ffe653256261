// The library's CKSyncEngine delegate (Apple platforms only). Every decision is made by the
// portable ExternalSyncAdapter; this file maps CKSyncEngine's types onto it.
#if canImport(CloudKit)
import CloudKit
import Foundation

/// The library's `CKSyncEngine` delegate: syncs a ``NoteLibrary`` through CloudKit with
/// `CKSyncEngine` as the transport. It creates the engine on the state the library kept,
/// hands every event to an ``ExternalSyncAdapter`` (which makes every decision and is tested on
/// Linux), builds each batch from the library's unsaved notes, follows the library's changes,
/// and keeps staged asset files until CloudKit answered for their record (leftovers of an
/// earlier process are removed at start).
///
/// ```swift
/// let sync = try await CloudKitNoteSync.start(library: library, database: container.privateCloudDatabase)
/// // later: let report = await sync.takeReport()
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public actor CloudKitNoteSync: CKSyncEngineDelegate {
    /// Every sync decision, in portable code.
    public let adapter: ExternalSyncAdapter
    /// The notes zone's name.
    let zoneName: String
    /// Where asset files are written for upload.
    let stagingFolder: URL
    /// Staged asset files by record name, kept until CloudKit answered for the record.
    var staged: [String: [URL]] = [:]
    /// The engine, once created.
    var engine: CKSyncEngine?
    /// Follows the library's changes.
    var observation: Task<Void, Never>?

    init(adapter: ExternalSyncAdapter, zoneName: String, stagingFolder: URL) {
        self.adapter = adapter
        self.zoneName = zoneName
        self.stagingFolder = stagingFolder
    }

    /// Starts syncing `library` through `database` (usually `container.privateCloudDatabase`):
    /// removes asset files an earlier process staged, creates the `CKSyncEngine` on the state
    /// serialization the library kept (nil on the first launch), tells it every change the
    /// library still has to send, and follows the library's changes from then on.
    /// `notesAtAccountChange` says what becomes of the notes when the user signs out or
    /// switches accounts. Throws when the library cannot be read.
    public static func start(library: NoteLibrary, database: CKDatabase,
                             configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
                             notesAtAccountChange: NoteSyncAccountChange.LocalNotes = .keep) async throws(NoteSyncError) -> CloudKitNoteSync {
        let saved = try ExternalSyncAdapter.savedEngineState(in: library)
        var serialization: CKSyncEngine.State.Serialization?
        var stateError: NoteSyncError?
        if let saved {
            do {
                serialization = try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: Data(saved))
            } catch {
                stateError = NoteSyncError(.persistFailed, "the saved CKSyncEngine state cannot be read (\(error)); the zone is fetched again from its start")
            }
        }
        let adapter = ExternalSyncAdapter(library: library, configuration: configuration, notesAtAccountChange: notesAtAccountChange,
                                          startedWithoutState: serialization == nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("CRDTNoteStaging-\(configuration.zone.zoneName)", isDirectory: true)
        let sync = CloudKitNoteSync(adapter: adapter, zoneName: configuration.zone.zoneName, stagingFolder: folder)
        if let stateError { await adapter.failed(stateError) }
        await sync.removeLeftoverStagedFiles()
        let engine = CKSyncEngine(CKSyncEngine.Configuration(database: database, stateSerialization: serialization, delegate: sync))
        await sync.attach(engine, following: library)
        return sync
    }

    /// Keeps the engine, schedules what the library has to send, and follows the library.
    func attach(_ engine: CKSyncEngine, following library: NoteLibrary) async {
        self.engine = engine
        await adapter.reconcile(engine: CKSyncEngineQueue(engine: engine, zoneName: zoneName))
        let changes = library.changes()
        observation = Task { [weak self] in
            for await change in changes {
                guard let self else { return }
                await self.libraryChanged(change)
            }
        }
    }

    /// A change the app made through the library: its note is queued (or unqueued) for sending.
    func libraryChanged(_ change: NoteLibraryChange) async {
        guard let engine else { return }
        let queue = CKSyncEngineQueue(engine: engine, zoneName: zoneName)
        switch change {
        case .created(let name), .changed(let name), .deleted(let name):
            await adapter.notesChanged([name], engine: queue)
        case .reloaded:
            await adapter.reconcile(engine: queue)
        }
    }

    /// What happened since the last call (``ExternalSyncAdapter/takeReport()``).
    public func takeReport() async -> ExternalSyncReport {
        await adapter.takeReport()
    }

    /// Fetches then sends now (a push arrived, the user pulled to refresh); `CKSyncEngine`
    /// otherwise schedules both itself. Throws what `CKSyncEngine` throws.
    public func syncNow() async throws {
        try await engine?.fetchChanges()
        try await engine?.sendChanges()
    }

    /// After the user deleted the notes zone: the app consents to create it again.
    public func consentToRecreateZone() async {
        guard let engine else { return }
        await adapter.consentToRecreateZone(engine: CKSyncEngineQueue(engine: engine, zoneName: zoneName))
    }

    /// Lets notes kept from an earlier account (nil: all) sync into the current one.
    @discardableResult
    public func adoptLocalNotes(_ names: [String]? = nil) async -> [String] {
        guard let engine else { return [] }
        return await adapter.adoptLocalNotes(names, engine: CKSyncEngineQueue(engine: engine, zoneName: zoneName))
    }

    // MARK: CKSyncEngineDelegate

    /// Hands the event to the adapter; staged files of the records answered are removed after
    /// the records were read (a conflict's client record needs its asset bytes).
    public func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        let queue = CKSyncEngineQueue(engine: syncEngine, zoneName: zoneName)
        guard let portable = await portableEvent(event) else { return }
        await adapter.handle(portable, engine: queue)
        if case .sentRecordZoneChanges(let sent) = event {
            for record in sent.savedRecords { releaseStagedFiles(of: record.recordID.recordName) }
            for failure in sent.failedRecordSaves { releaseStagedFiles(of: failure.record.recordID.recordName) }
        }
    }

    /// The next batch, built by the adapter from the pending changes in the send's scope.
    public func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext,
                                          syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let queue = CKSyncEngineQueue(engine: syncEngine, zoneName: zoneName)
        let scope = context.options.scope
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { scope.contains($0) }.compactMap(queue.portable)
        guard let batch = await adapter.nextBatch(pending: pending, engine: queue) else { return nil }
        let zoneID = CKRecordZone.ID(zoneName: zoneName)
        var records: [CKRecord] = []
        for record in batch.recordsToSave {
            let name = record.recordName
            releaseStagedFiles(of: name)   // built for an earlier batch that was never answered
            do {
                let made = try record.makeCKRecord(zoneID: zoneID, assetDirectory: stagingFolder)
                staged[name] = made.stagedFiles
                records.append(made.record)
            } catch {
                syncEngine.state.remove(pendingRecordZoneChanges: [.saveRecord(CKRecord.ID(recordName: name, zoneID: zoneID))])
                await adapter.failed(NoteSyncError(.storeFailure, noteName: name, "cannot write the note's CKRecord: \(error)"))
            }
        }
        let deletes = batch.recordNamesToDelete.map { CKRecord.ID(recordName: $0, zoneID: zoneID) }
        guard !records.isEmpty || !deletes.isEmpty else { return nil }
        return CKSyncEngine.RecordZoneChangeBatch(recordsToSave: records, recordIDsToDelete: deletes, atomicByZone: false)
    }

    // MARK: Staged files

    /// Removes the staged files of record `name`.
    func releaseStagedFiles(of name: String) {
        for url in staged.removeValue(forKey: name) ?? [] { removeFile(url) }
    }

    /// Removes the staging folder's files left by an earlier process (it died before CloudKit answered).
    func removeLeftoverStagedFiles() async {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: stagingFolder, withIntermediateDirectories: true)
            for url in try manager.contentsOfDirectory(at: stagingFolder, includingPropertiesForKeys: nil) { removeFile(url) }
        } catch {
            await adapter.failed(NoteSyncError(.persistFailed, "cannot clean the asset staging folder \(stagingFolder.path): \(error)"))
        }
    }

    /// Removes one staged file; a failure is reported.
    func removeFile(_ url: URL) {
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            let adapter = self.adapter
            Task { await adapter.failed(NoteSyncError(.persistFailed, "cannot remove the staged asset file \(url.path): \(error)")) }
        }
    }
}
#endif
