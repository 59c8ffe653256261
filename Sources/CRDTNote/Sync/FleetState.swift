import Foundation

/// What the sync engine keeps in the note library about the account, the zone and the devices
/// syncing it (Docs/LIBRARY.md, "Sync metadata"; Docs/FORMAT.md, "Mixed fleets"): this
/// device's id and replicas, its last saved device record, the device records of the others,
/// the highest payload format it has seen in use (the fleet's format never goes down on its
/// own), the account the synced data belongs to, the notes kept from earlier accounts, and
/// whether the zone is known to exist.
struct FleetState: Equatable, Sendable {
    /// This device's record name (``DeviceSchema/recordNamePrefix`` and an id).
    var deviceID: String
    /// The replicas that have written through this library, newest last.
    var replicas: [UInt64] = []
    /// The highest minimum reader of a payload written or received here: automatic choices
    /// never go below it.
    var highWater: UInt16 = 1
    /// When this device first read the change feed while keeping device records (ms), nil: not yet.
    var watchingSince: Int64?
    /// Whether the change feed has been read from its start to its end since then.
    var feedReadFromStart = false
    /// This device's record as last saved (its change tag and system fields), nil: never saved.
    var ownRecord: CloudRecord?
    /// The other devices' announcements by record name, with the time they count from.
    var devices: [String: KnownDevice] = [:]
    /// Note records passed over because they needed a newer reader, with the reader version
    /// this device had then: fetched again once it reads more (the change feed has moved past them).
    var skipped: [String: UInt16] = [:]
    /// Set when more records were passed over than ``skipped`` keeps: the reader version this
    /// device had then; once it reads more, the whole change feed is read again instead.
    var skippedOverflow: UInt16?
    /// The account the zone's data (change tags, device records, transport state) belongs to;
    /// nil: none yet, or signed out.
    var account: String?
    /// Whether an account was signed out and none signed in since.
    var signedOut = false
    /// Notes kept on this device from an earlier account (name → that account), synced nowhere
    /// until the app adopts them or that account signs in again.
    var localOnly: [String: String] = [:]
    /// Whether the zone is known to exist, to be saved, or deleted and waiting for the app.
    var zone: NoteSyncZoneStatus = .needsSaving

    /// Another device as last received.
    struct KnownDevice: Codable, Equatable, Sendable {
        var announcement: DeviceAnnouncement
        /// The server's modification time of its record, else the time written in it (ms).
        var modified: Int64
    }

    /// A new device: its id from the first replica writing through it and the time (replica ids
    /// are unique per process, so the id is unique per library).
    init(replica: ReplicaID, now: Int64) {
        deviceID = DeviceSchema.recordNamePrefix + Self.hex(replica.rawValue) + Self.hex(UInt64(bitPattern: now))
        replicas = [replica.rawValue]
    }

