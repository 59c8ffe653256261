// CKSyncEngine's types in portable form (Apple platforms only).
#if canImport(CloudKit)
import CloudKit
import Foundation

/// `CKSyncEngine`'s pending changes and record fetches, for ``ExternalSyncAdapter``, limited to
/// the notes zone.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct CKSyncEngineQueue: ExternalSyncEngine {
    let engine: CKSyncEngine
    let zoneName: String

    var zoneID: CKRecordZone.ID { CKRecordZone.ID(zoneName: zoneName) }

    /// A pending change of the notes zone in portable form (nil: another zone's, or unknown).
    func portable(_ change: CKSyncEngine.PendingRecordZoneChange) -> PendingRecordChange? {
        switch change {
        case .saveRecord(let id) where id.zoneID.zoneName == zoneName: .save(id.recordName)
        case .deleteRecord(let id) where id.zoneID.zoneName == zoneName: .delete(id.recordName)
        default: nil
        }
    }

    func native(_ change: PendingRecordChange) -> CKSyncEngine.PendingRecordZoneChange {
        switch change {
        case .save(let name): .saveRecord(CKRecord.ID(recordName: name, zoneID: zoneID))
        case .delete(let name): .deleteRecord(CKRecord.ID(recordName: name, zoneID: zoneID))
        }
    }

    func pendingRecordChanges() async -> [PendingRecordChange] {
        engine.state.pendingRecordZoneChanges.compactMap(portable)
    }

    func addPendingRecordChanges(_ changes: [PendingRecordChange]) async {
        engine.state.add(pendingRecordZoneChanges: changes.map(native))
    }

    func removePendingRecordChanges(_ changes: [PendingRecordChange]) async {
        engine.state.remove(pendingRecordZoneChanges: changes.map(native))
    }

    func addPendingZoneSave() async {
        engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: zoneID))])
    }

    /// `CKDatabase.records(for:)`: the record by id, assets downloaded; `unknownItem` is absence.
    func fetchRecord(named name: String) async throws(RecordStoreError) -> CloudRecord? {
        let id = CKRecord.ID(recordName: name, zoneID: zoneID)
        let result: Result<CKRecord, any Error>?
        do {
            result = try await engine.database.records(for: [id])[id]
        } catch {
            throw RecordStoreError(cloudKitError: error, recordName: name)
        }
        switch result {
        case .success(let record)?: return CloudRecord(record)
        case .failure(let error)? where (error as? CKError)?.code == .unknownItem: return nil
        case .failure(let error)?: throw RecordStoreError(cloudKitError: error, recordName: name)
        case nil: return nil
        }
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension CloudKitNoteSync {
    /// The event in portable types (nil: an event this release does not know). Records are
    /// read here, before their staged files go.
    func portableEvent(_ event: CKSyncEngine.Event) async -> ExternalSyncEvent? {
        switch event {
        case .stateUpdate(let update):
            do {
                return .stateUpdate(Array(try JSONEncoder().encode(update.stateSerialization)))
            } catch {
                await adapter.failed(NoteSyncError(.persistFailed, "cannot encode CKSyncEngine's state: \(error)"))
                return nil
            }
        case .accountChange(let change):
            switch change.changeType {
            case .signIn(let current): return .accountChange(.signIn(current: current.recordName))
            case .signOut(let previous): return .accountChange(.signOut(previous: previous.recordName))
            case .switchAccounts(let previous, let current):
                return .accountChange(.switchAccounts(previous: previous.recordName, current: current.recordName))
            @unknown default: return nil
            }
        case .fetchedDatabaseChanges(let changes):
            let deleted = changes.deletions.compactMap { deletion -> ExternalSyncEvent.ZoneDeletion? in
                let reason: NoteSyncZoneDeletion.Reason
                switch deletion.reason {
                case .deleted: reason = .deleted
                case .purged: reason = .purged
                case .encryptedDataReset: reason = .encryptedDataReset
                @unknown default: reason = .deleted
                }
                return ExternalSyncEvent.ZoneDeletion(zone: Self.zone(deletion.zoneID), reason: reason)
            }
            return .fetchedDatabaseChanges(modified: changes.modifications.map { Self.zone($0.zoneID) }, deleted: deleted)
        case .fetchedRecordZoneChanges(let changes):
            let deleted = changes.deletions.filter { $0.recordID.zoneID.zoneName == zoneName }.map(\.recordID.recordName)
            return .fetchedRecordZoneChanges(modified: changes.modifications.map { CloudRecord($0.record) }, deleted: deleted)
        case .sentDatabaseChanges(let sent):
            return .sentDatabaseChanges(ExternalSyncEvent.SentZoneChanges(
                saved: sent.savedZones.map { Self.zone($0.zoneID) },
                failedSaves: sent.failedZoneSaves.map { (Self.zone($0.zone.zoneID), RecordStoreError(cloudKitError: $0.error)) },
                deleted: sent.deletedZoneIDs.map(Self.zone),
                failedDeletes: sent.failedZoneDeletes.map { (Self.zone($0.key), RecordStoreError(cloudKitError: $0.value)) }))
        case .sentRecordZoneChanges(let sent):
            var failedDeletes: [String: RecordStoreError] = [:]
            for (id, error) in sent.failedRecordDeletes where id.zoneID.zoneName == zoneName {
                failedDeletes[id.recordName] = RecordStoreError(cloudKitError: error, recordName: id.recordName)
            }
            return .sentRecordZoneChanges(ExternalSyncEvent.SentRecordChanges(
                saved: sent.savedRecords.map(CloudRecord.init),
                failedSaves: sent.failedRecordSaves.map {
                    (CloudRecord($0.record), RecordStoreError(cloudKitError: $0.error, recordName: $0.record.recordID.recordName))
                },
                deleted: sent.deletedRecordIDs.filter { $0.zoneID.zoneName == zoneName }.map(\.recordName),
                failedDeletes: failedDeletes))
        case .willFetchChanges: return .willFetchChanges
        case .willFetchRecordZoneChanges(let will): return .willFetchRecordZoneChanges(Self.zone(will.zoneID))
        case .didFetchRecordZoneChanges(let did):
            return .didFetchRecordZoneChanges(Self.zone(did.zoneID), error: did.error.map { RecordStoreError(cloudKitError: $0) })
        case .didFetchChanges: return .didFetchChanges
        case .willSendChanges: return .willSendChanges
        case .didSendChanges: return .didSendChanges
        @unknown default: return nil
        }
    }

    /// A CloudKit zone id in portable form.
    static func zone(_ id: CKRecordZone.ID) -> RecordZoneID {
        RecordZoneID(zoneName: id.zoneName, ownerName: id.ownerName)
    }
}
#endif
