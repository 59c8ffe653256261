import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport
import Foundation

/// One (note size, edits per side) point of the scaling series.
struct ScalingPoint {
    var noteSize: Int
    var editsPerSide: Int
    var buildMs: Double
    var editMs: Double
    var mergeMs: Double
    var mergeRuns: Int
    var deltaBytes: Int?
    var mergedBytes: Int?
    var mergedLength: Int
    var runCount: Int

    /// Merge time per merged operation, in microseconds.
    var microsecondsPerOp: Double { mergeMs * 1000 / Double(editsPerSide) }
    /// Merge time / (k log2 n), in nanoseconds: flat if merging costs O(k log n).
    var nsPerOpLog: Double { mergeMs * 1e6 / (Double(editsPerSide) * log2(Double(noteSize))) }

    var json: JSONValue {
        .object([
            "n": .int(noteSize), "k": .int(editsPerSide), "build_ms": .double(buildMs),
            "edit_ms": .double(editMs), "merge_ms": .double(mergeMs), "merge_runs": .int(mergeRuns),
            "us_per_op": .double(microsecondsPerOp), "ns_per_op_log2n": .double(nsPerOpLog),
            "delta_bytes": deltaBytes.map(JSONValue.int) ?? .null,
            "merged_bytes": mergedBytes.map(JSONValue.int) ?? .null,
            "merged_len": .int(mergedLength), "runs_in_structure": .int(runCount),
        ])
    }
}

/// `scaling`: merge cost as note size n and concurrent edits per side k grow.
struct ScalingResult {
    var points: [ScalingPoint]
    var skipped: [(n: Int, k: Int, predictedMs: Double)]
    var fit: (perScalarNs: Double, perOpLogNs: Double)?
    var peakRSS: Int

    var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("points", .array(points.map(\.json))),
            ("skipped", .array(skipped.map { .object(["n": .int($0.n), "k": .int($0.k), "predicted_ms": .double($0.predictedMs)]) })),
        ]
        if let fit {
            pairs.append(("fit", .object([
                "model": .string("merge_ms = a*n + b*k*log2(n)"),
                "a_ns_per_scalar": .double(fit.perScalarNs), "b_ns_per_op_log2n": .double(fit.perOpLogNs),
            ])))
        }
        pairs.append(("peak_rss_bytes", .int(peakRSS)))
        return .object(JSONObject(pairs))
    }

    var lines: [String] {
        var out = ["scaling: base of n random scalars (typed in 100-scalar chunks), forked; k random edits E(seed, n, k) per side (Docs/BENCHMARKS.md, M1); merge = B into A (in place)"]
        let header = ["n", "k", "edit ms/side", "merge ms", "µs/op", "ns/(k·log2 n)", "delta B", "merged B"]
        var rows = [header]
        for p in points {
            rows.append([Format.count(p.noteSize), Format.count(p.editsPerSide), Format.fixed(p.editMs, 2),
                         Format.fixed(p.mergeMs, 3), Format.fixed(p.microsecondsPerOp, 3), Format.fixed(p.nsPerOpLog, 2),
                         p.deltaBytes.map(Format.count) ?? "n/a", p.mergedBytes.map(Format.count) ?? "n/a"])
        }
        out += Table.render(rows)
        for s in skipped {
            out.append("skipped n=\(Format.count(s.n)) k=\(Format.count(s.k)): predicted \(Format.fixed(s.predictedMs / 1000, 0)) s > \(Format.fixed(ScalingBench.pointBudgetMs / 1000, 0)) s budget")
        }
        if let fit {
            out.append("fit: merge_ms ≈ \(Format.fixed(fit.perScalarNs, 3)) ns × n + \(Format.fixed(fit.perOpLogNs, 2)) ns × k·log2(n)")
        }
        out.append("peak RSS \(Format.bytes(peakRSS))")
        return out
    }
}

enum ScalingBench {
    static let sizes = [10_000, 100_000, 1_000_000, 4_000_000]
    static let edits = [100, 1_000, 10_000, 100_000]
    /// A point predicted to take longer than this is skipped.
    static let pointBudgetMs = 30_000.0

