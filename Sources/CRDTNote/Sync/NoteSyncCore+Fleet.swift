import Foundation

/// Devices announcing themselves, and the payload format and record layout written for the
/// devices in the zone (Docs/FORMAT.md, "Mixed fleets"; Docs/RECORD-FORMAT.md, "Device records").
extension NoteSyncCore {
    /// Most other devices remembered (those heard from least recently go first).
    static let maximumKnownDevices = 256

    /// The devices known and the format written now.
    public func fleet() throws(NoteSyncError) -> NoteFleet {
        let configuration = self.configuration
        let now = self.now
        return try readFleet { (state) throws(NoteSyncError) -> NoteFleet in
            let window = FleetState.milliseconds(configuration.activityWindow)
            let own = configuration.ownReader
            let ownDevice = SyncDevice(id: state.deviceID, name: configuration.deviceName, release: CRDTNoteRelease.version,
                                       reads: own, capabilities: configuration.ownCapabilities, lastSeen: Self.date(state.ownRecord?.modified?.timestamp ?? now),
                                       replicas: state.replicas.map(ReplicaID.init(rawValue:)), isThisDevice: true, isActive: true)
            var others: [SyncDevice] = []
            for (id, known) in state.devices.sorted(by: { $0.key < $1.key }) {
                let said = known.announcement
                others.append(SyncDevice(id: id, name: said.name, release: said.release, reads: said.reads, capabilities: said.capabilities,
                                         lastSeen: Self.date(known.modified), replicas: said.replicas.map(ReplicaID.init(rawValue:)),
                                         isThisDevice: false, isActive: now - known.modified <= window))
            }
            var copy = state
            let format = Self.format(for: &copy, configuration: configuration, now: now)
            let layout = Self.layout(for: &copy, configuration: configuration, now: now)
            let held = others.filter {
                $0.isActive && ($0.reads < NoteFormat.readerVersion || !Set($0.capabilities).isSuperset(of: configuration.ownCapabilities))
            }
            return NoteFleet(devices: [ownDevice] + others, writtenFormat: format, writtenLayout: layout,
                             knowsDevices: state.knowsFleet(now: now), heldBackBy: held)
        }
    }

    /// The name of this device's record when it is due to be saved (it changed, was never
    /// saved, or was last saved over ``NoteSyncConfiguration/announcementInterval`` ago), else
    /// nil. The transport saves it like a note: ``recordToSend(for:)`` builds it and
    /// ``recordWasSaved(_:)`` / ``recordSaveFailed(_:error:)`` take the outcome.
    public func announcementDue() throws(NoteSyncError) -> String? {
        let configuration = self.configuration
        let now = self.now
        return try readFleet { Self.dueAnnouncement($0, configuration: configuration, now: now) }
    }

    /// This device's record name when its record is due to be saved, else nil.
    static func dueAnnouncement(_ state: FleetState, configuration: NoteSyncConfiguration, now: Int64) -> String? {
        let wanted = announcement(state, configuration: configuration, now: now)
        // Never saved, or a saved copy that no longer reads as a device record: save it (again).
        guard let saved = state.ownRecord, let said = try? DeviceAnnouncement(record: saved) else { return state.deviceID }
        let fresh = now - said.lastSync < FleetState.milliseconds(NoteSyncConfiguration.announcementInterval) && now >= said.lastSync
        return said.sameContent(as: wanted) && fresh ? nil : state.deviceID
    }

    /// The device record to save now (on the last saved copy, so its change tag is current).
    func deviceRecordToSend() throws(NoteSyncError) -> CloudRecord {
        let configuration = self.configuration
        let now = self.now
        return try readFleet { (state) throws(NoteSyncError) -> CloudRecord in
            var record = state.ownRecord ?? CloudRecord(recordName: state.deviceID, recordType: DeviceSchema.recordType)
            if record.zoneID == nil { record.zoneID = configuration.zone }
            Self.announcement(state, configuration: configuration, now: now).write(into: &record)
            return record
        }
    }

    /// Whether `name` is this device's record.
    func isOwnDevice(_ name: String) throws(NoteSyncError) -> Bool {
        guard name.hasPrefix(DeviceSchema.recordNamePrefix) else { return false }
        return try readFleet { $0.deviceID == name }
    }

