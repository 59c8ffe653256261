import CRDTNote
import CRDTNoteTraces
import CRDTNoteSupport
import CRDTNoteToolSupport
import Foundation

/// `standard`: crdt-benchmarks' text workloads (B1.1–B1.6, B2.1–B2.4, B4, B4×100), measured as that
/// suite measures them (see StandardWorkloads and Docs/BENCHMARKS.md), final texts checked.
struct StandardRow {
    var id: String
    var title: String
    var time: Timing
    /// The edits alone (B1, B2: without producing, sending and applying updates).
    var editMs: Double?
    /// B1: bytes of all per-call updates / number of calls; B2: (update 1 + update 2) / 2.
    var avgUpdateBytes: Int?
    var updates: Int?
    var docBytes: Int
    var encode: Timing
    var parse: Timing
    var finalLength: Int
    var correct: Bool
    /// B4, B4x100: median CPU time (user + system) of the timed part.
    var cpuMs: Double? = nil

    var json: JSONValue {
        func optionalInt(_ v: Int?) -> JSONValue { v.map(JSONValue.int) ?? .null }
        return .object([
            "id": .string(id), "title": .string(title),
            "time_ms": .double(time.median), "time_min_ms": .double(time.min), "time_max_ms": .double(time.max),
            "edit_ms": editMs.map(JSONValue.double) ?? .null,
            "avg_update_bytes": optionalInt(avgUpdateBytes), "updates": optionalInt(updates),
            "doc_bytes": .int(docBytes), "encode_ms": .double(encode.median), "parse_ms": .double(parse.median),
            "final_len": .int(finalLength), "correct": .bool(correct),
            "cpu_ms": cpuMs.map(JSONValue.double) ?? .null,
        ])
    }
}

struct StandardResult {
    var tracePath: String
    var traceFound: Bool
    var runs: Int
    var b4x100Runs: Int
    var rows: [StandardRow]
    var b4x100PeakRSS: Int?
    var peakRSS: Int

    var passed: Bool { traceFound && rows.allSatisfy(\.correct) }

    static let generatorNote =
        "random positions and text from crdtnote's SplitMix64 (fresh seed 42 per workload), not lib0's PRNG"

    var json: JSONValue {
        .object([
            "benchmark": .string("standard"), "suite": .string("dmonad/crdt-benchmarks B1, B2, B4"),
            "n": .int(StandardWorkloads.n), "generator": .string(Self.generatorNote),
            "trace": .string(tracePath), "trace_found": .bool(traceFound),
            "runs": .int(runs), "b4x100_runs": .int(b4x100Runs),
            "workloads": .array(rows.map(\.json)),
            "b4x100_peak_rss_bytes": b4x100PeakRSS.map(JSONValue.int) ?? .null,
            "peak_rss_bytes": .int(peakRSS),
        ])
    }

    var lines: [String] {
        var out = ["standard workloads (crdt-benchmarks B1/B2/B4), N = \(StandardWorkloads.n), medians of \(runs) runs"
                   + (b4x100Runs != runs ? " (B4x100: \(b4x100Runs))" : ""),
                   Self.generatorNote]
        if !traceFound { out.append("*** \(tracePath) not found: B4 and B4x100 skipped ***") }
        var table = [["workload", "time", "edits only", "avg update", "doc size", "encode", "parse", "final len", "check"]]
        for r in rows {
            table.append([r.id + " " + r.title, Format.ms(r.time.median), r.editMs.map(Format.ms) ?? "",
                          r.avgUpdateBytes.map { "\(Format.count($0)) B" } ?? "", Format.count(r.docBytes) + " B",
                          Format.ms(r.encode.median), Format.ms(r.parse.median), Format.count(r.finalLength),
                          r.correct ? "ok" : "WRONG"])
        }
        out += Table.render(table)
        for r in rows { if let c = r.cpuMs { out.append("\(r.id) CPU time (user + system)  \(Format.ms(c))") } }
        if let b4x100PeakRSS { out.append("peak RSS after B4x100  \(Format.bytes(b4x100PeakRSS))") }
        out.append("peak RSS  \(Format.bytes(peakRSS))")
        return out
    }
}