    /// Whether this device knows the devices in the zone: it read the whole feed, or has
    /// watched it for longer than the interval every device announces itself in.
    func knowsFleet(now: Int64) -> Bool {
        if feedReadFromStart { return true }
        guard let since = watchingSince else { return false }
        return now - since > Self.milliseconds(NoteSyncConfiguration.announcementInterval)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int64.max : product + attoseconds / 1_000_000_000_000_000
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: Bytes

    /// The stored form: JSON of ``Stored`` (a version, then the fields).
    private struct Stored: Codable {
        var version: Int
        var deviceID: String
        var replicas: [UInt64]
        var highWater: UInt16
        var watchingSince: Int64?
        var feedReadFromStart: Bool
        var ownRecord: StoredRecord?
        var devices: [String: KnownDevice]
        var skipped: [String: UInt16]?
        var skippedOverflow: UInt16?
        var account: String?
        var signedOut: Bool?
        var localOnly: [String: String]?
        var zone: String?
    }

    func encoded() throws(NoteSyncError) -> [UInt8] {
        let stored = Stored(version: 1, deviceID: deviceID, replicas: replicas, highWater: highWater, watchingSince: watchingSince,
                            feedReadFromStart: feedReadFromStart, ownRecord: ownRecord.map(StoredRecord.init), devices: devices,
                            skipped: skipped, skippedOverflow: skippedOverflow, account: account, signedOut: signedOut ? true : nil,
                            localOnly: localOnly.isEmpty ? nil : localOnly, zone: zone.storedName)
        do {
            return Array(try JSONEncoder().encode(stored))
        } catch {
            throw NoteSyncError(.persistFailed, "the device state cannot be kept: \(error)")
        }
    }

    /// The state in `bytes`; throws when they are not a state this release wrote. The last
    /// state decoded is kept, so the calls of a sync (one per note sent or received) decode it once.
    static func decode(_ bytes: [UInt8]) throws(NoteSyncError) -> FleetState {
        if let known = lastDecoded.state(for: bytes) { return known }
        let state = try decodeAfresh(bytes)
        lastDecoded.keep(state, for: bytes)
        return state
    }

    private static let lastDecoded = DecodedFleet()

    /// The last bytes decoded and their state, shared by the threads of the process.
    private final class DecodedFleet: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var state: FleetState?

        func state(for bytes: [UInt8]) -> FleetState? {
            lock.lock()
            defer { lock.unlock() }
            return bytes == self.bytes ? state : nil
        }

        func keep(_ state: FleetState, for bytes: [UInt8]) {
            lock.lock()
            defer { lock.unlock() }
            self.bytes = bytes
            self.state = state
        }
    }

    private static func decodeAfresh(_ bytes: [UInt8]) throws(NoteSyncError) -> FleetState {
        do {
            let stored = try JSONDecoder().decode(Stored.self, from: Data(bytes))
            guard stored.version == 1, stored.deviceID.hasPrefix(DeviceSchema.recordNamePrefix) else {
                throw NoteSyncError(.persistFailed, "the library's device state has version \(stored.version), expected 1")
            }
            var state = FleetState(deviceID: stored.deviceID)
            state.replicas = stored.replicas
            state.highWater = stored.highWater
            state.watchingSince = stored.watchingSince
            state.feedReadFromStart = stored.feedReadFromStart
            state.ownRecord = try stored.ownRecord?.record()
            state.devices = stored.devices
            state.skipped = stored.skipped ?? [:]
            state.skippedOverflow = stored.skippedOverflow
            state.account = stored.account
            state.signedOut = stored.signedOut ?? false
            state.localOnly = stored.localOnly ?? [:]
            // A state written before zones were tracked: the zone is saved (once) when next needed.
            state.zone = stored.zone.flatMap(NoteSyncZoneStatus.init(storedName:)) ?? .needsSaving
            return state
        } catch let error as NoteSyncError {
            throw error
        } catch {
            throw NoteSyncError(.persistFailed, "the library's device state cannot be read: \(error)")
        }
    }

    private init(deviceID: String) { self.deviceID = deviceID }

    /// Forgets everything the zone's account told this device: its own record, the other
    /// devices, what the feed held, and whether the zone exists.
    mutating func forgetAccountData() {
        ownRecord = nil
        devices = [:]
        watchingSince = nil
        feedReadFromStart = false
        skipped = [:]
        skippedOverflow = nil
        highWater = 1
        zone = .needsSaving
    }
}

extension NoteSyncZoneStatus {
    /// The name kept in the library.
    var storedName: String {
        switch self {
        case .needsSaving: return "needsSaving"
        case .exists: return "exists"
        case .deletedAwaitingConsent: return "deletedAwaitingConsent"
        }
    }

    init?(storedName: String) {
        switch storedName {
        case "needsSaving": self = .needsSaving
        case "exists": self = .exists
        case "deletedAwaitingConsent": self = .deletedAwaitingConsent
        default: return nil
        }
    }
}