    /// This device's record was saved (or, `saved` nil, is gone from the server and must be
    /// created again).
    func ownDeviceSaved(_ saved: CloudRecord?) throws(NoteSyncError) {
        try updateFleet { state, _ in state.ownRecord = saved }
    }

    /// What to do after saving this device's record failed: a conflict or a missing record
    /// takes the server's side as the base and sends again; the rest as for a note.
    mutating func deviceSaveFailed(_ name: String, error: RecordStoreError) -> SaveFailureDecision {
        if error.zoneErrorCode == .zoneNotFound || error.zoneErrorCode == .userDeletedZone { return .recreateZone }
        do {
            switch error.code {
            case .serverRecordChanged:
                guard let server = error.conflict?.server else { return .retryLater(after: nil) }
                try ownDeviceSaved(server)
                return .sendAgain
            case .unknownItem:
                try ownDeviceSaved(nil)
                return .sendAgain
            default:
                if error.isTransient { return .retryLater(after: error.retryAfterSeconds.map { .seconds($0) }) }
                noteFailed(NoteSyncError(.storeFailure, noteName: name, storeError: error, "cannot save this device's record: \(error)"), name: name)
                return .giveUp
            }
        } catch {
            return .stop(error)
        }
    }

    /// Takes in another device's record from the server (or this device's own, echoed back).
    mutating func receiveDevice(_ stored: CloudRecord) throws(NoteSyncError) {
        let announcement: DeviceAnnouncement
        do {
            announcement = try DeviceAnnouncement(record: stored)
        } catch {
            throw NoteSyncError(.recordUnreadable, noteName: stored.recordName, "\(error)")
        }
        try updateFleet { state, _ in
            if stored.recordName == state.deviceID {
                state.ownRecord = stored
                return
            }
            let modified = stored.modified?.timestamp ?? announcement.lastSync
            state.devices[stored.recordName] = FleetState.KnownDevice(announcement: announcement, modified: modified)
            if state.devices.count > Self.maximumKnownDevices,
               let oldest = state.devices.min(by: { ($0.value.modified, $0.key) < ($1.value.modified, $1.key) })?.key {
                state.devices[oldest] = nil
            }
        }
    }

    /// A device record was deleted on the server: returns whether `name` was one.
    mutating func receiveDeviceDeletion(_ name: String) throws(NoteSyncError) -> Bool {
        guard name.hasPrefix(DeviceSchema.recordNamePrefix) else { return false }
        return try updateFleet { state, _ in
            if name == state.deviceID {
                state.ownRecord = nil
                return true
            }
            return state.devices.removeValue(forKey: name) != nil
        }
    }

    /// The transport read the change feed to its end (`fromStart`: from its beginning, with no
    /// saved position): from then on this device knows the devices in the zone (after a day of
    /// watching when it did not start from the beginning, as every device announces itself daily).
    public mutating func changesFetched(fromStart: Bool) throws(NoteSyncError) {
        let now = self.now
        try updateFleet { state, _ in
            if state.watchingSince == nil { state.watchingSince = now }
            if fromStart { state.feedReadFromStart = true }
        }
    }

    /// Raises the fleet's high-water format to the payload (or history) of `record`, received
    /// here, when this device reads it, and marks the encrypted layout seen when the record is in it
    /// (inside an access).
    static func sawPayload(of record: CloudRecord, _ access: LibrarySyncAccess, configuration: NoteSyncConfiguration,
                           now: Int64) throws(NoteSyncError) {
        let note = NoteRecord(record)
        let state = try loadFleet(access, replica: access.library.replica, now: now)
        var raised = state
        for version in [note.payloadReaderVersion, note.historyReaderVersion].compactMap({ $0 }) where version > 1 && version <= configuration.ownReader {
            raised.highWater = max(raised.highWater, version)
        }
        if note.layout == .encrypted, configuration.readsEncryptedLayout { raised.encryptedSeen = true }
        if raised != state { try storeFleet(raised, access) }
    }

    /// The zone is gone, and this device's record with it: it is created again at the next
    /// push. What the other devices announced is kept (they have not gone away; their records
    /// come back when they notice) and ages out with the activity window.
    func forgetOwnDeviceRecord() throws(NoteSyncError) {
        try updateFleet { state, _ in state.ownRecord = nil }
    }

    // MARK: Records needing a newer reader

