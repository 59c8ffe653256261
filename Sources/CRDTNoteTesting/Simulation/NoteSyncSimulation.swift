import CRDTNoteSupport
import CRDTNote
/// A seeded simulation of several devices editing notes offline and online against the
/// in-memory CloudKit simulator with injected faults, then syncing to quiescence. It checks
/// the two promises of the library: every device ends with the same text, and no edit is lost.
///
/// ```swift
/// let report = await NoteSyncSimulation(devices: 3, notes: 5, edits: 300, faultRate: 0.2, seed: 7).run()
/// assert(report.converged && report.lostEdits == 0)
/// ```
///
/// Everything is deterministic for a seed: device edits, connectivity, faults and clocks
/// (a manual physical clock; retry waits are recorded, not slept).
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
    /// Most sync rounds (every device once) after the edits; faults stop after half of them.
    public var maxQuiescenceRounds: Int

    /// A simulation.
    public init(devices: Int, notes: Int, edits: Int, faultRate: Double, seed: UInt64,
                faultKinds: FaultPlan.Kinds = .all, syncProbability: Double = 0.25, maxQuiescenceRounds: Int = 40) {
        self.devices = max(devices, 1)
        self.notes = max(notes, 1)
        self.edits = max(edits, 0)
        self.faultRate = min(max(faultRate, 0), 1)
        self.seed = seed
        self.faultKinds = faultKinds
        self.syncProbability = syncProbability
        self.maxQuiescenceRounds = max(maxQuiescenceRounds, 2)
    }

    /// Runs the simulation.
    public func run() async -> NoteSyncSimulationReport {
        var random = SplitMix64(seed: seed)
        let zone = RecordZoneID(zoneName: "Notes")
        let database = InMemoryCloudDatabase(faults: FaultPlan(rate: faultRate, kinds: faultKinds, seed: seed ^ 0x5EED_FA17))
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        let waited = RecordingClock()
        let configuration = NoteSyncConfiguration(zone: zone, maxAttempts: 6, batchSize: 50, pageLimit: 50)
        var engines: [NoteSyncEngine] = []
        for index in 0..<devices {
            let clock = HybridLogicalClock(physicalClock: time.clock)
            // Replica ids are fixed per device so runs repeat exactly.
            if let engine = try? NoteSyncEngine(store: database, replica: ReplicaID(rawValue: UInt64(index + 1)),
                                                configuration: configuration, clock: clock, retryClock: waited) {
                engines.append(engine)
            }
        }
        var report = NoteSyncSimulationReport(devices: devices, notes: notes, edits: 0)
        let names = (0..<notes).map { "note-\($0)" }
        // Each note starts on one device.
        for (i, name) in names.enumerated() {
            // A few bytes, far within a note's limits: never refused.
            try? await engines[i % engines.count].createNote(name, text: "Note \(i)\n")
        }
        for engine in engines { await attemptSync(engine, &report) }

        // Edits: a random device edits a note it has; sometimes it syncs afterwards.
        for _ in 0..<edits {
            time.advance(by: 1 + UInt64(random.below(2000)))
            let engine = engines[random.below(engines.count)]
            let available = await engine.noteNames
            guard !available.isEmpty else {
                await attemptSync(engine, &report)
                continue
            }
            let name = available[random.below(available.count)]
            let length = await engine.note(name)?.scalarCount ?? 0
            let roll = random.below(10)
            let word = Self.words[random.below(Self.words.count)]
            let at = random.below(length + 1)
            let span = min(length - min(at, length), 1 + random.below(6))
            do {
                if roll < 7 || length == 0 {
                    try await engine.edit(name) { try $0.insert(word, atScalarOffset: at) }
                } else if roll < 9 {
                    try await engine.edit(name) { try $0.deleteScalars(in: at..<(at + span)) }
                } else {
                    try await engine.edit(name) { try $0.replaceScalars(in: at..<(at + span), with: word) }
                }
                report.edits += 1
            } catch {
                continue
            }
            if random.unit() < syncProbability {
                // A device coming online either catches up first or, like CKSyncEngine, sends its
                // pending changes first; then its saves meet newer server records and conflict.
                if random.unit() < 0.5 {
                    await attemptSync(engine, &report)
                } else {
                    await attemptPushFirst(engine, &report)
                }
            }
        }

        // Quiescence: everyone syncs until a whole round changes nothing.
        for round in 0..<maxQuiescenceRounds {
            if round == maxQuiescenceRounds / 2 { await database.setFaultPlan(.none) }
            report.quiescenceRounds = round + 1
            var quiet = true
            for engine in engines {
                let result = await attemptSync(engine, &report)
                let unsaved = await engine.unsavedNoteNames
                if result?.isQuiet != true || !unsaved.isEmpty { quiet = false }
            }
            if quiet { break }
        }
        await check(engines, database: database, zone: zone, into: &report)
        report.faultCounts = await database.faultCounts
        report.faultsInjected = report.faultCounts.total
        report.secondsWaited = waited.totalWaited.seconds
        for engine in engines {
            let stats = await engine.statistics
            report.conflictsMerged += stats.conflictsMerged
            report.retries += stats.retries
            report.notesResurrected += stats.notesResurrected
            report.zoneRecoveries += stats.zoneRecoveries
        }
        return report
    }

    /// Syncs once; a failure is counted, not fatal (unsaved edits stay pending).
    @discardableResult
    private func attemptSync(_ engine: NoteSyncEngine, _ report: inout NoteSyncSimulationReport) async -> NoteSyncReport? {
        do {
            return try await engine.sync()
        } catch {
            report.failedSyncs += 1
            return nil
        }
    }

    /// Pushes pending edits before fetching, so stale saves conflict and get merged.
    private func attemptPushFirst(_ engine: NoteSyncEngine, _ report: inout NoteSyncSimulationReport) async {
        do {
            try await engine.pushLocalChanges()
            try await engine.fetchRemoteChanges()
        } catch {
            report.failedSyncs += 1
        }
    }

    /// Convergence and lost edits: all devices and the server hold the same text per note, and
    /// the final state of every note includes every operation any device made on it.
    private func check(_ engines: [NoteSyncEngine], database: InMemoryCloudDatabase, zone: RecordZoneID,
                       into report: inout NoteSyncSimulationReport) async {
        var expected: [String: VersionVector] = [:]
        var texts: [String: Set<String>] = [:]
        var finals: [String: VersionVector] = [:]
        var converged = true
        let reference = await engines[0].noteNames
        for engine in engines {
            let names = await engine.noteNames
            if names != reference { converged = false }
            for name in names {
                guard let note = await engine.note(name) else { continue }
                texts[name, default: []].insert(note.string)
                var own = expected[name] ?? VersionVector()
                own.formUnion(VersionVector([engine.replica: note.version[engine.replica]]))
                expected[name] = own
                var all = finals[name] ?? VersionVector()
                all.formUnion(note.version)
                finals[name] = all
            }
        }
        for record in await database.allRecords(in: zone) {
            let text = try? NoteSyncCore.text(from: record, replica: ReplicaID(rawValue: 0), clock: HybridLogicalClock())
            texts[record.recordName, default: []].insert(text?.string ?? "<unreadable>")
        }
        for (name, variants) in texts where variants.count != 1 {
            converged = false
            report.divergentNotes.append(name)
        }
        report.divergentNotes.sort()
        // Every device's own operations must be in every device's final state of the note.
        for engine in engines {
            for (name, want) in expected {
                guard let have = await engine.note(name)?.version else {
                    report.lostEdits += Int(clamping: want.totalCount)
                    continue
                }
                for (replica, count) in want.counts where have[replica] < count {
                    report.lostEdits += Int(clamping: count - have[replica])
                }
            }
        }
        if report.lostEdits > 0 { converged = false }
        report.converged = converged && texts.count == notes
    }

    private static let words = ["milk ", "eggs ", "call Anna ", "TODO ", "→ ", "ünïcödé ", "🍎 ", "\n", "draft ", "ok "]
}
