import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport

/// `replay TRACE`: parse once, replay N times, verify `endContent`.
struct ReplayResult {
    var path: String
    var name: String
    var kind: String
    var transactions: Int
    var patches: Int
    var parseMs: Double
    var replay: Timing
    /// The plain gap buffer applying the same patches, timed in the same runs (the floor).
    var baseline: Timing
    /// Whether the gap buffer's text equals `endContent` (sequential traces only).
    var baselineCorrect: Bool
    var finalLength: Int
    var floorRatio: Double { baseline.median > 0 ? replay.median / baseline.median : 0 }
    var correct: Bool
    var peakRSS: Int
    /// With `--formatted`: the same trace replayed with formatting made as it goes, timed in
    /// the same runs, and the operations it made.
    var formatted: Timing?
    var formattingOperations = 0
    var formattedRatio: Double { formatted.map { replay.median > 0 ? $0.median / replay.median : 0 } ?? 0 }
    /// The median over runs of each run's formatted ÷ plain time: the two replays of a run share
    /// the machine's state, so this ratio moves less than the medians do on a noisy machine.
    var pairedFormattedRatio: Double {
        guard let formatted, formatted.samples.count == replay.samples.count else { return 0 }
        let ratios = zip(formatted.samples, replay.samples).map { $0.1 > 0 ? $0.0 / $0.1 : 0 }
        return Timing(samples: ratios).median
    }

    var json: JSONValue {
        var object: JSONObject = [
            "trace": .string(name), "path": .string(path), "kind": .string(kind),
            "transactions": .int(transactions), "patches": .int(patches),
            "parse_ms": .double(parseMs), "runs": .int(replay.samples.count),
            "replay_ms": .double(replay.median), "replay_min_ms": .double(replay.min),
            "replay_max_ms": .double(replay.max),
            "baseline_gap_buffer_ms": .double(baseline.median), "baseline_gap_buffer_min_ms": .double(baseline.min),
            "replay_vs_gap_buffer": .double(floorRatio), "final_len": .int(finalLength),
            "correct": .bool(correct), "peak_rss_bytes": .int(peakRSS),
        ]
        if let formatted {
            object.append(key: "formatted_replay_ms", value: .double(formatted.median))
            object.append(key: "formatted_replay_min_ms", value: .double(formatted.min))
            object.append(key: "formatted_vs_plain", value: .double(formattedRatio))
            object.append(key: "formatted_vs_plain_paired", value: .double(pairedFormattedRatio))
            object.append(key: "formatting_operations", value: .int(formattingOperations))
        }
        return .object(object)
    }

    var lines: [String] {
        [
            "trace        \(name) (\(kind), \(Format.count(transactions)) txns, \(Format.count(patches)) patches)",
            "parse        \(Format.ms(parseMs)) (read + gunzip + JSON, once)",
            "replay       median \(Format.ms(replay.median)), min \(Format.ms(replay.min)), max \(Format.ms(replay.max)) over \(replay.samples.count) runs",
            "gap buffer   median \(Format.ms(baseline.median)), min \(Format.ms(baseline.min)) (plain buffer, no CRDT: the floor"
                + (kind == "sequential" ? (baselineCorrect ? ", text ok)" : ", TEXT DIFFERS)") : ", positions clamped)"),
            "vs floor     \(Format.fixed(floorRatio, 1))× the gap buffer (same runs)",
            "final text   \(Format.count(finalLength)) scalars, " + (correct ? "equals endContent" : "DIFFERS FROM endContent"),
            "peak RSS     \(Format.bytes(peakRSS))",
        ] + (formatted.map { formatted in [
            "formatted    median \(Format.ms(formatted.median)), min \(Format.ms(formatted.min)): \(Format.count(formattingOperations)) "
                + "formatting operations made as it replays, \(Format.fixed(formattedRatio, 2))× the plain replay (same runs; "
                + "median of each run's ratio \(Format.fixed(pairedFormattedRatio, 2))×)",
        ] } ?? [])
    }
}

enum ReplayBench {
    /// Replays the trace at `path` `runs` times.
    /// With `formatted` (single-writer traces), also replays it with formatting made as it goes
    /// (``FormattedReplay``), alternating with the plain replay in each run.
    static func run(path: String, runs: Int, formatted: Bool = false) throws -> ReplayResult {
        let (parseMs, trace) = try Measure.time { () throws -> EditingTrace in try EditingTrace.load(contentsOf: path) }
        var samples: [Double] = []
        var baselineSamples: [Double] = []
        var baselineCorrect = true
        var correct = true
        var finalLength = 0
        var formattedSamples: [Double] = []
        var formattingOperations = 0
        if formatted, case .concurrent = trace { throw UsageError("replay --formatted needs a single-writer trace") }
        func replayPlain() throws {
            let (ms, note) = try Measure.time { () throws -> NoteText in try replayOnce(trace) }
            samples.append(ms)
            finalLength = note.scalarCount
            if note.string != trace.endContent { correct = false }
        }
        for run in 0..<runs {
            // The formatted and the plain replay take turns going first, so neither gains from
            // its place in the run (the allocator and cache state the one before leaves).
            let formattedFirst = run % 2 == 0
            if !formattedFirst { try replayPlain() }
            if formatted, case .sequential(let sequential) = trace {
                let (ms, result) = try Measure.time { () throws -> (note: NoteText, operations: Int) in try FormattedReplay.replay(sequential) }
                formattedSamples.append(ms)
                formattingOperations = result.operations
                if result.note.string != trace.endContent { correct = false }
            }
            if formattedFirst { try replayPlain() }
            let (gapMs, buffer) = Measure.time { GapBuffer.replay(trace) }
            baselineSamples.append(gapMs)
            if case .sequential = trace, buffer.string != trace.endContent { baselineCorrect = false }
        }
        let kind: String
        switch trace {
        case .sequential: kind = "sequential"
        case .concurrent(let c): kind = "concurrent, \(c.numAgents) agents"
        }
        return ReplayResult(
            path: path, name: traceName(path), kind: kind, transactions: trace.transactionCount,
            patches: trace.patchCount, parseMs: parseMs, replay: Timing(samples: samples),
            baseline: Timing(samples: baselineSamples), baselineCorrect: baselineCorrect,
            finalLength: finalLength, correct: correct, peakRSS: Measure.peakRSSBytes(),
            formatted: formatted ? Timing(samples: formattedSamples) : nil, formattingOperations: formattingOperations)
    }

    static func replayOnce(_ trace: EditingTrace) throws(TraceError) -> NoteText {
        switch trace {
        case .sequential(let s): try TraceReplay.replay(s)
        case .concurrent(let c): try TraceReplay.replay(c)
        }
    }

    /// "dir/automerge-paper.json.gz" -> "automerge-paper".
    static func traceName(_ path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        for suffix in [".gz", ".json", ".concurrent"] where name.hasSuffix(suffix) {
            name = name.dropLast(suffix.count)
        }
        return String(name)
    }
}
