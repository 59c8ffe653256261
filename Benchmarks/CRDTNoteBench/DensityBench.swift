import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// `density [TRACE ...]`: how densely real notes pack runs into snapshot bytes, the figures
/// behind the decoding bound of FORMAT.md §7 ("What decoding allocates"). Each sequential trace
/// is replayed and its note saved in both formats at 200 points (every 0.5% of its patches); the
/// concurrent trace and the M1 workload's four notes are saved at the end. For each payload:
/// runs per byte of the run table (everything after the run count: what the bound counts),
/// runs per payload byte, and (format 2) the columns' decoded bytes per run-table byte. The
/// payloads are read from the spec (FORMAT.md §3, §4.1, §4.5), not through the decoder.
struct DensityResult {
    struct Row {
        var source: String
        var payloads: Int
        var format: Int
        /// Maxima over the payloads.
        var runsPerTableByte: Double
        var runsPerPayloadByte: Double
        var decodedPerTableByte: Double
        /// The payload where runs per run-table byte is highest.
        var densest: String
    }

    var rows: [Row]

    var json: JSONValue {
        .object(["sources": .array(rows.map { row in
            .object([
                "source": .string(row.source), "payloads": .int(row.payloads), "format": .int(row.format),
                "max_runs_per_run_table_byte": .double(row.runsPerTableByte),
                "max_runs_per_payload_byte": .double(row.runsPerPayloadByte),
                "max_decoded_column_bytes_per_run_table_byte": .double(row.decodedPerTableByte),
                "densest": .string(row.densest),
            ])
        })])
    }

    var lines: [String] {
        Table.render([["source", "format", "payloads", "runs / run-table B", "runs / payload B", "decoded / run-table B", "densest"]]
            + rows.map { row in
                [row.source, "\(row.format)", "\(row.payloads)", Format.fixed(row.runsPerTableByte, 3), Format.fixed(row.runsPerPayloadByte, 3),
                 Format.fixed(row.decodedPerTableByte, 3), row.densest]
            })
    }
}

enum DensityBench {
    static func run(paths: [String]) throws -> DensityResult {
        var rows: [DensityResult.Row] = []
        for path in paths {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            switch try EditingTrace.load(contentsOf: path) {
            case .sequential(let trace):
                var note = try NoteText(trace.startContent, replica: ReplicaID(rawValue: 1))
                var samples: [(String, NoteText)] = []
                let patches = trace.patches
                let every = max(1, patches.count / 200)
                for (i, patch) in patches.enumerated() {
                    try note.replaceScalars(in: patch.position..<(patch.position + patch.deleteCount), with: patch.insert)
                    if (i + 1) % every == 0 || i + 1 == patches.count { samples.append(("after patch \(i + 1)", note)) }
                }
                rows += measure(name, samples)
            case .concurrent(let trace):
                rows += measure(name, [("end", try TraceReplay.replay(trace))])
            }
        }
        let m1Trace = paths.first { $0.hasSuffix("automerge-paper.json.gz") } ?? M1Bench.defaultTrace
        if FileManager.default.fileExists(atPath: m1Trace) {
            let (_, _, s0) = try M1Bench.replayAndSave(path: m1Trace, synthetic: false, runs: 1)
            let diverged = try M1Bench.diverge(s0)
            let merged = try M1Bench.recordMerge(diverged.sa, diverged.sb, replica: ReplicaID(rawValue: 2)).2
            var notes: [(String, NoteText)] = []
            for (label, saved) in [("S0", s0), ("SA", diverged.sa), ("SB", diverged.sb), ("merged", merged)] {
                notes.append((label, try Snapshots.load(saved, replica: ReplicaID(rawValue: 1))))
            }
            rows += measure("M1", notes)
        }
        return DensityResult(rows: rows)
    }

    /// One row per format over the notes of one source.
    static func measure(_ source: String, _ notes: [(String, NoteText)]) -> [DensityResult.Row] {
        [SnapshotFormat.version1, .version2].map { format in
            var row = DensityResult.Row(source: source, payloads: 0, format: Int(format.rawValue), runsPerTableByte: 0,
                                        runsPerPayloadByte: 0, decodedPerTableByte: 0, densest: "")
            for (label, note) in notes {
                let payload = note.encodedSnapshot(format: format)
                guard let shape = RunTableShape(payload) else { continue }
                row.payloads += 1
                let perTable = Double(shape.runs) / Double(max(shape.tableBytes, 1))
                if perTable > row.runsPerTableByte {
                    row.runsPerTableByte = perTable
                    row.densest = "\(label): \(shape.runs) runs, \(shape.tableBytes) B run table, \(payload.count) B payload"
                }
                row.runsPerPayloadByte = max(row.runsPerPayloadByte, Double(shape.runs) / Double(payload.count))
                row.decodedPerTableByte = max(row.decodedPerTableByte, Double(shape.decodedColumnBytes) / Double(max(shape.tableBytes, 1)))
            }
            return row
        }
    }
}

/// A snapshot payload's run table as FORMAT.md lays it out: the run count, the bytes after it,
/// and the columns' decoded sizes (format 1: the column bytes themselves).
struct RunTableShape {
    var runs: Int
    var tableBytes: Int
    var decodedColumnBytes: Int

    init?(_ payload: [UInt8]) {
        var p = 18
        func varuint() -> Int? {
            var value = 0
            var shift = 0
            while p < payload.count, shift < 63 {
                let b = payload[p]
                p += 1
                value |= Int(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
            return nil
        }
        guard payload.count > 18, let replicas = varuint() else { return nil }
        for _ in 0..<replicas {
            p += 8
            guard varuint() != nil, varuint() != nil, let entries = varuint() else { return nil }
            for _ in 0..<(2 * entries) { guard varuint() != nil else { return nil } }
        }
        guard let textBytes = varuint() else { return nil }
        p += textBytes
        guard let runs = varuint() else { return nil }
        self.runs = runs
        tableBytes = payload.count - p
        let minimumReader = Int(payload[6]) | Int(payload[7]) << 8
        decodedColumnBytes = 0
        if minimumReader < 2 {
            for _ in 0..<6 {
                guard let n = varuint() else { return nil }
                decodedColumnBytes += n
                p += n
            }
        } else {
            for _ in 0..<7 {
                guard p < payload.count else { return nil }
                let mode = payload[p]
                p += 1
                guard let n = varuint() else { return nil }
                decodedColumnBytes += n
                if mode == 0 {
                    p += n
                } else {
                    guard p < payload.count else { return nil }
                    let symbols = Int(payload[p]) + 1
                    p += 1
                    for _ in 0..<symbols {
                        p += 1
                        guard varuint() != nil else { return nil }
                    }
                    guard let m = varuint() else { return nil }
                    p += m
                }
            }
        }
        guard p == payload.count else { return nil }
    }
}
