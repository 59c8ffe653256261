import CRDTNoteSupport
import CRDTNote
/// Saves and deletes, as `CKDatabase.modifyRecords(saving:deleting:savePolicy:
/// .ifServerRecordUnchanged, atomically: false)` answers them: one `Result` per item, and a
/// thrown `CloudKitFailure` only when the whole request fails.
extension InMemoryCloudDatabase {
    /// Saves records with change-tag checks and deletes records unconditionally, non-atomically.
    ///
    /// Request-level failures: the zone is gone (`zoneNotFound`, `userDeletedZone`), the request
    /// is over a limit (`limitExceeded`), a record is saved twice (`invalidArguments`), and the
    /// injected ones. Per save: the saved version (new change tag, asset references the database
    /// controls), or `serverRecordChanged` with ancestor, client and server records,
    /// `unknownItem` (a tagged save of a record that is gone), `limitExceeded` (the record alone is
    /// too large), `invalidArguments` (an asset without bytes). Per delete: success, or
    /// `unknownItem` for a record that does not exist.
    public func modifyRecords(saving: [CloudRecord], deleting: [String], in zone: RecordZoneID) async throws(CloudKitFailure)
        -> (saveResults: [String: Result<CloudRecord, CloudKitFailure>], deleteResults: [String: Result<Void, CloudKitFailure>]) {
        do {
            return try modify(saving: saving, deleting: deleting, in: zone)
        } catch {
            guard plan.wrapsZoneErrors, Self.isZoneFailure(error) else { throw error }
            // As CloudKit's operations report it: the zone's error for every item.
            guard !saving.isEmpty || !deleting.isEmpty else { throw wrappedInZone(error, zone: zone) }
            var saves: [String: Result<CloudRecord, CloudKitFailure>] = [:]
            for stored in saving { saves[stored.recordName] = .failure(error) }
            var deletes: [String: Result<Void, CloudKitFailure>] = [:]
            for name in deleting { deletes[name] = .failure(error) }
            return (saves, deletes)
        }
    }

    /// Faults a save (or a save with deletes) can meet.
    static let saveFaults: FaultPlan.Kinds = [.all, .userDeletedZone, .serverResponseLost, .operationCancelled, .recordTooLarge, .partialSavedRecords,
                                             .assetNotDownloaded]
    /// Faults a request that only deletes can meet.
    static let deleteFaults: FaultPlan.Kinds = [.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone,
                                               .serverResponseLost, .operationCancelled]

    private func modify(saving records: [CloudRecord], deleting names: [String], in zone: RecordZoneID) throws(CloudKitFailure)
        -> (saveResults: [String: Result<CloudRecord, CloudKitFailure>], deleteResults: [String: Result<Void, CloudKitFailure>]) {
        let fault = try begin(records.isEmpty ? Self.deleteFaults : Self.saveFaults, zone: zone, batchSize: records.count, isWrite: true)
        var state = try existingZone(zone)
        if let message = limits.requestViolation(records: records) ?? limits.deleteViolation(count: records.count + names.count) {
            throw CloudKitFailure(.limitExceeded, message)
        }
        if let duplicate = OptimisticConcurrency.duplicate(in: records.map(\.recordName)) {
            throw CloudKitFailure(.invalidArguments, duplicate.message)
        }
        // Taken out while it changes, so its records are not copied (it is put back below).
        zones[zone.zoneName] = nil
        var failing: Set<Int> = []
        if fault == .partialFailure { failing = pickFailingItems(count: records.count) }
        let tooLarge = fault == .recordTooLarge ? random.below(records.count) : -1
        var saves: [String: Result<CloudRecord, CloudKitFailure>] = [:]
        var changed = false
        for (index, client) in records.enumerated() {
            let name = client.recordName
            if failing.contains(index) {
                saves[name] = .failure(CloudKitFailure(.serviceUnavailable, "injected: item '\(name)' of a batch failed",
                                                       retryAfterSeconds: drawRetryAfter()))
                continue
            }
            if index == tooLarge {
                saves[name] = .failure(CloudKitFailure(.limitExceeded, "injected: record '\(name)' is over the server's per-record limit"))
                continue
            }
            if let message = limits.recordViolation(client) {
                saves[name] = .failure(CloudKitFailure(.limitExceeded, message))
                continue
            }
            if let refusal = schema.check(client, in: "the in-memory database") {
                var failure = CloudKitFailure(.invalidArguments, refusal.message)
                failure.fieldTypeMismatch = refusal.fieldTypeMismatch
                saves[name] = .failure(failure)
                continue
            }
            if var failure = state.saveFailure(for: client) {
                if fault == .assetNotDownloaded, let server = failure.server {
                    failure.server = Self.withoutAssetBytes(server)
                    failure.ancestor = failure.ancestor.map(Self.withoutAssetBytes)
                }
                saves[name] = .failure(failure)
                continue
            }
            switch AssetBinding.bound(client, current: state.records[name]) {
            case .failure(let refusal):
                saves[name] = .failure(CloudKitFailure(.invalidArguments, refusal.message))
            case .success(var version):
                nextTag += 1
                version.recordChangeTag = "t\(nextTag)"
                version.zoneID = zone
                if let clock = modificationClock { version.modified = RecordTimestampInfo(timestamp: Int64(clamping: clock.now())) }
                if version.recordType != DeviceSchema.recordType, let format = NoteRecord(version).payloadReaderVersion {
                    savedPayloadFormats[format, default: 0] += 1
                }
                state.commit(version, historyLimit: historyLimit)
                schema.learn(version)
                changed = true
                saves[name] = .success(fault == .partialSavedRecords ? Self.partial(version) : version)
            }
        }
        var deletes: [String: Result<Void, CloudKitFailure>] = [:]
        for name in names {
            if state.delete(name) {
                changed = true
                deletes[name] = .success(())
            } else {
                deletes[name] = .failure(CloudKitFailure(.unknownItem, "record '\(name)' does not exist"))
            }
        }
        zones[zone.zoneName] = state
        if changed { notify(zone.zoneName) }
        if fault == .networkFailure { throw lostResponse() }
        if fault == .serverResponseLost {
            throw CloudKitFailure(.serverResponseLost, "injected: the request was applied but the server's response was lost")
        }
        return (saves, deletes)
    }
}
