import CRDTNoteSupport
import CRDTNote
/// Drawing and applying injected faults.
extension InMemoryCloudDatabase {
    /// Counts the request and draws its fault. Faults that fail the request before it is applied
    /// are thrown here; `.networkFailure` on writes (half the time) and `.partialFailure` are
    /// returned for the caller to apply.
    @discardableResult
    func begin(_ allowed: FaultPlan.Kinds, zone: RecordZoneID?, batchSize: Int = 0, isWrite: Bool = false) throws(RecordStoreError) -> FaultPlan.Kinds? {
        requestCount += 1
        guard plan.rate > 0, random.unit() < plan.rate else { return nil }
        var candidates: [FaultPlan.Kinds] = []
        for kind in [FaultPlan.Kinds.networkFailure, .requestRateLimited, .serviceUnavailable, .partialFailure,
                     .limitExceeded, .zoneNotFound, .userDeletedZone] where plan.kinds.contains(kind) && allowed.contains(kind) {
            if (kind == .partialFailure && batchSize < 1) || (kind == .limitExceeded && batchSize < 2) { continue }
            if (kind == .zoneNotFound || kind == .userDeletedZone) && (zone.map { zones[$0.zoneName] == nil } ?? true) { continue }
            candidates.append(kind)
        }
        guard !candidates.isEmpty else { return nil }
        let kind = candidates[random.below(candidates.count)]
        faultCounts.count(kind)
        switch kind {
        case .networkFailure:
            if isWrite && random.below(2) == 0 { return kind }
            throw RecordStoreError(.networkFailure, "injected: the request did not reach the server")
        case .requestRateLimited:
            throw RecordStoreError(.requestRateLimited, retryAfterSeconds: drawRetryAfter(), "injected: request rate limited")
        case .serviceUnavailable:
            throw RecordStoreError(.serviceUnavailable, retryAfterSeconds: drawRetryAfter(), "injected: service unavailable")
        case .limitExceeded:
            throw RecordStoreError(.limitExceeded, "injected: a batch of \(batchSize) records is over the server's current limit")
        case .zoneNotFound:
            if let zone { zones[zone.zoneName] = nil }
            throw RecordStoreError(.zoneNotFound, "injected: zone '\(zone?.zoneName ?? "")' vanished (server reset)")
        case .userDeletedZone:
            if let zone {
                zones[zone.zoneName] = nil
                userDeletedZones.insert(zone.zoneName)
            }
            throw RecordStoreError(.userDeletedZone, "injected: the user deleted zone '\(zone?.zoneName ?? "")'")
        default:
            return kind
        }
    }

    func lostResponse() -> RecordStoreError {
        RecordStoreError(.networkFailure, "injected: the request was applied but its response was lost")
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
