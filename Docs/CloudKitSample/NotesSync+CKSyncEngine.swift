// App-side sample code from Docs/CloudKit.md §8 ("Using CKSyncEngine instead"): CKSyncEngine as
// the transport, NoteSyncCore making every decision, with no record store at all.
// Not part of the package: .ci/typecheck-cloudkit type-checks it (Swift 6) against the CloudKit
// stand-in and the CRDTNote module. CKSyncEngine needs macOS 14 / iOS 17 / tvOS 17 /
// watchOS 10, above the package's minimum platforms, hence the availability attributes.
#if canImport(CloudKit)
import CloudKit
import CRDTNote
import Foundation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
actor NotesCKSync: CKSyncEngineDelegate {
    /// Every sync decision (merge, what to send, what changed), on the app's note library.
    private var core: NoteSyncCore
    /// Asset files staged for records in flight, by record name; removed once CloudKit answered.
    private var stagedFiles: [String: [URL]] = [:]
    private let zoneID = CKRecordZone.ID(zoneName: "Notes")
    /// Set when the library could not take a fetched change (see `saveSyncEngineState`).
    private var libraryFailed = false
    /// Whether CKSyncEngine started without a saved state (it then fetches the zone from its start).
    private var startedWithoutState = false

    /// The library whose notes CKSyncEngine syncs (NotesSync.openLibrary opens it).
    init(library: NoteLibrary) {
        core = NoteSyncCore(library: library)
    }

    /// At launch: CKSyncEngine resumes from the state the library keeps for it (nil on the first
    /// launch), and is told about every note still to send.
    static func start(library: NoteLibrary, container: CKContainer) async throws -> (NotesCKSync, CKSyncEngine) {
        let sync = NotesCKSync(library: library)
        let saved = try await sync.savedSyncEngineState()
        await sync.markStart(fromScratch: saved == nil)
        let configuration = CKSyncEngine.Configuration(database: container.privateCloudDatabase,
                                                       stateSerialization: saved, delegate: sync)
        let syncEngine = CKSyncEngine(configuration)
        try await sync.scheduleSends(syncEngine)
        return (sync, syncEngine)
    }

    /// Tells CKSyncEngine about every note the library holds that the server lacks. Call it at
    /// launch (a crash can lose pending changes CKSyncEngine had not yet saved in its state) and
    /// after the app edits or deletes notes through the library. Adding a change again is
    /// harmless: a note with nothing left to send builds no record.
    func scheduleSends(_ syncEngine: CKSyncEngine) throws {
        // This device's record (what it reads, Docs/RECORD-FORMAT.md "Device records") goes
        // first when it is due; `recordToSend` builds it like a note.
        let names = (try core.announcementDue()).map { [$0] } ?? []
        let saves = try (names + core.unsavedNoteNames()).map { CKSyncEngine.PendingRecordZoneChange.saveRecord(CKRecord.ID(recordName: $0, zoneID: zoneID)) }
        let deletes = try core.pendingDeleteNames().map { CKSyncEngine.PendingRecordZoneChange.deleteRecord(CKRecord.ID(recordName: $0, zoneID: zoneID)) }
        syncEngine.state.add(pendingRecordZoneChanges: saves + deletes)
    }

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        switch event {
        case .stateUpdate(let update):
            saveSyncEngineState(update.stateSerialization)

        case .didFetchChanges:
            // The device records of the zone are known from here on (from the start when
            // CKSyncEngine began without a saved state): the payload format follows them.
            do throws(NoteSyncError) {
                try core.changesFetched(fromStart: startedWithoutState)
                startedWithoutState = false
            } catch {
                libraryFailed = true
            }

        case .fetchedRecordZoneChanges(let changes):
            for modification in changes.modifications {
                do throws(NoteSyncError) {
                    try core.receive(CloudRecord(modification.record))
                } catch where error.code == .persistFailed {
                    libraryFailed = true   // the library could not be written
                } catch {
                    // A record this app cannot read (newer version, damaged) is skipped; its note
                    // stays as it was.
                }
            }
            for deletion in changes.deletions {
                do {
                    try core.receiveDeletion(of: deletion.recordID.recordName)
                } catch {
                    libraryFailed = true   // only the library can fail here
                }
            }

        case .sentRecordZoneChanges(let sent):
            for record in sent.savedRecords {
                removeStagedFiles(of: record.recordID.recordName)
                // If the library cannot note it, the note stays unsaved: the next send meets its
                // own version and merges to the same text.
                try? core.recordWasSaved(CloudRecord(record))
            }
            for id in sent.deletedRecordIDs {
                try? core.deleteWasSent(id.recordName)   // else sent again; deleting twice is harmless
            }
            var resend: [CKSyncEngine.PendingRecordZoneChange] = []
            var zoneLost: RecordStoreError?
            var fetchFirst = false
            for failure in sent.failedRecordSaves {
                let id = failure.record.recordID
                removeStagedFiles(of: id.recordName)
                // serverRecordChanged carries ancestorRecord, clientRecord and serverRecord; the
                // core merges them on the server record (its change tag) into the local note.
                let error = RecordStoreError(cloudKitError: failure.error, recordName: id.recordName)
                switch core.recordSaveFailed(id.recordName, error: error) {
                case .sendAgain, .retryLater: resend.append(.saveRecord(id))
                case .fetchServerRecord: fetchFirst = true; resend.append(.saveRecord(id))
                case .recreateZone: zoneLost = error
                case .giveUp, .done, .stop: break   // named in the report's failures (or settled)
                }
            }
            if let zoneLost, (try? core.zoneWasLost(zoneLost)) != nil {
                // One recovery for the whole batch: recreate the zone, send every note again.
                syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: zoneID))])
                resend = ((try? core.unsavedNoteNames()) ?? []).map { .saveRecord(CKRecord.ID(recordName: $0, zoneID: zoneID)) }
            }
            syncEngine.state.add(pendingRecordZoneChanges: resend)
            if fetchFirst {
                // The conflict's server record came without its asset: the fetch brings it whole
                // and `receive` merges it before the note is sent again.
                Task { try? await syncEngine.fetchChanges() }
            }

        default:
            break
        }
        notesChanged(core.takeReport())   // report.changes: update open editors
    }

    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext,
                                   syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? {
        // Nothing leaves the device that the library does not hold durably, deletes included
        // (`recordToSend` flushes too, but a batch of deletes alone never calls it).
        guard (try? core.library.flush()) != nil else { return nil }
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.scope.contains($0) }
        let directory = assetStagingURL
        return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { recordID in
            guard let stored = await self.recordToSend(recordID.recordName),
                  let made = try? stored.makeCKRecord(zoneID: recordID.zoneID, assetDirectory: directory)
            else { return nil }   // nothing to send: CKSyncEngine drops the pending change
            await self.staged(made.stagedFiles, for: recordID.recordName)
            return made.record
        }
    }

    private func recordToSend(_ name: String) -> CloudRecord? {
        removeStagedFiles(of: name)   // built for an earlier batch and never answered
        return try? core.recordToSend(for: name)
    }

    private func staged(_ files: [URL], for name: String) {
        stagedFiles[name, default: []] += files
    }

    /// Every staged file of a record goes once CloudKit has answered for it (saved or failed).
    private func removeStagedFiles(of name: String) {
        for url in stagedFiles.removeValue(forKey: name) ?? [] {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Where `makeCKRecord` writes asset files before upload.
    nonisolated var assetStagingURL: URL { FileManager.default.temporaryDirectory }

    func notesChanged(_ report: NoteSyncReport) { /* update editors of report.changedNotes */ }

    /// Keeps CKSyncEngine's state in the library's transport slot. `saveTransportState` writes
    /// it behind every note received so far and makes them durable together, so a saved state
    /// never says a change was fetched that the library lost. After the library failed to take a
    /// fetched change the state is ahead of the notes: it is not saved again, and the next
    /// launch fetches from the last state saved.
    func saveSyncEngineState(_ serialization: CKSyncEngine.State.Serialization) {
        guard !libraryFailed, let bytes = try? JSONEncoder().encode(serialization) else { return }
        try? core.saveTransportState(Array(bytes))
    }

    /// Remembers whether the first fetch reads the zone from its start.
    func markStart(fromScratch: Bool) {
        startedWithoutState = fromScratch
    }

    /// The state `saveSyncEngineState` kept, for `CKSyncEngine.Configuration(stateSerialization:)`.
    func savedSyncEngineState() throws -> CKSyncEngine.State.Serialization? {
        guard let bytes = try core.transportState() else { return nil }
        return try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: Data(bytes))
    }
}
#endif