enum StandardBench {
    static func run(tracePath: String?, runs: Int) throws -> StandardResult {
        let path = tracePath ?? M1Bench.defaultTrace
        var rows: [StandardRow] = []
        for w in StandardWorkloads.single() { rows.append(try single(w, runs: runs)) }
        for w in StandardWorkloads.pairs() { rows.append(try pair(w, runs: runs)) }
        let found = FileManager.default.fileExists(atPath: path)
        var peakAfterB4x100: Int?
        let b4x100Runs = min(runs, 3)
        if found {
            let trace = try M1Bench.loadTrace(path)
            rows.append(try trace4(trace, times: 1, id: "B4", title: "Apply real-world editing dataset", runs: runs))
            rows.append(try trace4(trace, times: 100, id: "B4x100", title: "Apply real-world editing dataset 100 times",
                                   runs: b4x100Runs))
            peakAfterB4x100 = Measure.peakRSSBytes()
        }
        return StandardResult(tracePath: path, traceFound: found, runs: runs, b4x100Runs: b4x100Runs, rows: rows,
                              b4x100PeakRSS: peakAfterB4x100, peakRSS: Measure.peakRSSBytes())
    }

    static func apply(_ e: WorkloadEdit, to note: inout NoteText) throws {
        if e.deleteCount > 0 {
            try note.deleteScalars(in: e.position..<e.position + e.deleteCount)
        } else {
            try note.insert(e.text, atScalarOffset: e.position)
        }
    }

    /// Encode time, size and parse time (decode + read the whole text) of `note`'s snapshot.
    static func snapshot(_ note: NoteText, runs: Int, expected: String)
        throws -> (bytes: [UInt8], encode: Timing, parse: Timing, correct: Bool)
    {
        var encodes: [Double] = [], parses: [Double] = []
        var bytes: [UInt8] = []
        var correct = true
        for _ in 0..<runs {
            let (ms, b) = Measure.time { note.encodedSnapshot() }
            encodes.append(ms)
            bytes = b
        }
        for _ in 0..<runs {
            let (ms, text) = try Measure.time { () throws -> String in
                try NoteText(snapshot: bytes, replica: ReplicaID(rawValue: 9)).string
            }
            parses.append(ms)
            if text != expected { correct = false }
        }
        return (bytes, Timing(samples: encodes), Timing(samples: parses), correct)
    }

    /// B1 as b1.js times it: user 1 makes every edit, each call's update (`changes(since:)` of the
    /// version before the call, encoded) is kept; user 2 decodes and applies them all; both texts read.
    static func single(_ w: StandardWorkloads.Single, runs: Int) throws -> StandardRow {
        var times: [Double] = [], edits: [Double] = []
        var updateBytes = 0, updateCount = 0
        var doc1 = NoteText(replica: ReplicaID(rawValue: 1))
        var correct = true
        for _ in 0..<runs {
            let (ms, result) = try Measure.time { () throws -> (NoteText, Int, Int, Bool) in
                var a = NoteText(replica: ReplicaID(rawValue: 1))
                var b = NoteText(replica: ReplicaID(rawValue: 2))
                var updates: [[UInt8]] = []
                updates.reserveCapacity(w.steps.count)
                for step in w.steps {
                    for e in step {
                        let before = a.version
                        try apply(e, to: &a)
                        updates.append(a.changes(since: before).encoded())
                    }
                }
                for u in updates { try b.apply(try NoteChanges(encoded: u)) }
                let ok = a.string == w.expected && b.string == w.expected
                return (a, updates.reduce(0) { $0 + $1.count }, updates.count, ok)
            }
            times.append(ms)
            doc1 = result.0
            updateBytes = result.1
            updateCount = result.2
            if !result.3 { correct = false }
            let (editMs, _) = try Measure.time { () throws -> Int in
                var a = NoteText(replica: ReplicaID(rawValue: 1))
                for step in w.steps { for e in step { try apply(e, to: &a) } }
                return a.scalarCount
            }
            edits.append(editMs)
        }
        let snap = try snapshot(doc1, runs: runs, expected: w.expected)
        return StandardRow(
            id: w.id, title: w.title, time: Timing(samples: times), editMs: Timing(samples: edits).median,
            avgUpdateBytes: Int((Double(updateBytes) / Double(w.steps.count)).rounded()), updates: updateCount,
            docBytes: snap.bytes.count, encode: snap.encode, parse: snap.parse,
            finalLength: doc1.scalarCount, correct: correct && snap.correct)
    }

