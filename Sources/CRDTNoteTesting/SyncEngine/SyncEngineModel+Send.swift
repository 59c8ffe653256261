import CRDTNote

/// Sending pending changes in batches the adapter builds.
extension SyncEngineModel {
    /// Sends the pending zone save and record changes (`CKSyncEngine.sendChanges()`), one batch
    /// at a time, until nothing is pending, the adapter builds no batch, or a batch only met
    /// transient failures (the engine retries those later).
    public func sendChanges() async throws(Crashed) {
        try await startIfNeeded()
        guard let database, state.zoneSave || !state.pending.isEmpty else { return }
        try await emit(.willSendChanges, "willSendChanges")
        if state.zoneSave {
            var answer = ExternalSyncEvent.SentZoneChanges(saved: [zone])
            do {
                try await database.saveZone(zone)
                state.zoneSave = false
                unsavedStateChanges += 1
            } catch {
                answer = ExternalSyncEvent.SentZoneChanges(failedSaves: [(zone, RecordStoreError(cloudKit: error))])
            }
            try await emit(.sentDatabaseChanges(answer), "sentDatabaseChanges")
        }
        for _ in 0..<100 {
            guard !state.pending.isEmpty,
                  let batch = await adapter.nextBatch(pending: pendingRecordChanges(), engine: self) else { break }
            if crashed { throw Crashed() }
            let sent = await send(batch, to: database)
            if let hook = afterNextRequest {
                afterNextRequest = nil
                hook()
            }
            let madeProgress = !sent.saved.isEmpty || !sent.deleted.isEmpty
                || sent.failedSaves.contains { !$0.error.isTransient } || sent.failedDeletes.values.contains { !$0.isTransient }
            try await emit(.sentRecordZoneChanges(sent), "sentRecordZoneChanges")
            try await checkpoint()
            if !madeProgress { break }
        }
        try await emit(.didSendChanges, "didSendChanges")
        try await checkpoint()
    }

    /// One modify request; the sent changes leave the pending set before the answer is
    /// delivered, except those that failed transiently.
    func send(_ batch: ExternalSyncBatch, to database: InMemoryCloudDatabase) async -> ExternalSyncEvent.SentRecordChanges {
        var saveResults: [String: Result<CloudRecord, CloudKitFailure>] = [:]
        var deleteResults: [String: Result<Void, CloudKitFailure>] = [:]
        do {
            (saveResults, deleteResults) = try await database.modifyRecords(saving: batch.recordsToSave, deleting: batch.recordNamesToDelete, in: zone)
        } catch {
            for record in batch.recordsToSave { saveResults[record.recordName] = .failure(error) }
            for name in batch.recordNamesToDelete { deleteResults[name] = .failure(error) }
        }
        var sent = ExternalSyncEvent.SentRecordChanges()
        var done: [PendingRecordChange] = []
        for record in batch.recordsToSave {
            let name = record.recordName
            switch saveResults[name] {
            case .success(let saved)?:
                sent.saved.append(saved)
                done.append(.save(name))
            case .failure(var failure)?:
                if conflictsWithoutAssets, let server = failure.server { failure.server = InMemoryCloudDatabase.withoutAssetBytes(server) }
                let error = RecordStoreError(cloudKit: failure, recordName: name)
                sent.failedSaves.append((record, error))
                if !error.isTransient { done.append(.save(name)) }
            case nil:
                sent.failedSaves.append((record, RecordStoreError(.serviceUnavailable, recordName: name, "no result for the record")))
            }
        }
        for name in batch.recordNamesToDelete {
            switch deleteResults[name] {
            case .success?:
                sent.deleted.append(name)
                done.append(.delete(name))
            case .failure(let failure)?:
                let error = RecordStoreError(cloudKit: failure, recordName: name)
                sent.failedDeletes[name] = error
                if !error.isTransient { done.append(.delete(name)) }
            case nil:
                sent.failedDeletes[name] = RecordStoreError(.serviceUnavailable, recordName: name, "no result for the record")
            }
        }
        removePendingRecordChanges(done)
        return sent
    }

}
