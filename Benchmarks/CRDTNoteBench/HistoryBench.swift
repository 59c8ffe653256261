import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport
import CRDTNoteTraces
import Foundation

/// The history figures of `crdtnote-bench growth` (Docs/BENCHMARKS.md, "History"): the
/// automerge-paper trace typed with a seeded typing model and a policy that keeps everything,
/// measured as payload plus history, and `text(at:)` at 100 random times on it.
struct HistoryFigures {
    /// Payload (in the format an up-to-date fleet writes) plus history field of automerge-paper
    /// with its whole history.
    var fullHistoryBytes: Int
    var payloadBytes: Int
    /// The history field in version 2 (what a fleet of this release writes), and in version 1.
    var historyBytes: Int
    var historyV1Bytes: Int
    /// Medians of `text(at:)` at 100 seeded random times, and whether each equals a replay cut there.
    var textAt: Timing
    /// The first of them, which also decodes and indexes the history (later ones reuse it).
    var textAtFirst: Double
    var textAtCorrect: Bool
    /// Where the payload's bytes go (``PayloadBreakdown``).
    var payloadParts: PayloadBreakdown

    var json: [(String, JSONValue)] {
        [("full_history_automerge_paper_bytes", .int(fullHistoryBytes)),
         ("automerge_paper_payload_bytes", .int(payloadBytes)),
         ("automerge_paper_history_bytes", .int(historyBytes)),
         ("automerge_paper_history_v1_bytes", .int(historyV1Bytes)),
         ("automerge_paper_payload_parts", .object(JSONObject(GrowthResult.json(payloadParts)))),
         ("text_at_ms", .double(textAt.median)),
         ("text_at_first_ms", .double(textAtFirst)),
         ("text_at_correct", .bool(textAtCorrect))]
    }
}

enum HistoryBench {
    static let seed: UInt64 = 33

    /// The payload and history field's bytes of `note`'s record (inline or asset, 0 when none),
    /// the history written in `history`.
    static func historyBytes(_ note: NoteText, history: HistoryFormat) throws -> (payload: Int, history: Int) {
        var record = NoteRecord(recordName: "n")
        try record.write(note, limits: .default, mirror: .off, format: SnapshotFormat.newest(readableBy: NoteFormat.readerVersion),
                         history: history, layout: nil)
        let payload = record.record.assetBytes(NoteSchema.Field.payloadAsset)?.count
            ?? { if case .bytes(let b)? = record.record[field: NoteSchema.Field.payload] { return b.count }; return 0 }()
        let history = record.record.assetBytes(NoteSchema.Field.historyAsset)?.count
            ?? { if case .bytes(let b)? = record.record[field: NoteSchema.Field.history] { return b.count }; return 0 }()
        return (payload, history)
    }

    static func run(tracePath: String = M1Bench.defaultTrace) throws -> HistoryFigures {
        guard case .sequential(let trace) = try EditingTrace.load(contentsOf: tracePath) else {
            throw UsageError("history: \(tracePath) is not a single-writer trace")
        }
        let start: UInt64 = 1_767_225_600_000
        let time = ManualPhysicalClock(milliseconds: start)
        var random = SplitMix64(seed: seed)
        // The typing model of the growth workload: 50–300 ms between keystrokes, and now and then
        // a pause of minutes to hours (a new session).
        var marks: [(ms: UInt64, patch: Int)] = []
        let note = try TraceReplay.replay(trace, replica: ReplicaID(rawValue: 1), clock: HybridLogicalClock(physicalClock: time.clock),
                                          undoLimit: 0, every: 1) { note, i throws(TraceError) in
            if i == 0 { note.historyRetention = HistoryRetention(window: UInt64(1) << 52, minimumBytes: Int.max) }
            time.advance(by: UInt64(50 + random.below(251)))
            if random.below(2_000) == 0 {
                // A pause: the text as it stands now is what text(at:) must give until the next
                // keystroke (insertions are placed to within a second, so only pauses are checked).
                marks.append((time.milliseconds, i))
                time.advance(by: 60_000 * UInt64(1 + random.below(240)))
            }
        }
        let sizes = try historyBytes(note, history: .version2)
        let v1 = try historyBytes(note, history: .version1)
        // text(at:) at 100 random times; a few are checked against the trace replayed up to then.
        var samples: [Double] = []
        var correct = true
        for k in 0..<100 {
            let at = start + UInt64(random.below(Int(time.milliseconds - start)))
            let (ms, _) = try Measure.time { try note.text(at: Date(timeIntervalSince1970: Double(at) / 1000)) }
            samples.append(ms)
            if k < 5, k < marks.count {
                let mark = marks[k * marks.count / 5]
                let past = try note.text(at: Date(timeIntervalSince1970: Double(mark.ms) / 1000))
                var cut: String?
                _ = try TraceReplay.replay(trace, replica: ReplicaID(rawValue: 1), clock: HybridLogicalClock(), undoLimit: 0, every: 1) { n, i throws(TraceError) in
                    if i == mark.patch { cut = n.string }
                }
                if cut != past { correct = false }
            }
        }
        return HistoryFigures(fullHistoryBytes: sizes.payload + sizes.history, payloadBytes: sizes.payload, historyBytes: sizes.history, historyV1Bytes: v1.history,
                              textAt: Timing(samples: samples), textAtFirst: samples.first ?? 0, textAtCorrect: correct,
                              payloadParts: try note.payloadBreakdown(format: SnapshotFormat.newest(readableBy: NoteFormat.readerVersion)))
    }
}