    /// B2: both users start from the same 100 characters, edit concurrently (each user's edits one
    /// transaction), then exchange one update each way (`changes(since:)` the start, encoded).
    static func pair(_ w: StandardWorkloads.Pair, runs: Int) throws -> StandardRow {
        var start = NoteText(replica: ReplicaID(rawValue: 1))
        try start.insert(w.initial, atScalarOffset: 0)
        var times: [Double] = [], edits: [Double] = []
        var avgUpdate = 0
        var doc1 = start
        var merged = ""
        var correct = true
        for _ in 0..<runs {
            var a = start
            var b = start.forked(as: ReplicaID(rawValue: 2))
            let baseVersion = start.version
            let (ms, result) = try Measure.time { () throws -> (Int, String, String, Bool) in
                for e in w.edits1 { try apply(e, to: &a) }
                for e in w.edits2 { try apply(e, to: &b) }
                let localOK = a.string == w.expected1 && b.string == w.expected2
                let u1 = a.changes(since: baseVersion).encoded()
                let u2 = b.changes(since: baseVersion).encoded()
                try b.apply(try NoteChanges(encoded: u1))
                try a.apply(try NoteChanges(encoded: u2))
                return (u1.count + u2.count, a.string, b.string, localOK)
            }
            times.append(ms)
            avgUpdate = Int((Double(result.0) / 2).rounded())
            merged = result.1
            if !(result.3 && result.1 == result.2 && a.scalarCount == w.expectedMergedLength) { correct = false }
            doc1 = a
            var c = start, d = start.forked(as: ReplicaID(rawValue: 2))
            let (editMs, _) = try Measure.time { () throws -> Int in
                for e in w.edits1 { try apply(e, to: &c) }
                for e in w.edits2 { try apply(e, to: &d) }
                return c.scalarCount + d.scalarCount
            }
            edits.append(editMs)
        }
        let snap = try snapshot(doc1, runs: runs, expected: merged)
        return StandardRow(
            id: w.id, title: w.title, time: Timing(samples: times), editMs: Timing(samples: edits).median,
            avgUpdateBytes: avgUpdate, updates: 2, docBytes: snap.bytes.count, encode: snap.encode, parse: snap.parse,
            finalLength: doc1.scalarCount, correct: correct && snap.correct)
    }

    /// B4 / B4×100: the trace's patches as local edits of one note, `times` times in a row (each
    /// replay types into the front of the growing note, so the text ends as `times` × endContent).
    static func trace4(_ trace: SequentialTrace, times: Int, id: String, title: String, runs: Int) throws -> StandardRow {
        let patches = trace.patches
        let expected = String(repeating: trace.endContent, count: times)
        var samples: [Double] = []
        var note = NoteText(replica: ReplicaID(rawValue: 1))
        var checkedInTime = true
        var cpu: [Double] = []
        for _ in 0..<runs {
            note = NoteText(replica: ReplicaID(rawValue: 1))  // free the previous run's note first
            let cpuStart = Measure.cpuMilliseconds()
            let (ms, result) = try Measure.time { () throws -> (NoteText, Bool) in
                var doc = NoteText(replica: ReplicaID(rawValue: 1))
                for _ in 0..<times {
                    for p in patches {
                        try doc.replaceScalars(in: p.position..<p.position + p.deleteCount, with: p.insert)
                    }
                }
                // b4.js checks the text inside B4's timer, not inside B4x100's.
                return (doc, times == 1 ? doc.string == expected : true)
            }
            cpu.append(Measure.cpuMilliseconds() - cpuStart)
            samples.append(ms)
            note = result.0
            if !result.1 { checkedInTime = false }
        }
        let textOK = checkedInTime && note.string == expected
        let snap = try snapshot(note, runs: runs, expected: expected)
        return StandardRow(
            id: id, title: title, time: Timing(samples: samples), editMs: nil, avgUpdateBytes: nil, updates: nil,
            docBytes: snap.bytes.count, encode: snap.encode, parse: snap.parse,
            finalLength: note.scalarCount, correct: textOK && snap.correct, cpuMs: Timing(samples: cpu).median)
    }
}
