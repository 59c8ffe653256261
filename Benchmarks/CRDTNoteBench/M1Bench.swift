import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteTesting
import CRDTNoteToolSupport
import Foundation

/// The M1 workload (Docs/BENCHMARKS.md, "Workload M1"): two devices diverge on a large note.
struct M1Result {
    static let baseLength = 104_852
    static let expectedMergedLength = 136_655
    static let editsPerSide = 10_000

    var tracePath: String
    var syntheticBase: Bool
    var runs: Int
    var replayMs: Double
    var saveMs: Double
    var snapshotBytes: Int?
    var loadMs: Double
    var editMs: Double
    var divergedBytes: [Int?]
    var deltaBytes: Int?
    var recordMergeMs: Double
    var recordMergeMinMs: Double
    var recordMergeMaxMs: Double
    var mergedBytes: Int?
    var mergedLength: Int
    var converged: Bool
    var peakRSS: Int
    /// S0, SA, SB and the merged note written in snapshot format 2 (nil: it did not load back
    /// to the same state), and the medians of saving S0 in format 2 and loading it.
    var formatTwoBytes: [Int?]
    var formatTwoSaveMs: Double
    var formatTwoLoadMs: Double
    /// The same in snapshot format 6 (clock logs in columns, FORMAT.md §4.8).
    var formatSixBytes: [Int?]
    var formatSixSaveMs: Double
    var formatSixLoadMs: Double
    /// The snapshot format a fleet of up-to-date devices writes with the default configuration,
    /// as the library decides it (``M1Bench/fleetDefaultFormat()``).
    var fleetDefaultFormat: UInt16

    /// S0's and the merged note's sizes in the fleet's default format (nil: a format this
    /// benchmark does not measure, or a copy that did not load back).
    var fleetDefaultBytes: (snapshot: Int?, merged: Int?) {
        switch fleetDefaultFormat {
        case 1: (snapshotBytes, mergedBytes)
        case 2: (formatTwoBytes[0], formatTwoBytes[3])
        case 6: (formatSixBytes[0], formatSixBytes[3])
        default: (nil, nil)
        }
    }

    /// "format N", and ", fleet default" when N is what an up-to-date fleet writes.
    func formatLabel(_ format: UInt16) -> String {
        "format \(format)" + (format == fleetDefaultFormat ? ", fleet default" : "")
    }

    /// True when everything the workload prescribes was observed, and every format 2 copy
    /// loaded back to the same state.
    var passed: Bool {
        converged && mergedLength == Self.expectedMergedLength && !formatTwoBytes.contains(nil) && !formatSixBytes.contains(nil)
    }

    var json: JSONValue {
        func optional(_ v: Int?) -> JSONValue { v.map(JSONValue.int) ?? .null }
        return .object([
            "workload": .string("M1"), "trace": .string(tracePath), "synthetic_base": .bool(syntheticBase),
            "runs": .int(runs),
            "replay_ms": .double(replayMs), "save_ms": .double(saveMs),
            "snapshot_bytes": optional(snapshotBytes), "load_ms": .double(loadMs),
            "edit_ms": .double(editMs), "diverged_snapshot_bytes": .array(divergedBytes.map(optional)),
            "delta_bytes": optional(deltaBytes),
            "record_merge_ms": .double(recordMergeMs), "record_merge_min_ms": .double(recordMergeMinMs),
            "record_merge_max_ms": .double(recordMergeMaxMs),
            "merged_bytes": optional(mergedBytes), "merged_len": .int(mergedLength),
            "expected_merged_len": .int(Self.expectedMergedLength), "converged": .bool(converged),
            "peak_rss_bytes": .int(peakRSS),
            "fleet_default_format": .int(Int(fleetDefaultFormat)),
            "fleet_default_snapshot_bytes": optional(fleetDefaultBytes.snapshot),
            "fleet_default_merged_bytes": optional(fleetDefaultBytes.merged),
            "format2": .object([
                "snapshot_bytes": optional(formatTwoBytes[0]),
                "diverged_snapshot_bytes": .array(formatTwoBytes[1...2].map(optional)),
                "merged_bytes": optional(formatTwoBytes[3]),
                "save_ms": .double(formatTwoSaveMs), "load_ms": .double(formatTwoLoadMs),
            ]),
            "format6": .object([
                "snapshot_bytes": optional(formatSixBytes[0]),
                "diverged_snapshot_bytes": .array(formatSixBytes[1...2].map(optional)),
                "merged_bytes": optional(formatSixBytes[3]),
                "save_ms": .double(formatSixSaveMs), "load_ms": .double(formatSixLoadMs),
            ]),
        ])
    }

