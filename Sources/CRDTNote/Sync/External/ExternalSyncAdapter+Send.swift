/// Sending: each batch built from the library when the engine asks, and what its answer changes.
extension ExternalSyncAdapter {
    /// The next batch to send (`CKSyncEngineDelegate.nextRecordZoneChangeBatch`), built from
    /// `pending` (the engine's pending changes in the send's scope, in order) up to the batch
    /// limits; nil when there is nothing to send. The library is flushed first, deletes included,
    /// so nothing leaves the device that a crash could take back. A pending change with nothing
    /// left to send is removed from the engine (a nil record would only skip it); a delete is
    /// sent only while the library still has it pending, and only if the server's version is
    /// the one deleted here (CloudKit deletes unconditionally): a version saved elsewhere since
    /// is received instead, so another device's edit is not deleted unseen.
    package func nextBatch(pending: [PendingRecordChange], engine: some ExternalSyncEngine) async -> ExternalSyncBatch? {
        guard !pending.isEmpty, attempt({ (core) throws(NoteSyncError) in try core.flushLibrary() }) != nil else { return nil }
        var records: [CloudRecord] = []
        var bytes = 0
        var toDelete: [String] = []
        var dropped: [PendingRecordChange] = []
        for change in pending {
            guard records.count + toDelete.count < batchLimits.maxRecordsPerRequest else { break }
            switch change {
            case .delete(let name):
                if await deleteToSend(name, engine: engine) { toDelete.append(name) } else { dropped.append(change) }
            case .save(let name):
                guard case let record?? = attempt({ (core) throws(NoteSyncError) in try core.recordToSend(for: name) }) else {
                    dropped.append(change)   // nothing left to send, or it cannot be built (reported)
                    continue
                }
                if !records.isEmpty && bytes + record.size > batchLimits.maxRequestBytes { break }
                records.append(record)
                bytes += record.size
            }
            if bytes >= batchLimits.maxRequestBytes { break }
        }
        if !dropped.isEmpty { await engine.removePendingRecordChanges(dropped) }
        guard !records.isEmpty || !toDelete.isEmpty else { return nil }
        return ExternalSyncBatch(recordsToSave: records, recordNamesToDelete: toDelete)
    }

    /// Whether the delete of `name` is still to be sent (``NoteSyncCore/deleteToSend(for:)``)
    /// and the server holds no version this device has not seen: the record is fetched by name
    /// first, and a newer version is received instead of deleted
    /// (``NoteSyncCore/deleteToSend(for:afterFetching:)``). A fetch that fails lets the delete
    /// go, as `NoteSyncEngine` does: the send reports its own failure.
    func deleteToSend(_ name: String, engine: some ExternalSyncEngine) async -> Bool {
        guard attempt({ (core) throws(NoteSyncError) in try core.deleteToSend(for: name) }) == true else { return false }
        let current: CloudRecord?
        do {
            current = try await engine.fetchRecord(named: name)
        } catch {
            if !error.isTransient {
                failed(NoteSyncError(.storeFailure, noteName: name, storeError: error, "cannot check the note before deleting it: \(error)"))
            }
            return true
        }
        return attempt({ (core) throws(NoteSyncError) in try core.deleteToSend(for: name, afterFetching: current) }) == true
    }

    /// The answer to a batch: saved records confirm their notes, failed ones are resolved as the
    /// core decides (merge and send again, fetch the server's record by name first, re-create
    /// the zone, give up), deletes are settled; notes left unsaved are added again.
    func sentRecords(_ sent: ExternalSyncEvent.SentRecordChanges, engine: some ExternalSyncEngine) async {
        var touched = Set<String>()
        var again: [PendingRecordChange] = []
        var zoneLost: RecordStoreError?
        for record in sent.saved {
            touched.insert(record.recordName)
            attempt { (core) throws(NoteSyncError) in try core.recordWasSaved(record) }
        }
        for (record, error) in sent.failedSaves {
            let name = record.recordName
            switch core.recordSaveFailed(name, error: error) {
            case .sendAgain, .retryLater:
                again.append(.save(name))
            case .fetchServerRecord:
                await fetchAndReceive(name, engine: engine)
                again.append(.save(name))
            case .recreateZone:
                zoneLost = error
            case .giveUp, .done:
                break   // a note given up is named in the report's failures
            case .stop:
                break   // in the report's errors
            }
        }
        for name in sent.deleted {
            attempt { (core) throws(NoteSyncError) in try core.deleteWasSent(name) }
        }
        for (name, error) in sent.failedDeletes.sorted(by: { $0.key < $1.key }) {
            switch core.deleteFailed(name, error: error) {
            case .sendAgain, .retryLater: again.append(.delete(name))
            case .recreateZone: zoneLost = error
            case .fetchServerRecord, .giveUp, .done, .stop: break   // settled, or in the report's errors
            }
        }
        if !again.isEmpty { await engine.addPendingRecordChanges(again) }
        if let zoneLost {
            await recreateZone(after: zoneLost, engine: engine)
        } else {
            await followUp(touched, engine: engine)
        }
    }

    /// Fetches note `name`'s server record by name and merges it (a conflict's server record
    /// came without its asset bytes).
    func fetchAndReceive(_ name: String, engine: some ExternalSyncEngine) async {
        do {
            guard let record = try await engine.fetchRecord(named: name) else { return }
            attempt { (core) throws(NoteSyncError) in try core.receive(record) }
        } catch {
            failed(NoteSyncError(.storeFailure, noteName: name, storeError: error, "cannot fetch the server's version of the note: \(error)"))
        }
    }

    /// The zone is gone (``NoteSyncCore/zoneWasLost(_:)``, once for the whole batch): the zone
    /// is saved again and every note sent again, unless the user deleted it and the app has not
    /// consented to re-create it.
    func recreateZone(after error: RecordStoreError, engine: some ExternalSyncEngine) async {
        attempt { (core) throws(NoteSyncError) in try core.zoneWasLost(error) }
        await engine.removePendingRecordChanges(await engine.pendingRecordChanges())
        await reconcile(engine: engine)
    }
}

extension NoteSyncCore {
    /// Makes every change in the library durable (deletes too: a batch of deletes alone builds no record).
    func flushLibrary() throws(NoteSyncError) {
        try access { (access) throws(NoteSyncError) in
            do throws(NoteLibraryError) { try access.flush() } catch { throw NoteSyncError(library: error) }
        }
    }
}
