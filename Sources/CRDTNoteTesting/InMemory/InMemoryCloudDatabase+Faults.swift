import CRDTNoteSupport
import CRDTNote
/// Drawing and applying injected faults, each as the `CloudKitFailure` CloudKit gives.
extension InMemoryCloudDatabase {
    /// Counts the request and draws its fault. Faults that fail the request before it is applied
    /// are thrown here; `.networkFailure` on writes (half the time) and `.partialFailure` are
    /// returned for the caller to apply.
    @discardableResult
    func begin(_ allowed: FaultPlan.Kinds, zone: RecordZoneID?, batchSize: Int = 0, isWrite: Bool = false) throws(CloudKitFailure) -> FaultPlan.Kinds? {
        requestCount += 1
        guard plan.rate > 0, random.unit() < plan.rate else { return nil }
        var candidates: [FaultPlan.Kinds] = []
        for kind in Self.kindOrder where plan.kinds.contains(kind) && allowed.contains(kind) {
            if (kind == .partialFailure && batchSize < 1) || (kind == .limitExceeded && batchSize < 2) { continue }
            if kind == .recordTooLarge && batchSize < 1 { continue }
            if (kind == .zoneNotFound || kind == .userDeletedZone) && (zone.map { zones[$0.zoneName] == nil } ?? true) { continue }
            candidates.append(kind)
        }
        guard !candidates.isEmpty else { return nil }
        let kind = candidates[random.below(candidates.count)]
        faultCounts.count(kind)
        switch kind {
        case .networkFailure:
            if isWrite && random.below(2) == 0 { return kind }
            throw CloudKitFailure(.networkFailure, "injected: the request did not reach the server")
        case .requestRateLimited:
            throw CloudKitFailure(.requestRateLimited, "injected: request rate limited", retryAfterSeconds: drawRetryAfter())
        case .serviceUnavailable:
            throw CloudKitFailure(.serviceUnavailable, "injected: service unavailable", retryAfterSeconds: drawRetryAfter())
        case .limitExceeded:
            throw CloudKitFailure(.limitExceeded, "injected: a batch of \(batchSize) records is over the server's current limit")
        case .zoneNotFound:
            if let zone {
                zones[zone.zoneName] = nil
                dropSubscriptions(of: zone.zoneName)
            }
            throw CloudKitFailure(.zoneNotFound, "injected: zone '\(zone?.zoneName ?? "")' vanished (server reset)")
        case .userDeletedZone:
            if let zone {
                zones[zone.zoneName] = nil
                dropSubscriptions(of: zone.zoneName)
                userDeletedZones.insert(zone.zoneName)
            }
            throw CloudKitFailure(.userDeletedZone, "injected: the user deleted zone '\(zone?.zoneName ?? "")'")
        case .operationCancelled:
            throw CloudKitFailure(.operationCancelled, "injected: the operation was cancelled")
        default:
            return kind
        }
    }

    /// Kinds in drawing order (the original seven first, so their plans draw as before).
    static let kindOrder: [FaultPlan.Kinds] = [
        .networkFailure, .requestRateLimited, .serviceUnavailable, .partialFailure, .limitExceeded, .zoneNotFound, .userDeletedZone,
        .serverResponseLost, .operationCancelled, .changeTokenExpired, .unreadableRecord, .newerRecord, .recordTooLarge,
        .partialSavedRecords, .assetNotDownloaded,
    ]

    /// Whether `failure` is about the whole zone: what CloudKit's operations report wrapped in a
    /// partial failure (``FaultPlan/wrapsZoneErrors``).
    static func isZoneFailure(_ failure: CloudKitFailure) -> Bool {
        failure.code == .zoneNotFound || failure.code == .userDeletedZone || failure.code == .changeTokenExpired
    }

    /// `failure` as a `partialFailure` keyed by `zone` (`CKError.partialErrorsByItemID` keyed by
    /// `CKRecordZone.ID`).
    func wrappedInZone(_ failure: CloudKitFailure, zone: RecordZoneID) -> CloudKitFailure {
        CloudKitFailure(.partialFailure, "zone '\(zone.zoneName)' failed", zoneErrors: [zone.zoneName: failure])
    }

    /// `failure` of a fetch, wrapped as CloudKit's operations report zone errors when the plan
    /// says so.
    func wrappingZoneFailure(_ failure: CloudKitFailure, zone: RecordZoneID) -> CloudKitFailure {
        plan.wrapsZoneErrors && Self.isZoneFailure(failure) ? wrappedInZone(failure, zone: zone) : failure
    }

    /// `record` with its payload garbled, so it cannot be read.
    static func damaged(_ record: CloudRecord) -> CloudRecord {
        var copy = record
        copy[field: NoteSchema.Field.payload] = .bytes([0x43, 0x52, 0x44, 0x54, 0xFF, 0xFF, 0xFF, 0xFF, 0x00])
        copy[field: NoteSchema.Field.payloadAsset] = nil
        return copy
    }

    /// `record` claiming a schema version newer than any this library reads.
    static func newer(_ record: CloudRecord) -> CloudRecord {
        var copy = record
        copy[field: NoteSchema.Field.version] = .int64(NoteSchema.currentVersion + 97)
        return copy
    }

    /// `record` with only its first field, as CloudKit may return a saved record.
    static func partial(_ record: CloudRecord) -> CloudRecord {
        var copy = record
        for name in record.orderedFieldNames.dropFirst() { copy[field: name] = nil }
        return copy
    }

    /// `record` with its asset fields' bytes dropped (assets not downloaded).
    static func withoutAssetBytes(_ record: CloudRecord) -> CloudRecord {
        var copy = record
        for (name, field) in record.fields {
            if case .asset(var ref) = field.value {
                ref.bytes = nil
                copy.fields[name]?.value = .asset(ref)
            }
        }
        return copy
    }

    func lostResponse() -> CloudKitFailure {
        CloudKitFailure(.networkFailure, "injected: the request was applied but its response was lost")
    }

    func drawRetryAfter() -> Double {
        let range = plan.retryAfterSeconds
        return ((range.lowerBound + random.unit() * (range.upperBound - range.lowerBound)) * 10).rounded() / 10
    }

    /// At least one and about half of `count` items.
    func pickFailingItems(count: Int) -> Set<Int> {
        var failing: Set<Int> = []
        for index in 0..<count where random.below(2) == 0 { failing.insert(index) }
        if failing.isEmpty { failing.insert(random.below(count)) }
        return failing
    }
}
