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
    /// The notes and every sync decision (merge, what to send, what changed).
    private var core: NoteSyncCore
    /// Asset files staged for records in flight, by record name; removed once CloudKit answered.
    private var stagedFiles: [String: [URL]] = [:]
    private let zoneID = CKRecordZone.ID(zoneName: "Notes")

    init(replica: ReplicaID, state: NoteSyncState?) throws {
        core = try NoteSyncCore(replica: replica, state: state)
    }

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        switch event {
        case .stateUpdate(let update):
            saveSyncEngineState(update.stateSerialization)

        case .fetchedRecordZoneChanges(let changes):
            for modification in changes.modifications {
                // A record this app cannot read (newer version, damaged) throws and is skipped;
                // its note stays as it was.
                _ = try? core.receive(CloudRecord(modification.record))
            }
            for deletion in changes.deletions {
                core.receiveDeletion(of: deletion.recordID.recordName)
            }

        case .sentRecordZoneChanges(let sent):
            for record in sent.savedRecords {
                removeStagedFiles(of: record.recordID.recordName)
                core.recordWasSaved(CloudRecord(record))
            }
            for id in sent.deletedRecordIDs {
                core.deleteWasSent(id.recordName)
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
                resend = core.unsavedNoteNames.map { .saveRecord(CKRecord.ID(recordName: $0, zoneID: zoneID)) }
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
        persist(core.savedState())
    }

    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext,
                                   syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? {
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

    /// Persist the `NoteSyncState` (it is `Codable`, see `NotesSync.save`).
    func persist(_ state: NoteSyncState) { /* your persistence */ }

    /// Persist CKSyncEngine's state (it is `Codable`) next to the `NoteSyncState`; pass it back
    /// in `CKSyncEngine.Configuration(stateSerialization:)` on the next launch.
    func saveSyncEngineState(_ serialization: CKSyncEngine.State.Serialization) { /* your persistence */ }
}
#endif