    /// Remembers note `name`, passed over for needing a newer reader than this device has.
    func rememberSkipped(_ name: String) throws(NoteSyncError) {
        let reader = configuration.ownReader
        let configuration = self.configuration
        try updateFleet { state, _ in
            if state.skipped.count < configuration.maximumRecordsRemembered || state.skipped[name] != nil {
                state.skipped[name] = reader
            } else {
                state.skippedOverflow = min(state.skippedOverflow ?? reader, reader)
            }
        }
    }

    /// Note records passed over while this device read less than it does now, to fetch again
    /// (and hand to ``receive(_:)``), sorted.
    public func recordsToFetchAgain() throws(NoteSyncError) -> [String] {
        let reader = configuration.ownReader
        return try readFleet { (state) throws(NoteSyncError) -> [String] in
            return state.skipped.filter { $0.value < reader }.map(\.key).sorted()
        }
    }

    /// A record passed over before was read (or is gone from the server): forget it.
    public func recordWasFetchedAgain(_ name: String) throws(NoteSyncError) {
        try updateFleet { state, _ in state.skipped[name] = nil }
    }

    /// Whether more records were passed over than are remembered while this device read less
    /// than it does now: the change feed is then read again from its start.
    func feedNeedsRereading() throws(NoteSyncError) -> Bool {
        let reader = configuration.ownReader
        return try readFleet { (state) throws(NoteSyncError) -> Bool in
            return state.skippedOverflow.map { $0 < reader } ?? false
        }
    }

    /// The change feed was read again from its start: every record passed over came again.
    func feedWasReread() throws(NoteSyncError) {
        let reader = configuration.ownReader
        try updateFleet { state, _ in
            state.skippedOverflow = nil
            state.skipped = state.skipped.filter { $0.value >= reader } // still newer than this device reads
        }
    }

    // MARK: Format

    /// The format to write a note record's snapshot in now (raising the high-water mark).
    static func format(for state: inout FleetState, configuration: NoteSyncConfiguration, now: Int64) -> SnapshotFormat {
        if case .pinned(let format) = configuration.payloadFormat { return format }
        return SnapshotFormat.newest(readableBy: reader(for: &state, configuration: configuration, now: now))
    }

    /// The layout to write a note record's history in now: version 2 once the fleet reads it
    /// (automatic policy only: a pinned format says nothing of what the devices read beyond it).
    static func historyFormat(for state: inout FleetState, configuration: NoteSyncConfiguration, now: Int64) -> HistoryFormat {
        if case .pinned = configuration.payloadFormat { return .version1 }
        return HistoryFormat(reader: reader(for: &state, configuration: configuration, now: now))
    }

    /// The newest payload version every active device reads, never lower than one this device
    /// already saw in use (raising the high-water mark to it); 1 while the fleet is not known.
    private static func reader(for state: inout FleetState, configuration: NoteSyncConfiguration, now: Int64) -> UInt16 {
        let own = configuration.ownReader
        var reads: UInt16 = 1
        if state.knowsFleet(now: now) {
            let window = FleetState.milliseconds(configuration.activityWindow)
            reads = state.devices.values.filter { now - $0.modified <= window }.map(\.announcement.reads).reduce(own, min)
        }
        let chosen = max(min(max(reads, state.highWater), own), 1)
        state.highWater = max(state.highWater, chosen)
        return chosen
    }

    /// The layout to write a note record in now (marking the encrypted layout seen when chosen):
    /// the policy's, or automatically the encrypted one once every active device announces it
    /// (and this device reads it), or once it was seen here.
    static func layout(for state: inout FleetState, configuration: NoteSyncConfiguration, now: Int64) -> NoteRecordLayout {
        switch configuration.recordEncryption {
        case .always: return .encrypted
        case .never: return .plain
        case .automatic:
            guard configuration.readsEncryptedLayout else { return .plain }
            if !state.encryptedSeen, state.knowsFleet(now: now) {
                let window = FleetState.milliseconds(configuration.activityWindow)
                state.encryptedSeen = state.devices.values.allSatisfy {
                    now - $0.modified > window || $0.announcement.capabilities.contains(DeviceSchema.encryptedFieldsCapability)
                }
            }
            return state.encryptedSeen ? .encrypted : .plain
        }
    }

