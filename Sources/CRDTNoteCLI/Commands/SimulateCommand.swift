import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote simulate`.
struct SimulateOptions: Equatable, Sendable {
    /// Simulated devices (replicas), each with its own copy of every note.
    var devices: Int
    /// Notes shared by the devices.
    var notes: Int
    /// Edits made in total across devices and notes.
    var edits: Int
    /// Probability in [0, 1] that a sync step meets an injected CloudKit failure.
    var faultRate: Double
    /// Seed of the simulation's random choices; the same seed replays the same run.
    var seed: UInt64
    /// Probability in [0, 1] that a device's process dies during a sync step.
    var crashRate: Double = 0
    /// Push-driven sync with this share of notifications dropped; nil: devices only poll.
    var dropPushRate: Double? = nil
    /// The newest payload format each device reads (`--reader-formats`); empty: all the newest.
    var readerFormats: [UInt16] = []
    /// Edits after which every device is updated to the newest format (`--update-at`).
    var updateAt: Int? = nil
    /// Whether to print JSON instead of text.
    var json: Bool
}

extension SimulateOptions {
    /// Upper bounds that keep a run within minutes and well under 1 GB (Docs/CLI.md, "simulate",
    /// says how they were chosen): the most devices a simulation may use.
    static let maximumDevices = 100
    /// The most notes a simulation may use.
    static let maximumNotes = 1_000
    /// The most edits a simulation may make.
    static let maximumEdits = 100_000
    /// The most note copies (devices × notes): every device holds and syncs every note.
    static let maximumNoteCopies = 1_000
    /// The most device-edits (devices × edits): every edit is fetched by every device.
    static let maximumDeviceEdits = 100_000

    /// Parsing and help description of `crdtnote simulate`.
    static let spec = CommandSpec(
        name: "simulate",
        summary: "Simulate devices syncing notes through a faulty server; check they converge.",
        usage: ["simulate --devices N --notes M --edits E --fault-rate F --seed S [--crash-rate F] [--drop-push-rate F] [--reader-formats LIST] [--update-at K] [--json]"],
        options: [
            .value("--devices", "N", "Number of devices, 1 to \(maximumDevices)."),
            .value("--notes", "M", "Number of shared notes, 1 to \(maximumNotes)."),
            .value("--edits", "E", "Total number of edits, 1 to \(maximumEdits)."),
            .value("--fault-rate", "F", "Chance of an injected server failure per sync step, 0 to 1."),
            .value("--seed", "S", "Random seed, decimal or 0x hex (64 bits); same seed, same run."),
            .value("--crash-rate", "F", "Chance that a device's process dies during a sync step, 0 to 1 (default 0)."),
            .value("--drop-push-rate", "F", "Sync on change notifications (plus a slow poll), dropping this share of them, 0 to 1."),
            .value("--reader-formats", "LIST", "The newest payload format each device reads, comma-separated (e.g. 2,2,2,1: the fourth device runs a release reading only format 1); devices past the list read the newest."),
            .value("--update-at", "K", "After K edits in total, update every device to read the newest format."),
            CommonOptions.json,
        ],
        discussion: [
            "--devices, --notes, --edits, --fault-rate and --seed are required. Exits 1 if the devices end with different texts, or an edit was lost or undone.",
            "Sizes are bounded so a run ends in minutes: devices x notes at most \(maximumNoteCopies), devices x edits at most \(maximumDeviceEdits).",
            "With --reader-formats, writers choose the newest format every active device reads; the run also fails if a note record was saved in a format some device could not read yet. --json reports the records saved per format before and after --update-at.",
        ],
        examples: [
            ("crdtnote simulate --devices 3 --notes 10 --edits 1000 --fault-rate 0.1 --seed 42",
             "Three devices, ten notes, 10% faults"),
        ])

    /// Validates the parsed arguments of `crdtnote simulate`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        if let extra = parsed.positionals.first {
            throw parsed.usageError("unexpected argument '\(extra)'")
        }
        func required<T>(_ name: String, _ value: T?) throws(UsageError) -> T {
            guard let value else { throw parsed.usageError("missing required option '\(name)'") }
            return value
        }
        devices = try required("--devices", parsed.integer("--devices", in: 1...Self.maximumDevices))
        notes = try required("--notes", parsed.integer("--notes", in: 1...Self.maximumNotes))
        edits = try required("--edits", parsed.integer("--edits", in: 1...Self.maximumEdits))
        guard devices * notes <= Self.maximumNoteCopies else {
            throw parsed.usageError("--devices \(devices) x --notes \(notes) is \(devices * notes) note copies, more than the \(Self.maximumNoteCopies) a simulation may hold")
        }
        guard devices * edits <= Self.maximumDeviceEdits else {
            throw parsed.usageError("--devices \(devices) x --edits \(edits) is \(devices * edits) device-edits, more than the \(Self.maximumDeviceEdits) a simulation may run")
        }
        faultRate = try required("--fault-rate", parsed.double("--fault-rate", in: 0...1))
        seed = try required("--seed", parsed.unsigned64("--seed"))
        crashRate = try parsed.double("--crash-rate", in: 0...1) ?? 0
        dropPushRate = try parsed.double("--drop-push-rate", in: 0...1)
        if let list = try parsed.value("--reader-formats") {
            for item in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let format = UInt16(item), format >= 1, format <= NoteFormat.readerVersion else {
                    throw parsed.usageError("option '--reader-formats' needs formats from 1 to \(NoteFormat.readerVersion) separated by commas, got '\(list)'")
                }
                readerFormats.append(format)
            }
            guard readerFormats.count <= devices else {
                throw parsed.usageError("option '--reader-formats' lists \(readerFormats.count) formats for \(devices) devices")
            }
        }
        updateAt = try parsed.integer("--update-at", in: 0...Self.maximumEdits)
        json = parsed.flag("--json")
    }
}
