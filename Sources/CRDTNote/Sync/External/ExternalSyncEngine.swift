/// A change the external engine is to send: a note (or device) record to save, or one to delete.
/// `CKSyncEngine.PendingRecordZoneChange` in portable form, by record name in the notes zone.
package enum PendingRecordChange: Hashable, Sendable {
    /// Save the record of this name (built when the engine asks for a batch).
    case save(String)
    /// Delete the record of this name.
    case delete(String)

    /// The record the change is about.
    package var recordName: String {
        switch self {
        case .save(let name), .delete(let name): name
        }
    }
}

/// The calls ``ExternalSyncAdapter`` makes on a sync engine that owns the transport, such as
/// `CKSyncEngine`: its pending changes, a save of the notes zone, and a fetch of one record by
/// name. The Apple-only `CloudKitNoteSync` implements it over `CKSyncEngine`; CRDTNoteTesting's
/// `SyncEngineModel` implements it over an in-memory database, so tests run the adapter's code.
package protocol ExternalSyncEngine: Sendable {
    /// The record changes waiting to be sent (`CKSyncEngine.State.pendingRecordZoneChanges`).
    func pendingRecordChanges() async -> [PendingRecordChange]
    /// Adds changes to send; adding one already pending changes nothing.
    func addPendingRecordChanges(_ changes: [PendingRecordChange]) async
    /// Removes changes that are no longer to be sent.
    func removePendingRecordChanges(_ changes: [PendingRecordChange]) async
    /// Adds a save of the notes zone to the database changes to send (`.saveZone`).
    func addPendingZoneSave() async
    /// The server's current version of one record, fetched by name (nil: it does not exist).
    /// Not the change feed, which does not deliver a version again once it was passed.
    func fetchRecord(named name: String) async throws(RecordStoreError) -> CloudRecord?
}
