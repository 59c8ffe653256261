/// The engine's events: what each changes in the library and in the engine's pending changes.
extension ExternalSyncAdapter {
    /// Handles one event of the engine (`CKSyncEngineDelegate.handleEvent`). Events arrive one
    /// at a time, in the engine's order.
    package func handle(_ event: ExternalSyncEvent, engine: some ExternalSyncEngine) async {
        switch event {
        case .stateUpdate(let bytes):
            saveEngineState(bytes)
        case .accountChange(let change):
            await accountChanged(change, engine: engine)
        case .fetchedDatabaseChanges(_, let deleted):
            for deletion in deleted where isNotesZone(deletion.zone) {
                await zoneWentAway(deletion.reason, engine: engine)
            }
        case .fetchedRecordZoneChanges(let modified, let deleted):
            await received(modified, deleted: deleted, engine: engine)
        case .sentDatabaseChanges(let sent):
            if sent.saved.contains(where: isNotesZone) { attempt { (core) throws(NoteSyncError) in try core.zoneWasSaved() } }
            for (failedZone, error) in sent.failedSaves where isNotesZone(failedZone) {
                failed(NoteSyncError(.storeFailure, storeError: error, "cannot create the notes zone: \(error)"))
            }
            for (failedZone, error) in sent.failedDeletes where isNotesZone(failedZone) {
                failed(NoteSyncError(.storeFailure, storeError: error, "cannot delete the notes zone: \(error)"))
            }
        case .sentRecordZoneChanges(let sent):
            await sentRecords(sent, engine: engine)
        case .didFetchRecordZoneChanges(let fetchedZone, let error?) where isNotesZone(fetchedZone):
            failed(NoteSyncError(.storeFailure, storeError: error, "cannot fetch the notes zone's changes: \(error)"))
        case .didFetchChanges:
            // The device records of the zone are known from here on: the payload format follows them.
            let fromStart = startedWithoutState
            guard attempt({ (core) throws(NoteSyncError) in try core.changesFetched(fromStart: fromStart) }) != nil else { break }
            startedWithoutState = false
            if case let device?? = attempt({ (core) throws(NoteSyncError) in try core.announcementDue() }) {
                await engine.addPendingRecordChanges([.save(device)])
            }
        case .willFetchChanges, .willFetchRecordZoneChanges, .didFetchRecordZoneChanges, .willSendChanges, .didSendChanges:
            break
        }
    }

    /// Whether `other` is the notes zone (by name: CloudKit fills in the owner name).
    func isNotesZone(_ other: RecordZoneID) -> Bool {
        other.zoneName == zone.zoneName
    }

    /// Keeps the engine's state in the library's transport slot, written behind every note
    /// received so far and made durable with them, so a saved state never says a change was
    /// fetched that the library lost.
    func saveEngineState(_ bytes: [UInt8]) {
        guard !libraryFailed else { return }
        attempt { (core) throws(NoteSyncError) in try core.saveTransportState(bytes) }
    }

    /// Merges fetched records and deletions into the library; each failure is reported and the
    /// others go on.
    func received(_ modified: [CloudRecord], deleted: [String], engine: some ExternalSyncEngine) async {
        var touched = Set<String>()
        for record in modified where record.zoneID.map(isNotesZone) ?? true {
            touched.insert(record.recordName)
            attempt { (core) throws(NoteSyncError) in try core.receive(record) }
        }
        for name in deleted {
            touched.insert(name)
            attempt { (core) throws(NoteSyncError) in try core.receiveDeletion(of: name) }
        }
        await followUp(touched, engine: engine)
    }
}
