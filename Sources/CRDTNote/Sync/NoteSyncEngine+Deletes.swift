/// Sending local deletes without deleting versions this device has not seen.
extension NoteSyncEngine {
    /// Sends pending deletes in batches.
    func pushDeletes() async throws(NoteSyncError) {
        let names = try core.pendingChanges().recordsToDelete
        // A delete leaves the device only once the library holds it durably.
        if !names.isEmpty { try flushLibrary() }
        var start = 0
        while start < names.count {
            var chunk = Array(names[start..<min(start + configuration.batchSize, names.count)])
            start += chunk.count
            chunk = try await withoutNewerVersions(chunk)
            if chunk.isEmpty { continue }
            var attempt = 0
            while true {
                attempt += 1
                do {
                    try await store.deleteRecords(named: chunk, in: configuration.zone)
                    break
                } catch {
                    if error.isTransient {
                        try await backOff(after: error, attempt: attempt)
                    } else if let zoneCode = error.zoneErrorCode, zoneCode != .changeTokenExpired {
                        try await recoverZone(after: error)
                        return
                    } else if error.code == .partialFailure && error.itemErrors.values.allSatisfy(\.isTransient) {
                        try await backOff(after: error.itemErrors.values.first ?? error, attempt: attempt)
                    } else {
                        throw NoteSyncError(.storeFailure, storeError: error, "cannot delete notes: \(error)")
                    }
                }
            }
            for name in chunk { try core.deleteWasSent(name) }
        }
    }

    /// The names whose server version is still the one deleted here. CloudKit deletes are
    /// unconditional, so a version saved elsewhere since the last fetch is checked for first and
    /// handled as news (by default it brings the note back) instead of being deleted unseen.
    func withoutNewerVersions(_ names: [String]) async throws(NoteSyncError) -> [String] {
        var attempt = 0
        var current: [String: CloudRecord] = [:]
        while true {
            attempt += 1
            do {
                current = try await store.fetchRecords(named: names, in: configuration.zone)
                break
            } catch {
                guard error.isTransient else { return names } // the delete request reports it
                try await backOff(after: error, attempt: attempt)
            }
        }
        var keep: [String] = []
        for name in names {
            if try core.deleteToSend(for: name, afterFetching: current[name]) { keep.append(name) }
        }
        return keep
    }
}
