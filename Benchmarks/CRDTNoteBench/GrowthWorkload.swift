import CRDTNote
import CRDTNoteToolSupport

/// The to-do workload of `crdtnote-bench growth` (Docs/BENCHMARKS.md, "Payload growth"): three
/// devices keep a list of at most 25 lines, typing lines character by character and deleting
/// whole lines; pairs of devices merge every 7 line edits, each device syncs with the server's
/// copy at least once an hour of simulated time, and a seeded clock advances between keystrokes,
/// lines and sessions. With `compacting`, each device records what it has seen and compacts
/// what every device has seen (``NoteText/compactIfSettled(devices:repointing:)``) when it
/// syncs, as a note library in an up-to-date fleet does when it writes the note, re-pointing
/// group chains when the fleet's format allows it; without, nothing compacts. Devices keeping
/// history trim it by their policy when they sync, as a library does when it compacts its files.
/// Both see the same random choices, so they hold the same text at every step.
struct GrowthWorkload {
    /// Line edits between two pair merges.
    static let pairMergeEvery = 7
    /// Most lines the list holds.
    static let maximumLines = 25
    /// A device syncs with the server once its last sync is this old (simulated milliseconds).
    static let syncInterval: UInt64 = 3_600_000

    private(set) var devices: [NoteText]
    /// The server's copy: what every device's syncs have put there.
    private(set) var server: NoteText
    private(set) var edits = 0
    private var random: SplitMix64
    private let time: ManualPhysicalClock
    private var lastSync: [UInt64]
    /// The device editing now and the line edits left in its session.
    private var editor = 0
    private var sessionLeft = 0
    /// Whether devices compact when they sync.
    let compacting: Bool
    /// The devices that count for compaction: each device's replica.
    private let deviceReplicas: [Set<ReplicaID>]
    /// Whether compactions re-point group chains (the fleet reads format 7).
    let repointing: Bool

    /// Three empty devices (replicas 1, 2, 3) and an empty server copy, at simulated time 2026-01-01;
    /// with `history`, the devices keep history by that policy; with `repointing`, compactions
    /// re-point group chains.
    init(seed: UInt64, compacting: Bool, history: HistoryRetention? = nil, repointing: Bool = false) {
        self.compacting = compacting
        self.repointing = repointing
        let start: UInt64 = 1_767_225_600_000
        let time = ManualPhysicalClock(milliseconds: start)
        self.time = time
        random = SplitMix64(seed: seed)
        devices = (1...3).map {
            var note = NoteText(replica: ReplicaID(rawValue: UInt64($0)), clock: HybridLogicalClock(physicalClock: time.clock))
            note.historyRetention = history
            return note
        }
        server = NoteText(replica: ReplicaID(rawValue: 100), clock: HybridLogicalClock(physicalClock: time.clock))
        lastSync = [UInt64](repeating: start, count: 3)
        deviceReplicas = devices.map { [$0.replica] }
    }

    /// Makes one line edit on the device whose session it is, then the merges and syncs due.
    mutating func step() throws {
        if sessionLeft == 0 {
            // A new session, on a random device, minutes to hours after the last one.
            editor = random.below(devices.count)
            sessionLeft = 1 + random.below(30)
            time.advance(by: 60_000 * UInt64(1 + random.below(random.below(4) == 0 ? 480 : 30)))
        } else {
            time.advance(by: UInt64(2_000 + random.below(28_000)))
        }
        sessionLeft -= 1
        try editLine(on: editor)
        edits += 1
        if edits % Self.pairMergeEvery == 0 {
            let first = random.below(devices.count)
            let second = (first + 1 + random.below(devices.count - 1)) % devices.count
            try devices[first].merge(devices[second])
            try devices[second].merge(devices[first])
        }
        for device in devices.indices where time.milliseconds - lastSync[device] >= Self.syncInterval {
            try sync(device)
        }
    }

    /// Syncs every device three times in turn: each then holds everything any device wrote, and
    /// what was deleted before the first round is settled and compacted everywhere.
    mutating func syncEveryDevice() throws {
        for _ in 0..<3 { for device in devices.indices { try sync(device) } }
    }

    /// The visible text's lines, each with its newline.
    static func lines(of note: NoteText) -> [Substring] {
        note.string.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 }
    }

    /// One line edit on `device`: type a line at a random line boundary (one scalar per keystroke,
    /// 50–300 ms apart), or delete a random whole line: always when the list is full, never when
    /// it is empty, otherwise one time in three.
    private mutating func editLine(on device: Int) throws {
        let lines = Self.lines(of: devices[device])
        let deletes = lines.count >= Self.maximumLines || (!lines.isEmpty && random.below(3) == 0)
        let line = random.below(deletes ? lines.count : lines.count + 1)
        let start = lines[..<line].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
        if deletes {
            try devices[device].deleteScalars(in: start..<(start + lines[line].unicodeScalars.count + 1))
            return
        }
        let text = "- [ ] task \(edits)\n"
        for (k, scalar) in text.unicodeScalars.enumerated() {
            time.advance(by: UInt64(50 + random.below(251)))
            try devices[device].insert(String(scalar), atScalarOffset: start + k)
        }
    }

    /// The device takes in the server's copy, and (compacting) records that it has seen it and
    /// compacts what is settled; then its copy, which holds the server's, becomes the server's.
    private mutating func sync(_ device: Int) throws {
        try devices[device].merge(server)
        if compacting {
            devices[device].trimHistory()
            devices[device].recordSeen(by: devices[device].replica)
            try devices[device].compactIfSettled(devices: deviceReplicas,
                                                 repointing: repointing ? .sparingHistory(of: devices[device]) : .off)
        }
        server = devices[device].forked(as: server.replica)
        lastSync[device] = time.milliseconds
    }
}