    var lines: [String] {
        func size(_ v: Int?) -> String { v.map(Format.bytes) ?? "n/a" }
        var out: [String] = []
        if syntheticBase {
            out.append("*** SYNTHETIC BASE: \(tracePath) not found; results are NOT comparable with other libraries ***")
        }
        let one = formatLabel(1), two = formatLabel(2), six = formatLabel(6)
        out += [
            "M1 (\(runs) runs, medians)   base: " + (syntheticBase ? "synthetic, \(Format.count(Self.baseLength)) scalars" : tracePath),
            "default (up-to-date fleet): format \(fleetDefaultFormat) (NoteSyncConfiguration.payloadFormat .automatic, two devices that know each other)",
            "replay base       \(Format.ms(replayMs))" + (syntheticBase ? " (synthetic build)" : " (259,778 patches)"),
            "save S0           \(Format.ms(saveMs)), \(size(snapshotBytes)) (\(one)); \(Format.ms(formatTwoSaveMs)), \(size(formatTwoBytes[0])) (\(two)); \(Format.ms(formatSixSaveMs)), \(size(formatSixBytes[0])) (\(six))",
            "load S0 + text    \(Format.ms(loadMs)) (\(one)); \(Format.ms(formatTwoLoadMs)) (\(two)); \(Format.ms(formatSixLoadMs)) (\(six))",
            "10k edits/side    \(Format.ms(editMs)) per side",
            "SA, SB            \(size(divergedBytes[0])), \(size(divergedBytes[1])) (\(one)); \(size(formatTwoBytes[1])), \(size(formatTwoBytes[2])) (\(two)); \(size(formatSixBytes[1])), \(size(formatSixBytes[2])) (\(six))",
            "delta B since A   \(size(deltaBytes))",
            "record merge      median \(Format.ms(recordMergeMs)), min \(Format.ms(recordMergeMinMs)), max \(Format.ms(recordMergeMaxMs)) (load SA, merge SB, read text, save)",
            "merged            \(Format.count(mergedLength)) scalars (expected \(Format.count(Self.expectedMergedLength))), \(size(mergedBytes)) (\(one)); \(size(formatTwoBytes[3])) (\(two)); \(size(formatSixBytes[3])) (\(six))",
            "format 2, 6 copies " + (formatTwoBytes.contains(nil) || formatSixBytes.contains(nil) ? "FAILED: a format 2 or 6 snapshot did not load back to the same state" : "load back to the same state"),
            "converged         " + (converged ? "yes, both merge orders give the same text" : "NO: merge orders differ"),
            "peak RSS          \(Format.bytes(peakRSS))",
        ]
        return out
    }
}

enum M1Bench {
    static let defaultTrace = "../shared/traces/automerge-paper.json.gz"

