import CRDTNoteSupport
import CRDTNote
/// An in-memory stand-in for CloudKit's private database, for tests, benchmarks and the CLI.
///
/// It behaves like the real thing where the sync loop can tell: every save gets a new change
/// tag; a stale or missing tag conflicts with `.serverRecordChanged` carrying ancestor (kept in
/// a bounded per-record history), client and server; zones must be created first; deletes show
/// up in change feeds; change tokens are plain values that stay valid across client restarts
/// and expire when the zone is reset. Limits are CloudKit's (400 records, 2 MB per request,
/// 1 MB per record), and so is the schema rule: a field's type is fixed when it is first saved
/// (`RecordSchema`). A seeded `FaultPlan` injects the failures a client must survive.
///
/// ```swift
/// let db = InMemoryCloudDatabase(faults: FaultPlan(rate: 0.2, seed: 7))
/// try await db.createZone(zone)
/// let saved = try await db.save(record, in: zone)
/// ```
public actor InMemoryCloudDatabase: RecordZoneSubscribing {
    /// The limits enforced.
    public let limits: RecordStoreLimits
    /// Versions kept per record for conflict ancestors; older base tags get a nil ancestor.
    public let historyLimit: Int
    /// Distinguishes this database's change tokens from any other's.
    public let identifier: UInt64
    var zones: [String: InMemoryZone] = [:]
    /// Each field's type per record type, fixed when first saved (CloudKit's schema rule).
    var schema = RecordSchema()
    var userDeletedZones: Set<String> = []
    private var nextTag: UInt64 = 0
    private var nextIncarnation: UInt64 = 0
    var plan: FaultPlan
    var random: SplitMix64
    /// Faults injected so far.
    public internal(set) var faultCounts = FaultCounts()
    /// Requests served so far (including failed ones).
    public internal(set) var requestCount = 0
    /// Zone subscriptions: id → zone name.
    var subscriptions: [String: String] = [:]
    /// Devices registered for notifications, and the subscription ids notifying each since it last looked.
    var mailboxes: [String: Set<String>] = [:]
    var pushDropRate = 0.0
    var pushRandom = SplitMix64(seed: 0)
    /// Notifications delivered to devices so far (one per device per change).
    public internal(set) var notificationsDelivered = 0
    /// Notifications dropped on purpose (``setNotificationDropRate(_:seed:)``).
    public internal(set) var notificationsDropped = 0

    /// A database with no zones.
    public init(limits: RecordStoreLimits = .cloudKit, historyLimit: Int = 64, faults: FaultPlan = .none,
                identifier: UInt64 = UInt64.random(in: 1...UInt64.max)) {
        self.identifier = identifier
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
        try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .operationCancelled], zone: nil)
        userDeletedZones.remove(zone.zoneName)
        if zones[zone.zoneName] == nil {
            zones[zone.zoneName] = newZone()
            dropSubscriptions(of: zone.zoneName)
        }
    }

    /// Deletes the zone and its records.
    public func deleteZone(_ zone: RecordZoneID) throws(RecordStoreError) {
        try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .operationCancelled], zone: nil)
        zones[zone.zoneName] = nil
        dropSubscriptions(of: zone.zoneName)
    }

    /// Current versions of the named records that exist.
    public func fetchRecords(named names: [String], in zone: RecordZoneID) throws(RecordStoreError) -> [String: CloudRecord] {
        do throws(RecordStoreError) {
            try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone, .operationCancelled], zone: zone)
            let state = try existingZone(zone)
            var out: [String: CloudRecord] = [:]
            for name in names { out[name] = state.records[name] }
            return out
        } catch {
            throw wrappingZoneErrors(error, zone: zone)
        }
    }

    /// Saves with change-tag checks (see `RecordStore`).
    public func saveRecords(_ records: [CloudRecord], in zone: RecordZoneID) throws(RecordStoreError) -> [CloudRecord] {
        do {
            return try save(records, in: zone)
        } catch {
            throw wrappingZoneErrors(error, zone: zone, names: records.map(\.recordName))
        }
    }

    private func save(_ records: [CloudRecord], in zone: RecordZoneID) throws(RecordStoreError) -> [CloudRecord] {
        let fault = try begin([.all, .serverResponseLost, .operationCancelled, .recordTooLarge, .partialSavedRecords, .assetNotDownloaded],
                              zone: zone, batchSize: records.count, isWrite: true)
        _ = try existingZone(zone)
        if let error = limits.requestError(records: records) { throw error }
        try OptimisticConcurrency.checkUnique(records.map(\.recordName))
        var failing: Set<Int> = []
        if fault == .partialFailure { failing = pickFailingItems(count: records.count) }
        let tooLarge = fault == .recordTooLarge ? random.below(records.count) : -1
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
            if index == tooLarge {
                itemErrors[name] = RecordStoreError(.limitExceeded, recordName: name, "injected: record '\(name)' is over the server's per-record limit")
                continue
            }
            if var error = limits.recordError(client) ?? schema.check(client, in: "the in-memory database")
                ?? state.conflictError(for: client) {
                if fault == .assetNotDownloaded, var conflict = error.conflict {
                    conflict.server = Self.withoutAssetBytes(conflict.server)
                    conflict.ancestor = conflict.ancestor.map(Self.withoutAssetBytes)
                    error.conflict = conflict
                }
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
                schema.learn(version)
                saved.append(fault == .partialSavedRecords ? Self.partial(version) : version)
            }
        }
        zones[zone.zoneName] = state
        if !saved.isEmpty { notify(zone.zoneName) }
        if fault == .networkFailure { throw lostResponse() }
        if fault == .serverResponseLost {
            throw RecordStoreError(.serverResponseLost, "injected: the request was applied but the server's response was lost")
        }
        if !itemErrors.isEmpty { throw RecordStoreError.partialFailure(itemErrors, saved: saved) }
        return saved
    }

    /// Deletes the named records (missing ones are ignored).
    public func deleteRecords(named names: [String], in zone: RecordZoneID) throws(RecordStoreError) {
        do throws(RecordStoreError) {
            let fault = try begin([.networkFailure, .requestRateLimited, .serviceUnavailable, .zoneNotFound, .userDeletedZone,
                                   .serverResponseLost, .operationCancelled], zone: zone, isWrite: true)
            var state = try existingZone(zone)
            if let error = limits.deleteError(count: names.count) { throw error }
            var removed = false
            for name in names where state.delete(name) { removed = true }
            zones[zone.zoneName] = state
            if removed { notify(zone.zoneName) }
            if fault == .networkFailure { throw lostResponse() }
            if fault == .serverResponseLost {
                throw RecordStoreError(.serverResponseLost, "injected: the delete was applied but the server's response was lost")
            }
        } catch {
            throw wrappingZoneErrors(error, zone: zone, names: names)
        }
    }

    /// A page of the change feed after `token`. A token this database did not issue for this
    /// zone (another store's, damaged) is `changeTokenExpired`, as is one issued before the zone
    /// was recreated or its tokens expired.
    public func fetchChanges(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) throws(RecordStoreError) -> RecordChanges {
        do {
            return try changes(in: zone, since: token, limit: limit)
        } catch {
            throw wrappingZoneErrors(error, zone: zone)
        }
    }

    private func changes(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) throws(RecordStoreError) -> RecordChanges {
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
                throw RecordStoreError(.changeTokenExpired, "change token was not issued by this database for zone '\(zone.zoneName)'")
            }
            guard parsed.incarnation == state.incarnation, parsed.epoch == state.tokenEpoch, parsed.sequence <= state.sequence else {
                throw RecordStoreError(.changeTokenExpired, "change token of zone '\(zone.zoneName)' has expired")
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
        return RecordChanges(changed: changed, deletedRecordNames: page.deleted,
                             token: makeToken(zone.zoneName, state, page.last), moreComing: page.moreComing)
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
