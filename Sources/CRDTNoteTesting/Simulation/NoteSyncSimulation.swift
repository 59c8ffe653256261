import CRDTNoteSupport
import CRDTNoteToolSupport
import CRDTNoteDurableFiles
import CRDTNote
/// A seeded simulation of several devices editing notes offline and online against the
/// in-memory CloudKit simulator with injected faults and process crashes, then syncing to
/// quiescence. Each device reaches the database through a `CloudKitStyleRecordStore`, the code
/// the CloudKit adapter runs, so every injected fault goes through it. It checks the two
/// promises of the library against an independent record of every edit (see `lostEdits`,
/// `resurrectedEdits`): every device ends with the same text, and no edit is lost or undone.
///
/// ```swift
/// let report = await NoteSyncSimulation(devices: 3, notes: 5, edits: 300, faultRate: 0.2, seed: 7, crashRate: 0.05).run()
/// assert(report.succeeded)
/// ```
///
/// Each device is an app with its own ``NoteLibrary`` on its own simulated disk (a
/// fault-injecting in-memory file system): it edits (every inserted stretch carries a unique
/// marker; deletions remove whole stretches), flushes the library after batches of edits and
/// before it syncs, and may lose power in the middle of a sync (`crashRate`): before or after
/// any request reaches the server. Unflushed writes are then dropped or torn, and the device
/// opens its library again. An edit counts once a flush after it returned.
///
/// Everything is deterministic for a seed: device edits, connectivity, faults, crashes and
/// clocks (a manual physical clock; retry waits are recorded, not slept).
public struct NoteSyncSimulation: Hashable, Sendable {
    /// Number of devices.
    public var devices: Int
    /// Number of notes.
    public var notes: Int
    /// Number of edits, spread over devices and notes.
    public var edits: Int
    /// Probability that a store request fails.
    public var faultRate: Double
    /// Seed of edits, connectivity and faults.
    public var seed: UInt64
    /// Fault kinds injected (all by default, zone resets and user zone deletions included).
    public var faultKinds: FaultPlan.Kinds
    /// Probability that a device syncs after an edit (else it stays offline for now).
    public var syncProbability: Double
    /// Most sync rounds (every device once) after the edits; faults and crashes stop after half of them.
    public var maxQuiescenceRounds: Int
    /// Probability that a device's process dies during a sync step.
    public var crashRate: Double
    /// Push-driven sync when set: the zone has a subscription, every change notifies the
    /// devices (this share of notifications is dropped), a notified device fetches, and every
    /// device also polls every ``pollInterval`` edits. Nil: devices only sync after their edits.
    public var dropPushRate: Double?
    /// Edits between periodic polls of every device in push-driven runs.
    public var pollInterval: Int
    /// The newest payload format each device reads (device i reads `readerFormats[i]`; devices
    /// past the list, and every device when it is empty, read what this release reads). A device
    /// reading less plays one on an older release that announces itself.
    public var readerFormats: [UInt16]
    /// After this many edits in total every device is updated to read the newest format (nil: never).
    public var updateAt: Int?

    /// A simulation.
    public init(devices: Int, notes: Int, edits: Int, faultRate: Double, seed: UInt64,
                faultKinds: FaultPlan.Kinds = .all, syncProbability: Double = 0.25, maxQuiescenceRounds: Int = 40,
                crashRate: Double = 0, dropPushRate: Double? = nil, pollInterval: Int = 200,
                readerFormats: [UInt16] = [], updateAt: Int? = nil) {
        self.devices = max(devices, 1)
        self.notes = max(notes, 1)
        self.edits = max(edits, 0)
        self.faultRate = min(max(faultRate, 0), 1)
        self.seed = seed
        self.faultKinds = faultKinds
        self.syncProbability = syncProbability
        self.maxQuiescenceRounds = max(maxQuiescenceRounds, 2)
        self.crashRate = min(max(crashRate, 0), 1)
        self.dropPushRate = dropPushRate.map { min(max($0, 0), 1) }
        self.pollInterval = max(pollInterval, 1)
        self.readerFormats = readerFormats.map { min(max($0, 1), NoteFormat.readerVersion) }
        self.updateAt = updateAt.map { max($0, 0) }
    }

