import CRDTNoteSupport
import CRDTNoteToolSupport
import CRDTNote
/// An in-memory stand-in for CloudKit's private database, for tests, benchmarks and the CLI.
///
/// It is a `CloudKitStyleDatabase`: it answers as `CKDatabase` does, with per-item `Result`s and
/// request-level `CloudKitFailure`s, so a `CloudKitStyleRecordStore` over it runs exactly the
/// code the CloudKit adapter runs, and every injected fault goes through that code. Every save
/// gets a new change tag; a stale or missing tag fails the item with `serverRecordChanged`
/// carrying ancestor (kept in a bounded per-record history), client and server records; a
/// missing record is `unknownItem`; zones must be created first (`zoneNotFound`); deletes show
/// up in change feeds; change tokens are plain values that stay valid across client restarts
/// and expire when the zone is reset. Limits are CloudKit's (400 records, 2 MB per request,
/// 1 MB per record), and so is the schema rule: a field's type is fixed when it is first saved
/// (`RecordSchema`). A seeded `FaultPlan` injects the failures a client must survive.
///
/// ```swift
/// let db = InMemoryCloudDatabase(faults: FaultPlan(rate: 0.2, seed: 7))
/// let store = CloudKitStyleRecordStore(database: db)
/// try await store.createZone(zone)
/// let saved = try await store.save(record, in: zone)
/// ```
public actor InMemoryCloudDatabase: CloudKitStyleDatabase {
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
    /// Zone deletions in order, for database-change fetches (``zoneDeletions(since:)``).
    var deletionLog: [ZoneDeletion] = []
    var nextTag: UInt64 = 0
    private var nextIncarnation: UInt64 = 0
    var plan: FaultPlan
    var random: SplitMix64
    /// Faults injected so far.
    public internal(set) var faultCounts = FaultCounts()
    /// Requests served so far (including failed ones).
    public internal(set) var requestCount = 0
    /// Note records committed so far, by the snapshot format of their payload (its minimum
    /// reader version; records without a payload and device records are not counted).
    public internal(set) var savedPayloadFormats: [UInt16: Int] = [:]
    /// The clock the server's modification times come from (nil: records carry none).
    var modificationClock: PhysicalClock?
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

    // MARK: Zones

    /// Creates the zone (`CKDatabase.save(_: CKRecordZone)`); creating an existing zone changes
    /// nothing. Clears a user deletion.
    public func saveZone(_ zone: RecordZoneID) async throws(CloudKitFailure) {
        try begin(Self.zoneRequestFaults, zone: nil)
        userDeletedZones.remove(zone.zoneName)
        if zones[zone.zoneName] == nil {
            zones[zone.zoneName] = newZone()
            dropSubscriptions(of: zone.zoneName)
        }
    }

    /// Deletes the zone, its records and its subscriptions (`CKDatabase.deleteRecordZone(withID:)`);
    /// its change tokens expire, and the database-change log says `.deleted`.
    public func deleteZone(_ zone: RecordZoneID) async throws(CloudKitFailure) {
        try begin(Self.zoneRequestFaults, zone: nil)
        removeZone(zone, reason: .deleted)
    }

    /// Faults a zone or subscription request can meet.
    static let zoneRequestFaults: FaultPlan.Kinds = [.networkFailure, .requestRateLimited, .serviceUnavailable, .operationCancelled]

    // MARK: Internals

    func newZone() -> InMemoryZone {
        nextIncarnation += 1
        return InMemoryZone(incarnation: nextIncarnation)
    }

    /// The zone's state, or the request-level failure CloudKit gives for a zone that is gone.
    func existingZone(_ zone: RecordZoneID) throws(CloudKitFailure) -> InMemoryZone {
        if userDeletedZones.contains(zone.zoneName) {
            throw CloudKitFailure(.userDeletedZone, "the user deleted zone '\(zone.zoneName)'")
        }
        guard let state = zones[zone.zoneName] else {
            throw CloudKitFailure(.zoneNotFound, "zone '\(zone.zoneName)' does not exist")
        }
        return state
    }
}

extension InMemoryCloudDatabase {
    /// Stamps every record committed from now on with the server's modification time read
    /// from `clock` (as CloudKit's `modificationDate`).
    public func setModificationClock(_ clock: PhysicalClock) {
        modificationClock = clock
    }
}
