import CRDTNoteSupport
import CRDTNote
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
/// let saved = try await db.save(record, in: zone)
/// ```
public actor InMemoryCloudDatabase: RecordStore {
    /// The limits enforced.
    public let limits: RecordStoreLimits
    /// Versions kept per record for conflict ancestors; older base tags get a nil ancestor.
    public let historyLimit: Int
    var zones: [String: InMemoryZone] = [:]
    var userDeletedZones: Set<String> = []
    private var nextTag: UInt64 = 0
    private var nextIncarnation: UInt64 = 0
    var plan: FaultPlan
    var random: SplitMix64
    /// Faults injected so far.
    public internal(set) var faultCounts = FaultCounts()
    /// Requests served so far (including failed ones).
    public internal(set) var requestCount = 0

    /// A database with no zones.
    public init(limits: RecordStoreLimits = .cloudKit, historyLimit: Int = 64, faults: FaultPlan = .none) {
        self.limits = limits
        self.historyLimit = max(historyLimit, 1)
        self.plan = faults
        self.random = SplitMix64(seed: faults.seed)
    }

    /// Replaces the fault plan and restarts its random stream from the plan's seed.
    public func setFaultPlan(_ plan: FaultPlan) {
        self.plan = plan
        self.random = SplitMix64(seed: plan.seed)
    }

    /// Every live record of `zone` sorted by name (no faults, not counted as a request).
    public func allRecords(in zone: RecordZoneID) -> [CloudRecord] {
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
    public func fetchRecords(named names: [String], in zone: RecordZoneID) throws(RecordStoreError) -> [String: CloudRecord] {
        try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone], zone: zone)
        let state = try existingZone(zone)
        var out: [String: CloudRecord] = [:]
        for name in names { out[name] = state.records[name] }
        return out
    }

    /// Saves with change-tag checks (see `RecordStore`).
    public func saveRecords(_ records: [CloudRecord], in zone: RecordZoneID) throws(RecordStoreError) -> [CloudRecord] {
        let fault = try begin(FaultPlan.Kinds.all, zone: zone, batchSize: records.count, isWrite: true)
        _ = try existingZone(zone)
        if let error = limits.requestError(records: records) { throw error }
        try OptimisticConcurrency.checkUnique(records.map(\.recordName))
        var failing: Set<Int> = []
        if fault == .partialFailure { failing = pickFailingItems(count: records.count) }
        var state = zones[zone.zoneName] ?? newZone()
        var saved: [CloudRecord] = []
        var itemErrors: [String: RecordStoreError] = [:]
        for (index, client) in records.enumerated() {
            let name = client.recordName
            if failing.contains(index) {
                itemErrors[name] = RecordStoreError(.serviceUnavailable, recordName: name, retryAfterSeconds: drawRetryAfter(),
                                                    "injected: item '\(name)' of a batch failed")
                continue
            }
            if let error = limits.recordError(client) ?? state.conflictError(for: client) {
                itemErrors[name] = error
                continue
            }
            switch AssetBinding.bind(client, current: state.records[name]) {
            case .failure(let error):
                itemErrors[name] = error
            case .success(var version):
                nextTag += 1
                version.recordChangeTag = "t\(nextTag)"
                version.zoneID = zone
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
