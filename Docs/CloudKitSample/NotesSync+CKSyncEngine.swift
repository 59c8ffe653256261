// App-side sample code from Docs/CloudKit.md §8 ("Using CKSyncEngine instead"): CKSyncEngine as
// the transport, NoteSyncEngine making the decisions through its external-transport hooks.
// Not part of the package: .ci/typecheck-cloudkit type-checks it (Swift 6) against the CloudKit
// stand-in and the CRDTNote module. CKSyncEngine needs macOS 14 / iOS 17 / tvOS 17 /
// watchOS 10, above the package's minimum platforms, hence the availability attributes.
#if canImport(CloudKit)
import CloudKit
import CRDTNote
import Foundation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension NotesSync: CKSyncEngineDelegate {
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        switch event {
        case .stateUpdate(let update):
            saveSyncEngineState(update.stateSerialization)

        case .fetchedRecordZoneChanges(let changes):
            for modification in changes.modifications {
                try? await engine.receive(CloudRecord(modification.record))
            }
            for deletion in changes.deletions {
                await engine.receiveDeletion(of: deletion.recordID.recordName)
            }

        case .sentRecordZoneChanges(let sent):
            for record in sent.savedRecords {
                await engine.recordWasSaved(CloudRecord(record))
            }
            for id in sent.deletedRecordIDs {
                await engine.deleteWasSent(id.recordName)
            }
            var resend: [CKSyncEngine.PendingRecordZoneChange] = []
            var recreateZone = false
            for failure in sent.failedRecordSaves {
                let name = failure.record.recordID.recordName
                // serverRecordChanged: the error carries ancestorRecord, clientRecord and
                // serverRecord; the engine merges them on the server record (its change tag)
                // into the local note, so the next batch sends the merged state.
                let error = RecordStoreError(cloudKitError: failure.error, recordName: name)
                if [.zoneNotFound, .userDeletedZone].contains(error.code) { recreateZone = true }
                if (try? await engine.recordSaveFailed(name, error: error)) == true {
                    resend.append(.saveRecord(failure.record.recordID))
                }
            }
            if recreateZone {
                syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneName: "Notes"))])
            }
            syncEngine.state.add(pendingRecordZoneChanges: resend)

        default:
            break
        }
        try? await persist()
    }

    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext,
                                   syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.scope.contains($0) }
        return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { recordID in
            guard let stored = try? await self.engine.recordToSend(for: recordID.recordName),
                  let made = try? stored.makeCKRecord(zoneID: recordID.zoneID, assetDirectory: self.assetStagingURL)
            else { return nil }   // nothing to send: CKSyncEngine drops the pending change
            return made.record
        }
    }

    /// Where `makeCKRecord` writes asset files before upload.
    nonisolated var assetStagingURL: URL { FileManager.default.temporaryDirectory }

    /// Persist CKSyncEngine's state (it is `Codable`) next to the `NoteSyncState`; pass it back
    /// in `CKSyncEngine.Configuration(stateSerialization:)` on the next launch.
    func saveSyncEngineState(_ serialization: CKSyncEngine.State.Serialization) { /* your persistence */ }
}
#endif
