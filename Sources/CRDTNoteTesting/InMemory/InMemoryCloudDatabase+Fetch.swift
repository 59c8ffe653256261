import CRDTNoteSupport
import CRDTNote
/// Fetching records by name and reading a zone's change feed, as `CKDatabase.records(for:)` and
/// `CKDatabase.recordZoneChanges(inZoneWith:since:desiredKeys:resultsLimit:)` answer.
extension InMemoryCloudDatabase {
    /// The current version of each named record, or `unknownItem` for one that does not exist.
    /// Throws for the whole request when the zone is gone or a fault is injected.
    public func records(named names: [String], in zone: RecordZoneID) async throws(CloudKitFailure) -> [String: Result<CloudRecord, CloudKitFailure>] {
        do {
            try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone, .operationCancelled], zone: zone)
            let state = try existingZone(zone)
            var out: [String: Result<CloudRecord, CloudKitFailure>] = [:]
            for name in names {
                if let stored = state.records[name] {
                    out[name] = .success(stored)
                } else {
                    out[name] = .failure(CloudKitFailure(.unknownItem, "record '\(name)' does not exist"))
                }
            }
            return out
        } catch {
            throw wrappingZoneFailure(error, zone: zone)
        }
    }

    /// A page of the change feed after `token` (nil: from the start), at most `resultsLimit`
    /// records: the changed records, the names deleted, the token to pass next and whether more
    /// are waiting. A token this database did not issue for this zone (another database's,
    /// damaged) is `changeTokenExpired`, as is one issued before the zone was recreated or its
    /// tokens expired.
    public func recordZoneChanges(in zone: RecordZoneID, since token: ChangeToken?, resultsLimit: Int) async throws(CloudKitFailure)
        -> (modifications: [String: Result<CloudRecord, CloudKitFailure>], deletions: [String], changeToken: ChangeToken, moreComing: Bool) {
        do {
            return try changes(in: zone, since: token, limit: resultsLimit)
        } catch {
            throw wrappingZoneFailure(error, zone: zone)
        }
    }

    private func changes(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) throws(CloudKitFailure)
        -> (modifications: [String: Result<CloudRecord, CloudKitFailure>], deletions: [String], changeToken: ChangeToken, moreComing: Bool) {
        var allowed: FaultPlan.Kinds = [.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone,
                                        .operationCancelled, .unreadableRecord, .newerRecord, .assetNotDownloaded]
        if token != nil { allowed.insert(.changeTokenExpired) }
        let fault = try begin(allowed, zone: zone)
        var state = try existingZone(zone)
        if fault == .changeTokenExpired {
            state.tokenEpoch += 1
            zones[zone.zoneName] = state
        }
        var after: Int64 = 0
        if let token {
            guard let parsed = parse(token), parsed.zone == zone.zoneName else {
                throw CloudKitFailure(.changeTokenExpired, "change token was not issued by this database for zone '\(zone.zoneName)'")
            }
            guard parsed.incarnation == state.incarnation, parsed.epoch == state.tokenEpoch, parsed.sequence <= state.sequence else {
                throw CloudKitFailure(.changeTokenExpired, "change token of zone '\(zone.zoneName)' has expired")
            }
            after = parsed.sequence
        }
        let page = state.changes(after: after, limit: limit)
        var changed = page.changed
        if !changed.isEmpty {
            switch fault {
            case .unreadableRecord?: changed[0] = Self.damaged(changed[0])
            case .newerRecord?: changed[0] = Self.newer(changed[0])
            case .assetNotDownloaded?: changed = changed.map(Self.withoutAssetBytes)
            default: break
            }
        }
        var modifications: [String: Result<CloudRecord, CloudKitFailure>] = [:]
        for stored in changed { modifications[stored.recordName] = .success(stored) }
        return (modifications, page.deleted, makeToken(zone.zoneName, state, page.last), page.moreComing)
    }

    private func makeToken(_ zone: String, _ state: InMemoryZone, _ sequence: Int64) -> ChangeToken {
        ChangeToken(bytes: Array("mem2:\(identifier):\(state.incarnation):\(state.tokenEpoch):\(sequence):".utf8) + Array(zone.utf8))
    }

    private func parse(_ token: ChangeToken) -> (zone: String, incarnation: UInt64, epoch: UInt64, sequence: Int64)? {
        let parts = String(decoding: token.bytes, as: UTF8.self).split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "mem2", UInt64(parts[1]) == identifier, let incarnation = UInt64(parts[2]),
              let epoch = UInt64(parts[3]), let sequence = Int64(parts[4]), sequence >= 0 else {
            return nil
        }
        return (String(parts[5]), incarnation, epoch, sequence)
    }
}