    /// Runs the simulation. `progress`, when given, is called every few edits and once after the
    /// edits (for a progress line on a terminal); it does not change what the run does.
    public func run(progress: (@Sendable (NoteSyncSimulationProgress) -> Void)? = nil) async -> NoteSyncSimulationReport {
        let run = SimulationRun(self)
        run.progress = progress
        return await run.run()
    }

    static let words = ["milk ", "eggs ", "call Anna ", "TODO ", "→ ", "ünïcödé ", "🍎 ", "\n", "draft ", "ok "]
}

/// One device: the app process (library, engine, its store connection) and its disk.
struct SimulatedDevice {
    var engine: NoteSyncEngine
    var library: NoteLibrary
    var store: CrashingStore
    /// The device's disk: survives crashes, loses what was not flushed at a power loss.
    let disk: FaultInjectingFileSystem
    /// Edits made since the last flush (a power loss may take them).
    var unpersisted: [EditOracle.Intent] = []
    /// Edits made so far (for unique markers; survives crashes, as markers must stay unique).
    var madeEdits = 0
}

/// The state of one run of a `NoteSyncSimulation`.
final class SimulationRun {
    let simulation: NoteSyncSimulation
    var random: SplitMix64
    let zone = RecordZoneID(zoneName: "Notes")
    let database: InMemoryCloudDatabase
    let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
    let waited = RecordingClock()
    let configuration: NoteSyncConfiguration
    var devices: [SimulatedDevice] = []
    var oracle = EditOracle()
    var report: NoteSyncSimulationReport
    /// Whether crashes may happen now (not during setup or the fault-free end of quiescence).
    var crashesEnabled = false
    var progress: (@Sendable (NoteSyncSimulationProgress) -> Void)?
    var syncs = 0
    /// The newest payload format each device reads now.
    var readerVersions: [UInt16]
    /// Note records saved per format before the update (set when it happens).
    var formatsBeforeUpdate: [UInt16: Int]?

    init(_ simulation: NoteSyncSimulation) {
        self.simulation = simulation
        random = SplitMix64(seed: simulation.seed)
        database = InMemoryCloudDatabase(faults: FaultPlan(rate: simulation.faultRate, kinds: simulation.faultKinds,
                                                           seed: simulation.seed ^ 0x5EED_FA17))
        // An injected `userDeletedZone` stands for a zone lost on the server, not for a user
        // to ask: the simulated app consents at once.
        var configuration = NoteSyncConfiguration(zone: zone, maxAttempts: 6, batchSize: 50, pageLimit: 50,
                                                  userDeletedZonePolicy: .recreateAndUpload)
        if simulation.dropPushRate != nil { configuration.subscriptionID = "notes-changes" }
        self.configuration = configuration
        report = NoteSyncSimulationReport(devices: simulation.devices, notes: simulation.notes, edits: 0)
        readerVersions = (0..<simulation.devices).map { $0 < simulation.readerFormats.count ? simulation.readerFormats[$0] : NoteFormat.readerVersion }
    }

    func replica(_ index: Int) -> ReplicaID { ReplicaID(rawValue: UInt64(index + 1)) }

    /// The folder of every device's library (each on its own disk).
    static let folder = "/device/notes"

    /// A fresh process of device `index` opening its library on `disk` (made when `create`).
    /// Replica ids are fixed per device so runs repeat exactly; a process started again after a
    /// crash takes a new one, as an app must not reuse a replica whose edits may be lost.
    /// Nil when the library did not open; the failure is in the report's `setupFailures`.
    func launch(_ index: Int, disk: FaultInjectingFileSystem, create: Bool, restarts: Int = 0) -> SimulatedDevice? {
        let store = CrashingStore(base: CloudKitStyleRecordStore(database: database))
        let replica = ReplicaID(rawValue: UInt64(index + 1) + UInt64(restarts) << 32)
        do {
            let library = create ? try NoteLibrary.create(folder: Self.folder, replica: replica, fileSystem: disk)
                : try NoteLibrary(folder: Self.folder, replica: replica, fileSystem: disk)
            var configuration = self.configuration
            configuration.readerVersion = readerVersions[index]
            let time = self.time
            let engine = NoteSyncEngine(library: library, store: store, configuration: configuration, retryClock: waited,
                                        wallClock: PhysicalClock { time.milliseconds })
            return SimulatedDevice(engine: engine, library: library, store: store, disk: disk)
        } catch {
            report.setupFailures.append("device \(index) did not " + (create ? "create" : "open") + " its library: \(error)")
            return nil
        }
    }