    /// The format and layout for a note record, inside an access (the high-water marks kept
    /// when raised).
    static func writtenForm(_ access: LibrarySyncAccess, configuration: NoteSyncConfiguration, now: Int64) throws(NoteSyncError) -> RecordForm {
        if case .pinned(let format) = configuration.payloadFormat, configuration.recordEncryption != .automatic {
            return RecordForm(format: format, history: .version1, layout: configuration.recordEncryption == .always ? .encrypted : .plain)
        }
        var state = try loadFleet(access, replica: access.library.replica, now: now)
        let before = state
        let form = RecordForm(format: Self.format(for: &state, configuration: configuration, now: now),
                              history: Self.historyFormat(for: &state, configuration: configuration, now: now),
                              layout: Self.layout(for: &state, configuration: configuration, now: now))
        if state != before { try storeFleet(state, access) }
        return form
    }

    // MARK: State

    /// The current time of the core's clock, in milliseconds.
    var now: Int64 { Int64(clamping: wallClock.now()) }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// What this device announces now.
    static func announcement(_ state: FleetState, configuration: NoteSyncConfiguration, now: Int64) -> DeviceAnnouncement {
        DeviceAnnouncement(release: CRDTNoteRelease.version, reads: configuration.ownReader, capabilities: configuration.ownCapabilities,
                           lastSync: now,
                           name: configuration.deviceName.map { DeviceAnnouncement.cut($0, toBytes: DeviceSchema.maximumNameBytes) },
                           replicas: state.replicas)
    }

    /// The fleet state kept in the library (a new one, kept at once, when none: the device id
    /// is made once), this process's replica added.
    static func loadFleet(_ access: LibrarySyncAccess, replica: ReplicaID, now: Int64) throws(NoteSyncError) -> FleetState {
        guard let bytes = access.fleetState else {
            // Durable at once: a crash must not make the library a second device.
            let fresh = FleetState(replica: replica, now: now)
            try storeFleet(fresh, access)
            do throws(NoteLibraryError) { try access.flush() } catch { throw NoteSyncError(library: error) }
            return fresh
        }
        var state = try FleetState.decode(bytes)
        if state.replicas.last != replica.rawValue {
            state.replicas.removeAll { $0 == replica.rawValue }
            state.replicas.append(replica.rawValue)
            if state.replicas.count > DeviceSchema.maximumReplicas { state.replicas.removeFirst(state.replicas.count - DeviceSchema.maximumReplicas) }
        }
        return state
    }

    static func storeFleet(_ state: FleetState, _ access: LibrarySyncAccess) throws(NoteSyncError) {
        let bytes = try state.encoded()
        do throws(NoteLibraryError) { try access.saveFleetState(bytes) } catch { throw NoteSyncError(library: error) }
    }

    /// Runs `body` on the fleet state as the library keeps it.
    func readFleet<R>(_ body: (FleetState) throws(NoteSyncError) -> R) throws(NoteSyncError) -> R {
        let now = self.now
        return try access { (access) throws(NoteSyncError) -> R in
            try body(try Self.loadFleet(access, replica: access.library.replica, now: now))
        }
    }

    /// Runs `body` on the fleet state and keeps it when it changed.
    @discardableResult
    func updateFleet<R>(_ body: (inout FleetState, LibrarySyncAccess) throws(NoteSyncError) -> R) throws(NoteSyncError) -> R {
        let now = self.now
        return try access { (access) throws(NoteSyncError) -> R in
            var state = try Self.loadFleet(access, replica: access.library.replica, now: now)
            let loaded = state
            let result = try body(&state, access)
            if state != loaded { try Self.storeFleet(state, access) }
            return result
        }
    }
}

extension NoteSyncConfiguration {
    /// The newest payload format this device reads (this release's, or the simulation's lower one).
    var ownReader: UInt16 { max(min(readerVersion, NoteFormat.readerVersion), 1) }
    /// The newest note record schema version this device reads.
    var ownRecordVersion: Int64 { readsEncryptedLayout ? NoteSchema.newestVersion : NoteSchema.currentVersion }
    /// The capabilities this device announces (Docs/FORMAT.md, "Minimum readers by feature").
    var ownCapabilities: [String] { readsEncryptedLayout ? [DeviceSchema.encryptedFieldsCapability] : [] }
}