    /// Runs M1; with `saveDirectory`, writes `S0`, `SA`, `SB` and `merged` there as
    /// `NAME.v1.bin` and `NAME.v2.bin` (snapshot formats 1 and 2).
    static func run(tracePath: String?, runs: Int, saveDirectory: String? = nil) throws -> M1Result {
        let path = tracePath ?? defaultTrace
        let synthetic = !FileManager.default.fileExists(atPath: path)
        // Each phase runs in its own function so the trace, the base and the diverged notes are
        // freed before the next phase starts (peak memory is one of M1's figures).
        let (replayMs, saveMs, s0) = try replayAndSave(path: path, synthetic: synthetic, runs: runs)
        var loadSamples: [Double] = []
        for _ in 0..<runs {
            let (ms, _) = try Measure.time { () throws -> Int in
                let note = try Snapshots.load(s0, replica: ReplicaID(rawValue: 1))
                return note.string.utf8.count
            }
            loadSamples.append(ms)
        }
        let diverged = try diverge(s0)

        var mergeSamples: [Double] = []
        var merged: (text: String, length: Int, saved: Snapshots.Saved)?
        for _ in 0..<runs {
            merged = nil  // free the previous run's result first
            let (ms, result) = try Measure.time { () throws -> (String, Int, Snapshots.Saved) in
                try recordMerge(diverged.sa, diverged.sb, replica: ReplicaID(rawValue: 2))
            }
            mergeSamples.append(ms)
            merged = result
        }
        let otherText = try recordMerge(diverged.sb, diverged.sa, replica: ReplicaID(rawValue: 3)).0
        let mergeTiming = Timing(samples: mergeSamples)
        let formatTwo = try formatFigures(s0, format: .version2, runs: runs)
        let formatSix = try formatFigures(s0, format: .version6, runs: runs)
        var formatTwoBytes: [Int?] = [formatTwo.bytes], formatSixBytes: [Int?] = [formatSix.bytes]
        for saved in [diverged.sa, diverged.sb, merged?.saved] {
            formatTwoBytes.append(try saved.flatMap { try Snapshots.resaved($0, format: .version2) }.flatMap(Snapshots.byteCount))
            formatSixBytes.append(try saved.flatMap { try Snapshots.resaved($0, format: .version6) }.flatMap(Snapshots.byteCount))
        }
        if let saveDirectory {
            for (name, saved) in [("S0", s0), ("SA", diverged.sa), ("SB", diverged.sb), ("merged", merged?.saved)] {
                guard let saved else { continue }
                try BenchFiles.write(saved, to: saveDirectory + "/\(name).v1.bin")
                if let v2 = try Snapshots.resaved(saved, format: .version2) {
                    try BenchFiles.write(v2, to: saveDirectory + "/\(name).v2.bin")
                }
            }
        }
        let fleetFormat = try fleetDefaultFormat()
        return M1Result(
            tracePath: path, syntheticBase: synthetic, runs: runs,
            replayMs: replayMs, saveMs: saveMs,
            snapshotBytes: Snapshots.byteCount(s0), loadMs: Timing(samples: loadSamples).median,
            editMs: diverged.editMs, divergedBytes: [Snapshots.byteCount(diverged.sa), Snapshots.byteCount(diverged.sb)],
            deltaBytes: diverged.deltaBytes, recordMergeMs: mergeTiming.median, recordMergeMinMs: mergeTiming.min,
            recordMergeMaxMs: mergeTiming.max, mergedBytes: merged.flatMap { Snapshots.byteCount($0.saved) },
            mergedLength: merged?.length ?? 0, converged: merged?.text == otherText,
            peakRSS: Measure.peakRSSBytes(), formatTwoBytes: formatTwoBytes,
            formatTwoSaveMs: formatTwo.saveMs, formatTwoLoadMs: formatTwo.loadMs,
            formatSixBytes: formatSixBytes, formatSixSaveMs: formatSix.saveMs, formatSixLoadMs: formatSix.loadMs,
            fleetDefaultFormat: fleetFormat)
    }