    func run() async -> NoteSyncSimulationReport {
        let time = self.time
        await database.setModificationClock(PhysicalClock { time.milliseconds })
        if let rate = simulation.dropPushRate {
            await database.setNotificationDropRate(rate, seed: simulation.seed ^ 0xD20F_9054)
            for index in 0..<simulation.devices { await database.registerForNotifications(device: "device-\(index)") }
        }
        for index in 0..<simulation.devices {
            // A device that cannot start ends the run (its failure is in the report).
            guard let device = launch(index, disk: FaultInjectingFileSystem(), create: true) else { return report }
            devices.append(device)
        }
        // The devices have been syncing before the run: each has announced itself and seen the
        // others' device records (so a device reading less holds the others back from the start).
        await introduceDevices()
        let names = (0..<simulation.notes).map { "note-\($0)" }
        // Each note starts on one device.
        for (i, name) in names.enumerated() {
            // A few bytes, far within a note's limits: a refusal is a failure of the run.
            let device = i % devices.count
            do {
                try devices[device].library.create(name, text: "Note \(i)\n")
                try devices[device].library.flush()
            } catch {
                report.setupFailures.append("device \(device) could not create \(name): \(error)")
            }
        }
        for index in devices.indices { await syncStep(index, pushFirst: false) }
        crashesEnabled = simulation.crashRate > 0

        // Edits: a random device edits a note it has; sometimes it persists; sometimes it syncs.
        for step in 0..<simulation.edits {
            if step == simulation.updateAt { await updateDevices() }
            time.advance(by: 1 + UInt64(random.below(2000)))
            let index = random.below(devices.count)
            await edit(index)
            if random.unit() < 0.3 { await persist(index) } // the end of a batch of edits
            if random.unit() < simulation.syncProbability {
                // A device coming online either catches up first or, like CKSyncEngine, sends its
                // pending changes first; then its saves meet newer server records and conflict.
                await syncStep(index, pushFirst: random.unit() >= 0.5)
            }
            if simulation.dropPushRate != nil {
                await deliverNotifications()
                if (step + 1) % simulation.pollInterval == 0 {
                    for index in devices.indices { await syncStep(index, pushFirst: false) }
                }
            }
            if step % 16 == 15 || step + 1 == simulation.edits { await reportProgress(editsDone: step + 1) }
        }
        for index in devices.indices { await persist(index) }

        // Quiescence: everyone syncs until a whole round changes nothing.
        for round in 0..<simulation.maxQuiescenceRounds {
            if round == simulation.maxQuiescenceRounds / 2 {
                await database.setFaultPlan(.none)
                crashesEnabled = false
            }
            report.quiescenceRounds = round + 1
            var quiet = true
            for index in devices.indices {
                let result = await syncStep(index, pushFirst: false)
                let unsaved = (try? devices[index].library.list().contains { $0.unsaved }) ?? true
                if result?.isQuiet != true || unsaved { quiet = false }
            }
            if quiet { break }
        }
        await check()
        await countFormats()
        report.edits = oracle.counted
        report.faultCounts = await database.faultCounts
        report.faultsInjected = report.faultCounts.total
        report.secondsWaited = waited.totalWaited.seconds
        report.notificationsDelivered = await database.notificationsDelivered
        report.notificationsDropped = await database.notificationsDropped
        return report
    }

    /// Syncs every device until each one's record is on the server and each knows every other
    /// (at most 20 rounds; a device still missing one is a setup failure).
    func introduceDevices() async {
        for _ in 0..<20 {
            for index in devices.indices { await syncStep(index, pushFirst: false) }
            var known = true
            for device in devices {
                let fleet = try? await device.engine.fleet()
                if fleet?.devices.count != devices.count || fleet?.knowsDevices != true { known = false }
            }
            if known { return }
        }
        report.setupFailures.append("the devices did not all see each other's device records in 20 sync rounds")
    }

