/// An in-memory stand-in for CloudKit's private database, for tests, benchmarks and the CLI.
///
/// It behaves like the real thing where the sync loop can tell: every save gets a new change
/// tag; a stale or missing tag conflicts with `.serverRecordChanged` carrying ancestor (kept in
/// a bounded per-record history), client and server; zones must be created first; deletes show
/// up in change feeds; change tokens are plain values that stay valid across client restarts
/// and expire when the zone is reset. Limits are CloudKit's (400 records, 2 MB per request,
/// 1 MB per record). A seeded `FaultPlan` injects the failures a client must survive.
///
/// ```swift
/// let db = InMemoryCloudDatabase(faults: FaultPlan(rate: 0.2, seed: 7))
/// try await db.createZone(zone)
/// let saved = try await db.save(StoredRecord(record), in: zone)
/// ```
public actor InMemoryCloudDatabase: RecordStore {
    /// The limits enforced.
    public let limits: RecordStoreLimits
    /// Versions kept per record for conflict ancestors; older base tags get a nil ancestor.
    public let historyLimit: Int
    private var zones: [String: InMemoryZone] = [:]
    private var userDeletedZones: Set<String> = []
    private var nextTag: UInt64 = 0
    private var nextIncarnation: UInt64 = 0
    private var plan: FaultPlan
    private var random: FaultRandom
    /// Faults injected so far.
    public private(set) var faultCounts = FaultCounts()
    /// Requests served so far (including failed ones).
    public private(set) var requestCount = 0

    /// A database with no zones.
    public init(limits: RecordStoreLimits = .cloudKit, historyLimit: Int = 64, faults: FaultPlan = .none) {
        self.limits = limits
        self.historyLimit = max(historyLimit, 1)
        self.plan = faults
        self.random = FaultRandom(seed: faults.seed)
    }

    /// Replaces the fault plan and restarts its random stream from the plan's seed.
    public func setFaultPlan(_ plan: FaultPlan) {
        self.plan = plan
        self.random = FaultRandom(seed: plan.seed)
    }

    /// Every live record of `zone` sorted by name (no faults, not counted as a request).
    public func allRecords(in zone: RecordZoneID) -> [StoredRecord] {
        (zones[zone.zoneName]?.records.values).map { $0.sorted { $0.recordName < $1.recordName } } ?? []
    }

    // MARK: RecordStore

    /// Creates the zone (clears a user deletion).
    public func createZone(_ zone: RecordZoneID) throws(RecordStoreError) {
        try begin([.networkFailure, .requestRateLimited, .serviceUnavailable], zone: nil)
        userDeletedZones.remove(zone.zoneName)
        if zones[zone.zoneName] == nil { zones[zone.zoneName] = newZone() }
    }

    /// Deletes the zone and its records.
    public func deleteZone(_ zone: RecordZoneID) throws(RecordStoreError) {
        try begin([.networkFailure, .requestRateLimited, .serviceUnavailable], zone: nil)
        zones[zone.zoneName] = nil
    }

    /// Current versions of the named records that exist.
    public func fetchRecords(named names: [String], in zone: RecordZoneID) throws(RecordStoreError) -> [String: StoredRecord] {
        try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone], zone: zone)
        let state = try existingZone(zone)
        var out: [String: StoredRecord] = [:]
        for name in names { out[name] = state.records[name] }
        return out
    }

    /// Saves with change-tag checks (see `RecordStore`).
    public func saveRecords(_ records: [StoredRecord], in zone: RecordZoneID) throws(RecordStoreError) -> [StoredRecord] {
        let fault = try begin(FaultPlan.Kinds.all, zone: zone, batchSize: records.count, isWrite: true)
        _ = try existingZone(zone)
        if let error = limits.requestError(records: records) { throw error }
        try Self.checkUnique(records.map(\.recordName))
        var failing: Set<Int> = []
        if fault == .partialFailure { failing = pickFailingItems(count: records.count) }
        var state = zones[zone.zoneName] ?? newZone()
        var saved: [StoredRecord] = []
        var itemErrors: [String: RecordStoreError] = [:]
        for (index, client) in records.enumerated() {
            let name = client.recordName
            if failing.contains(index) {
                itemErrors[name] = RecordStoreError(.serviceUnavailable, recordName: name, retryAfterSeconds: drawRetryAfter(),
                                                    "injected: item '\(name)' of a batch failed")
                continue
            }
            if let error = limits.recordError(client.record) ?? state.conflictError(for: client) {
                itemErrors[name] = error
                continue
            }
            switch AssetBinding.bind(client, current: state.records[name]) {
            case .failure(let error):
                itemErrors[name] = error
            case .success(var version):
                nextTag += 1
                version.record.recordChangeTag = "t\(nextTag)"
                version.record.zoneID = zone
                state.commit(version, historyLimit: historyLimit)
                saved.append(version)
            }
        }
        zones[zone.zoneName] = state
        if fault == .networkFailure { throw lostResponse() }
        if !itemErrors.isEmpty { throw RecordStoreError.partialFailure(itemErrors, saved: saved) }
        return saved
    }

    /// Deletes the named records (missing ones are ignored).
    public func deleteRecords(named names: [String], in zone: RecordZoneID) throws(RecordStoreError) {
        let fault = try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone], zone: zone, isWrite: true)
        var state = try existingZone(zone)
        if let error = limits.deleteError(count: names.count) { throw error }
        for name in names { state.delete(name) }
        zones[zone.zoneName] = state
        if fault == .networkFailure { throw lostResponse() }
    }

    /// A page of the change feed after `token`.
    public func fetchChanges(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) throws(RecordStoreError) -> RecordChanges {
        try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone], zone: zone)
        let state = try existingZone(zone)
        var after: Int64 = 0
        if let token {
            guard let (incarnation, sequence) = Self.parse(token) else {
                throw RecordStoreError(.invalidArguments, "change token was not issued by an in-memory database")
            }
            guard incarnation == state.incarnation, sequence <= state.sequence else {
                throw RecordStoreError(.changeTokenExpired, "change token belongs to an earlier incarnation of zone '\(zone.zoneName)'")
            }
            after = sequence
        }
        let page = state.changes(after: after, limit: limit)
        return RecordChanges(changed: page.changed, deletedRecordNames: page.deleted,
                             token: Self.token(state.incarnation, page.last), moreComing: page.moreComing)
    }

    // MARK: Internals

    private func newZone() -> InMemoryZone {
        nextIncarnation += 1
        return InMemoryZone(incarnation: nextIncarnation)
    }

    private func existingZone(_ zone: RecordZoneID) throws(RecordStoreError) -> InMemoryZone {
        if userDeletedZones.contains(zone.zoneName) {
            throw RecordStoreError(.userDeletedZone, "the user deleted zone '\(zone.zoneName)'")
        }
        guard let state = zones[zone.zoneName] else {
            throw RecordStoreError(.zoneNotFound, "zone '\(zone.zoneName)' does not exist")
        }
        return state
    }

    /// Counts the request and draws its fault. Faults that fail the request before it is applied
    /// are thrown here; `.networkFailure` on writes (half the time) and `.partialFailure` are
    /// returned for the caller to apply.
    @discardableResult
    private func begin(_ allowed: FaultPlan.Kinds, zone: RecordZoneID?, batchSize: Int = 0, isWrite: Bool = false) throws(RecordStoreError) -> FaultPlan.Kinds? {
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

    private func lostResponse() -> RecordStoreError {
        RecordStoreError(.networkFailure, "injected: the request was applied but its response was lost")
    }

    private func drawRetryAfter() -> Double {
        let range = plan.retryAfterSeconds
        return ((range.lowerBound + random.unit() * (range.upperBound - range.lowerBound)) * 10).rounded() / 10
    }

    /// At least one and about half of `count` items.
    private func pickFailingItems(count: Int) -> Set<Int> {
        var failing: Set<Int> = []
        for index in 0..<count where random.below(2) == 0 { failing.insert(index) }
        if failing.isEmpty { failing.insert(random.below(count)) }
        return failing
    }

    static func checkUnique(_ names: [String]) throws(RecordStoreError) {
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            throw RecordStoreError(.invalidArguments, recordName: name, "record '\(name)' appears twice in one request")
        }
    }

    private static func token(_ incarnation: UInt64, _ sequence: Int64) -> ChangeToken {
        ChangeToken(bytes: Array("mem1:\(incarnation):\(sequence)".utf8))
    }

    private static func parse(_ token: ChangeToken) -> (UInt64, Int64)? {
        let parts = String(decoding: token.bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "mem1", let incarnation = UInt64(parts[1]), let sequence = Int64(parts[2]), sequence >= 0 else {
            return nil
        }
        return (incarnation, sequence)
    }
}