    /// The snapshot format a fleet of up-to-date devices writes by default, as the library
    /// decides it (Docs/FORMAT.md, "Mixed fleets"): two devices, each a note library in a
    /// temporary folder with a `NoteSyncEngine` in the default configuration, sync twice each
    /// through the in-memory database, so each has read the zone from its start and seen the
    /// other's device record; then one creates a note and syncs, the server must hold it with a
    /// payload, and the fleet's format is its `NoteFleet.writtenFormat` (a note is written in it,
    /// or in format 2 or 3 when its clock logs are smaller inline, FORMAT.md §4.8).
    static func fleetDefaultFormat() throws -> UInt16 {
        let root = NSTemporaryDirectory() + "crdtnote-bench-fleet-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let database = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: database)
        let phone = try NoteLibrary.create(folder: root + "/phone", replica: ReplicaID(rawValue: 1))
        let laptop = try NoteLibrary.create(folder: root + "/laptop", replica: ReplicaID(rawValue: 2))
        let engines = [NoteSyncEngine(library: phone, store: store), NoteSyncEngine(library: laptop, store: store)]
        for _ in 0..<2 {
            for engine in engines { _ = try LibrarySyncBench.blocking { try await engine.sync() } }
        }
        for engine in engines {
            let fleet = try LibrarySyncBench.blocking { try await engine.fleet() }
            guard fleet.knowsDevices, fleet.devices.count == 2 else {
                throw UsageError("fleet default format: a device did not see the other's device record after two syncs")
            }
        }
        try phone.create("fleet-format", text: "written by a fleet of up-to-date devices")
        _ = try LibrarySyncBench.blocking { try await engines[0].sync() }
        let zone = NoteSyncConfiguration().zone
        let records = try LibrarySyncBench.blocking { await database.allRecords(in: zone) }
        guard let record = records.first(where: { $0.recordName == "fleet-format" }),
              NoteRecord(record).payloadReaderVersion != nil else {
            throw UsageError("fleet default format: the note was not saved with a payload")
        }
        return try LibrarySyncBench.blocking { try await engines[0].fleet() }.writtenFormat.rawValue
    }

    /// S0 in snapshot format `format`: its size (nil unless it loads back to the same state) and
    /// the medians of `runs` saves and loads (+ text), timed like format 1's.
    static func formatFigures(_ s0: Snapshots.Saved, format: SnapshotFormat, runs: Int) throws -> (bytes: Int?, saveMs: Double, loadMs: Double) {
        let note = try Snapshots.load(s0, replica: ReplicaID(rawValue: 1))
        var saveSamples: [Double] = []
        var saved = Snapshots.save(note, format: format)
        for _ in 0..<runs {
            let (ms, bytes) = Measure.time { Snapshots.save(note, format: format) }
            saveSamples.append(ms)
            saved = bytes
        }
        var loadSamples: [Double] = []
        for _ in 0..<runs {
            let (ms, _) = try Measure.time { () throws -> Int in
                let loaded = try Snapshots.load(saved, replica: ReplicaID(rawValue: 1))
                return loaded.string.utf8.count
            }
            loadSamples.append(ms)
        }
        let same = Snapshots.save(try Snapshots.load(saved, replica: ReplicaID(rawValue: 1))) == s0
        return (same ? Snapshots.byteCount(saved) : nil, Timing(samples: saveSamples).median, Timing(samples: loadSamples).median)
    }

    /// Steps 1: replays the base `runs` times (median ms) and saves it as S0 `runs` times
    /// (median ms); only S0 outlives this call.
    static func replayAndSave(path: String, synthetic: Bool, runs: Int) throws -> (Double, Double, Snapshots.Saved) {
        var base = NoteText(replica: ReplicaID(rawValue: 1))
        var replaySamples: [Double] = []
        let trace = synthetic ? nil : try loadTrace(path)
        for _ in 0..<runs {
            base = NoteText(replica: ReplicaID(rawValue: 1))  // free the previous run's note first
            let (ms, note) = try Measure.time { () throws -> NoteText in
                if let trace { return try TraceReplay.replay(trace, replica: ReplicaID(rawValue: 1)) }
                return try syntheticBase()
            }
            replaySamples.append(ms)
            base = note
        }
        try check(base, trace: trace, path: path)
        var saveSamples: [Double] = []
        var s0 = Snapshots.save(base)
        for _ in 0..<runs {
            let (ms, saved) = Measure.time { Snapshots.save(base) }
            saveSamples.append(ms)
            s0 = saved
        }
        return (Timing(samples: replaySamples).median, Timing(samples: saveSamples).median, s0)
    }