    /// Every device is updated to a release reading the newest format: its next sync announces it.
    func updateDevices() async {
        formatsBeforeUpdate = await database.savedPayloadFormats
        for index in devices.indices {
            readerVersions[index] = NoteFormat.readerVersion
            var configuration = self.configuration
            configuration.readerVersion = readerVersions[index]
            let time = self.time
            devices[index].engine = NoteSyncEngine(library: devices[index].library, store: devices[index].store,
                                                   configuration: configuration, retryClock: waited,
                                                   wallClock: PhysicalClock { time.milliseconds })
        }
    }

    /// Note records saved per format before and after the update; a record in a format some
    /// device did not read yet is a gate violation.
    func countFormats() async {
        let all = await database.savedPayloadFormats
        let before = formatsBeforeUpdate ?? all
        func named(_ counts: [UInt16: Int]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: counts.filter { $0.value > 0 }.map { (String($0.key), $0.value) })
        }
        report.recordsByFormatBeforeUpdate = named(before)
        report.recordsByFormatAfterUpdate = named(all.reduce(into: [:]) { $0[$1.key] = $1.value - (before[$1.key] ?? 0) })
        let oldest = simulation.readerFormats.min() ?? NoteFormat.readerVersion
        report.unreadableRecordsWritten = before.filter { $0.key > oldest }.map(\.value).reduce(0, +)
    }

    /// Device `index` makes one edit on a random note it has: inserts a token, deletes whole
    /// tokens, or replaces them with a new one.
    func edit(_ index: Int) async {
        let library = devices[index].library
        let name: String
        let text: NoteText
        do {
            let available = try library.list().map(\.name).sorted()
            guard !available.isEmpty else { return }
            name = available[random.below(available.count)]
            text = try library.note(name)
        } catch {
            report.setupFailures.append("device \(index) could not read a note to edit: \(error)")
            return
        }
        let string = text.string
        let length = text.scalarCount
        let tokens = EditOracle.tokens(in: string)
        let roll = random.below(10)
        let word = NoteSyncSimulation.words[random.below(NoteSyncSimulation.words.count)]
        devices[index].madeEdits += 1
        let marker = "d\(index + 1)e\(devices[index].madeEdits)"
        let token = EditOracle.token(marker: marker, word: word)
        do {
            if roll < 6 || tokens.isEmpty {
                // Insert at a token boundary (or the start or end).
                var boundaries = [0, length]
                for t in tokens { boundaries.append(t.start); boundaries.append(t.end) }
                let at = boundaries[random.below(boundaries.count)]
                try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.insert(token, atScalarOffset: at) }
                devices[index].unpersisted.append(.insert(note: name, marker: marker))
            } else {
                // Delete 1 to 3 adjacent tokens, sometimes putting a new one in their place.
                let first = random.below(tokens.count)
                var last = first
                let want = random.below(3)
                while last - first < want, last + 1 < tokens.count, tokens[last + 1].start == tokens[last].end { last += 1 }
                let range = tokens[first].start..<tokens[last].end
                let markers = tokens[first...last].map(\.marker)
                oracle.deletionMade(markers)
                if roll < 9 {
                    try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.deleteScalars(in: range) }
                    devices[index].unpersisted.append(.delete(note: name, markers: markers, replacement: nil))
                } else {
                    try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.replaceScalars(in: range, with: token) }
                    devices[index].unpersisted.append(.delete(note: name, markers: markers, replacement: marker))
                }
            }
        } catch {
            return
        }
    }

    /// Hands the figures so far to the progress callback, if there is one.
    func reportProgress(editsDone: Int) async {
        guard let progress else { return }
        let faults = await database.faultCounts.total
        progress(NoteSyncSimulationProgress(editsDone: editsDone, edits: simulation.edits, syncs: syncs,
                                            faults: faults, crashes: report.crashes))
    }

    /// The app of device `index` flushes its library: its edits so far count.
    func persist(_ index: Int) async {
        do {
            try devices[index].library.flush()
        } catch {
            report.setupFailures.append("device \(index) could not flush its library: \(error)")
            return
        }
        oracle.count(devices[index].unpersisted)
        devices[index].unpersisted = []
    }

    /// Every device that was notified since it last looked fetches (as its app would on a push).
    func deliverNotifications() async {
        for index in devices.indices {
            let ids = await database.takeNotifications(for: "device-\(index)")
            guard let id = ids.first else { continue }
            report.notificationSyncs += 1
            await syncStep(index, pushFirst: false, notification: id)
        }
    }

    /// One sync of device `index` (fetch then push, push first, or the fetch of a notification),
    /// which may kill its process; persists afterwards if it survived. Returns the report of a
    /// sync that completed.
    @discardableResult
    func syncStep(_ index: Int, pushFirst: Bool, notification: String? = nil) async -> NoteSyncReport? {
        syncs += 1
        var crashing = false
        if crashesEnabled && random.unit() < simulation.crashRate {
            crashing = true
            // Die at one of the first requests (before or after the server applied it), or after
            // the sync but before persisting when it makes fewer.
            await devices[index].store.arm(after: random.below(8), applying: random.below(2) == 0)
        }
        // The app flushes before it syncs (the engine would before sending anyway).
        await persist(index)
        let engine = devices[index].engine
        var result: NoteSyncReport?
        do {
            if let notification {
                result = try await engine.handleRemoteNotification(subscriptionID: notification)
            } else if pushFirst {
                try await engine.pushLocalChanges()
                try await engine.fetchRemoteChanges()
                result = NoteSyncReport()
            } else {
                result = try await engine.sync()
            }
        } catch {
            if !crashing { report.failedSyncs += 1 }
        }
        if crashing {
            await restart(index)
            return nil
        }
        return result
    }

    /// Device `index` lost power: unflushed writes are dropped or torn, and its app opens the
    /// library again.
    func restart(_ index: Int) async {
        report.crashes += 1
        await collectStatistics(devices[index].engine)
        devices[index].unpersisted = []
        let disk = devices[index].disk
        disk.crash(using: &random)
        guard var device = launch(index, disk: disk, create: false, restarts: report.crashes) else { return }
        device.madeEdits = devices[index].madeEdits
        devices[index] = device
    }

    func collectStatistics(_ engine: NoteSyncEngine) async {
        let stats = await engine.statistics
        report.conflictsMerged += stats.conflictsMerged
        report.retries += stats.retries
        report.notesResurrected += stats.notesResurrected
        report.zoneRecoveries += stats.zoneRecoveries
    }

    /// Convergence (all devices and the server hold the same text per note) and the oracle.
    func check() async {
        var texts: [String: Set<String>] = [:]
        var finals: [[String: String]] = []
        var converged = true
        // A library that cannot be listed or read fails the run (setupFailures), never passes as empty.
        var listings: [[String]] = []
        for (index, device) in devices.enumerated() {
            do {
                listings.append(try device.library.list().map(\.name).sorted())
            } catch {
                listings.append([])
                report.setupFailures.append("device \(index) could not list its library: \(error)")
            }
        }
        for (index, device) in devices.enumerated() {
            await collectStatistics(device.engine)
            let names = listings[index]
            if names != listings[0] { converged = false }
            var final: [String: String] = [:]
            for name in names {
                do {
                    let text = try device.library.text(of: name)
                    texts[name, default: []].insert(text)
                    final[name] = text
                } catch {
                    report.setupFailures.append("device \(index) could not read \(name): \(error)")
                }
            }
            finals.append(final)
        }
        for record in await database.allRecords(in: zone) where record.recordType == NoteSchema.recordType {
            let text = try? NoteSyncCore.text(from: record, replica: ReplicaID(rawValue: 0), clock: HybridLogicalClock())
            texts[record.recordName, default: []].insert(text?.string ?? "<unreadable>")
            do {
                if let text, try text.holdsCompactedIDs() { report.notesCompacted += 1 }
            } catch {
                report.setupFailures.append("the server's copy of \(record.recordName) has corrupt runs: \(error)")
            }
        }
        for (name, variants) in texts where variants.count != 1 {
            converged = false
            report.divergentNotes.append(name)
        }
        report.divergentNotes.sort()
        let found = oracle.check(finals)
        report.lostEdits = found.lost
        report.resurrectedEdits = found.resurrected
        report.lostMarkers = Array(found.lostMarkers.prefix(20))
        report.resurrectedMarkers = Array(found.resurrectedMarkers.prefix(20))
        if found.lost > 0 || found.resurrected > 0 { converged = false }
        report.converged = converged && texts.count == simulation.notes
    }
}