    static func run(runs: Int, sizes: [Int] = ScalingBench.sizes, edits: [Int] = ScalingBench.edits) throws -> ScalingResult {
        var points: [ScalingPoint] = []
        var skipped: [(n: Int, k: Int, predictedMs: Double)] = []
        for n in sizes {
            let (buildMs, base) = try Measure.time { () throws -> NoteText in try buildBase(size: n, seed: UInt64(n)) }
            var lastCost: (k: Int, ms: Double)?
            for k in edits {
                if let last = lastCost {
                    let predicted = last.ms * Double(k) / Double(last.k)
                    if predicted > pointBudgetMs {
                        skipped.append((n, k, predicted))
                        continue
                    }
                }
                let (ms, point) = try Measure.time { () throws -> ScalingPoint in
                    try measure(base: base, n: n, k: k, runs: runs, buildMs: buildMs)
                }
                points.append(point)
                lastCost = (k, ms)
            }
        }
        return ScalingResult(points: points, skipped: skipped, fit: fit(points), peakRSS: Measure.peakRSSBytes())
    }

    /// Measures one point: fork A and B, apply k edits each, time merging B into a unique A.
    /// Untimed merges before the timed ones of a point measured more than once.
    static let warmUpRuns = 2

    static func measure(base: NoteText, n: Int, k: Int, runs: Int, buildMs: Double) throws -> ScalingPoint {
        let editsA = RandomEdits.generate(seed: 1, startLength: n, count: k)
        let editsB = RandomEdits.generate(seed: 2, startLength: n, count: k)
        var b = base.forked(as: ReplicaID(rawValue: 3))
        try RandomEdits.apply(editsB, to: &b)
        var samples: [Double] = []
        var editSamples: [Double] = []
        var merged = base
        var versionA = base.version
        // Large points get one run: rebuilding A for each run costs far more than the merge.
        let pointRuns = k * max(1, n / 100_000) >= 100_000 ? 1 : runs
        // Points timed several times start with `warmUpRuns` untimed ones: a process's first merges
        // pay one-time costs (Swift runtime type lookups, first touches of fresh memory) that an
        // app merging into a long-lived note pays once (Docs/BENCHMARKS.md, "Round 4").
        let warmUp = pointRuns > 1 ? warmUpRuns : 0
        for run in 0..<(warmUp + pointRuns) {
            var a = base.forked(as: ReplicaID(rawValue: 2))
            let (editMs, _) = try Measure.time { () throws in try RandomEdits.apply(editsA, to: &a) }
            versionA = a.version
            let (ms, _) = try Measure.time { () throws in try a.merge(b) }
            if run < warmUp { continue }
            editSamples.append(editMs)
            samples.append(ms)
            merged = a
        }
        let delta = Snapshots.deltaByteCount(b, since: versionA)
        let saved = Snapshots.save(merged)
        return ScalingPoint(noteSize: n, editsPerSide: k, buildMs: buildMs, editMs: Timing(samples: editSamples).median,
                            mergeMs: Timing(samples: samples).median, mergeRuns: pointRuns, deltaBytes: delta,
                            mergedBytes: Snapshots.byteCount(saved), mergedLength: merged.scalarCount,
                            runCount: merged.runCount)
    }

    /// A note of exactly `size` scalars: random 100-scalar chunks inserted at random places.
    static func buildBase(size: Int, seed: UInt64) throws -> NoteText {
        var rng = SplitMix64(seed: seed)
        var note = NoteText(replica: ReplicaID(rawValue: 1))
        let chunk = 100
        while note.scalarCount < size {
            let length = min(chunk, size - note.scalarCount)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(RandomEdits.alphabet[Int(rng.next() % 27)]) }
            let pos = Int(rng.next() % UInt64(note.scalarCount + 1))
            try note.insert(String(text), atScalarOffset: pos)
        }
        return note
    }

    /// Least squares for merge_ms = a·n + b·k·log2(n), weighting each point by 1/merge_ms so small
    /// points count as much as large ones (relative error). Coefficients in nanoseconds.
    static func fit(_ points: [ScalingPoint]) -> (Double, Double)? {
        guard points.count >= 3 else { return nil }
        var sxx = 0.0, sxy = 0.0, syy = 0.0, sxt = 0.0, syt = 0.0
        for p in points where p.mergeMs > 0 {
            let w = 1 / p.mergeMs
            let x = Double(p.noteSize) * w, y = Double(p.editsPerSide) * log2(Double(p.noteSize)) * w, t = p.mergeMs * w
            sxx += x * x; sxy += x * y; syy += y * y; sxt += x * t; syt += y * t
        }
        let det = sxx * syy - sxy * sxy
        guard det != 0 else { return nil }
        let a = (sxt * syy - syt * sxy) / det
        let b = (syt * sxx - sxt * sxy) / det
        return (a * 1e6, b * 1e6)
    }
}