    /// Steps 2-4: S0 loaded as A and B, 10,000 random edits each, saved as SA and SB.
    static func diverge(_ s0: Snapshots.Saved) throws
        -> (sa: Snapshots.Saved, sb: Snapshots.Saved, editMs: Double, deltaBytes: Int?)
    {
        let editsA = RandomEdits.generate(seed: 1, startLength: M1Result.baseLength, count: M1Result.editsPerSide)
        let editsB = RandomEdits.generate(seed: 2, startLength: M1Result.baseLength, count: M1Result.editsPerSide)
        var a = try Snapshots.load(s0, replica: ReplicaID(rawValue: 2))
        var b = try Snapshots.load(s0, replica: ReplicaID(rawValue: 3))
        let (editMsA, _) = try Measure.time { () throws in try RandomEdits.apply(editsA, to: &a) }
        let (editMsB, _) = try Measure.time { () throws in try RandomEdits.apply(editsB, to: &b) }
        return (Snapshots.save(a), Snapshots.save(b), (editMsA + editMsB) / 2, Snapshots.deltaByteCount(b, since: a.version))
    }

    /// The M1 base (trace path, whether synthetic, the note), built once, for other benchmarks.
    static func buildBase(tracePath: String?) throws -> (String, Bool, NoteText) {
        let path = tracePath ?? defaultTrace
        guard FileManager.default.fileExists(atPath: path) else { return (path, true, try syntheticBase()) }
        let trace = try loadTrace(path)
        let base = try TraceReplay.replay(trace, replica: ReplicaID(rawValue: 1))
        try check(base, trace: trace, path: path)
        return (path, false, base)
    }

    static func loadTrace(_ path: String) throws -> SequentialTrace {
        guard case .sequential(let trace) = try EditingTrace.load(contentsOf: path) else {
            throw UsageError("\(path) is not a sequential trace")
        }
        return trace
    }

    /// The base must be the trace's end text (when there is a trace) and exactly 104,852 scalars.
    static func check(_ base: NoteText, trace: SequentialTrace?, path: String) throws {
        if let trace, base.string != trace.endContent { throw UsageError("replaying \(path) did not give endContent") }
        guard base.scalarCount == M1Result.baseLength else {
            throw UsageError("the base has \(base.scalarCount) scalars, expected \(M1Result.baseLength)")
        }
    }

    /// The timed record merge: load the first snapshot, merge the second, read the text, save.
    static func recordMerge(_ first: Snapshots.Saved, _ second: Snapshots.Saved, replica: ReplicaID) throws
        -> (String, Int, Snapshots.Saved)
    {
        var note = try Snapshots.load(first, replica: replica)
        try note.merge(try Snapshots.load(second, replica: replica))
        let text = note.string
        return (text, note.scalarCount, Snapshots.save(note))
    }

    /// A base of exactly 104,852 scalars for when the trace is missing: random typing
    /// (R(seed 0xBA5E, 0, ...)) until long enough, then the excess deleted from the end.
    static func syntheticBase() throws -> NoteText {
        var note = NoteText(replica: ReplicaID(rawValue: 1))
        var seed: UInt64 = 0xBA5E
        while note.scalarCount < M1Result.baseLength {
            try RandomEdits.apply(RandomEdits.generate(seed: seed, startLength: note.scalarCount, count: 10_000), to: &note)
            seed += 1
        }
        try note.deleteScalars(in: M1Result.baseLength..<note.scalarCount)
        return note
    }
}
