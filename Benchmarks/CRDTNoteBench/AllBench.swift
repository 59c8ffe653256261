import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// `all`: every benchmark, summarized as one table.
enum AllBench {
    static let traceFiles = ["automerge-paper.json.gz", "seph-blog1.json.gz", "clownschool.concurrent.json.gz"]

    struct Result {
        var replays: [ReplayResult]
        var missingTraces: [String]
        var m1: M1Result
        var records: RecordsResult
        var scaling: ScalingResult
        var setText: SetTextResult
        var views: ViewsBench.Result

        var json: JSONValue {
            .object([
                "replay": .array(replays.map(\.json)),
                "missing_traces": .array(missingTraces.map(JSONValue.string)),
                "m1": m1.json, "records": records.json, "scaling": scaling.json,
                "settext": setText.json, "views": views.json,
                "peak_rss_bytes": .int(Measure.peakRSSBytes()),
            ])
        }

        var lines: [String] {
            var rows = [["benchmark", "median", "size / notes"]]
            for r in replays {
                rows.append(["replay \(r.name)", Format.ms(r.replay.median),
                             "\(Format.count(r.patches)) patches, \(Format.fixed(r.floorRatio, 1))× gap buffer" + (r.correct ? ", endContent ok" : ", WRONG TEXT")])
            }
            for r in replays {
                rows.append(["  gap buffer \(r.name)", Format.ms(r.baseline.median), "floor: same patches, no CRDT"])
            }
            for m in missingTraces { rows.append(["replay \(m)", "skipped", "trace not found"]) }
            func size(_ v: Int?) -> String { v.map { Format.count($0) + " B" } ?? "n/a" }
            rows.append(["M1 replay base" + (m1.syntheticBase ? " (SYNTHETIC)" : ""), Format.ms(m1.replayMs), ""])
            let one = m1.formatLabel(1), two = m1.formatLabel(2)
            rows.append(["M1 default format", "", "format \(m1.fleetDefaultFormat) (up-to-date fleet)"])
            rows.append(["M1 save S0", Format.ms(m1.saveMs), size(m1.snapshotBytes) + " (\(one))"])
            rows.append(["M1 save S0 (format 2)", Format.ms(m1.formatTwoSaveMs), size(m1.formatTwoBytes[0]) + " (\(two))"])
            rows.append(["M1 load S0 (format 2)", Format.ms(m1.formatTwoLoadMs), ""])
            rows.append(["M1 load S0 + text", Format.ms(m1.loadMs), ""])
            rows.append(["M1 SA / SB", "", size(m1.divergedBytes[0]) + " / " + size(m1.divergedBytes[1])
                         + " (\(one); \(two): " + size(m1.formatTwoBytes[1]) + " / " + size(m1.formatTwoBytes[2]) + ")"])
            rows.append(["M1 record merge", Format.ms(m1.recordMergeMs),
                         size(m1.mergedBytes) + " (\(one); \(two): " + size(m1.formatTwoBytes[3]) + "), \(Format.count(m1.mergedLength)) scalars"
                         + (m1.passed ? ", converged" : ", FAILED")])
            for c in records.cases {
                rows.append(["M1 records (\(c.layout))", Format.ms(c.total.median),
                             "JSON in/out, merge \(Format.ms(c.mergeMs))" + (c.converged ? ", converged" : ", FAILED")])
            }
            for p in scaling.points {
                rows.append(["scaling n=\(Format.count(p.noteSize)) k=\(Format.count(p.editsPerSide))", Format.ms(p.mergeMs),
                             "\(Format.fixed(p.microsecondsPerOp, 3)) µs/op" + (p.deltaBytes.map { ", delta \(Format.count($0)) B" } ?? "")])
            }
            for s in scaling.skipped {
                rows.append(["scaling n=\(Format.count(s.n)) k=\(Format.count(s.k))", "skipped", "predicted > 30 s"])
            }
            for c in setText.cases {
                rows.append(["settext \(c.name)", Format.ms(c.setText.median),
                             "\(Format.count(c.inserted)) inserted, read \(Format.ms(c.readMs))"
                                 + (!c.reached ? ", WRONG TEXT" : c.withinLimit ? "" : ", over \(Format.ms(c.limitMs))")])
            }
            for c in views.anchors {
                rows.append(["views 100 anchors, \(c.label)", Format.ms(c.resolveMs),
                             "after a 10-char merge" + (c.correct ? "" : ", WRONG OFFSETS")])
            }
            if views.replayFound {
                rows.append(["views replay undoLimit=100", Format.ms(views.withUndo.median),
                             "\(Format.fixed(views.ratio, 2))× without history" + (views.replayCorrect ? "" : ", WRONG TEXT")])
            }
            rows.append(["peak RSS (whole run)", "", Format.bytes(Measure.peakRSSBytes())])
            return Table.render(rows)
        }
    }

    static func run(tracePath: String?, runs: Int) throws -> Result {
        let m1Path = tracePath ?? M1Bench.defaultTrace
        let dir = m1Path.contains("/") ? String(m1Path[..<(m1Path.lastIndex(of: "/") ?? m1Path.endIndex)]) : "."
        var replays: [ReplayResult] = []
        var missing: [String] = []
        for file in traceFiles {
            let path = dir + "/" + file
            if FileManager.default.fileExists(atPath: path) {
                replays.append(try ReplayBench.run(path: path, runs: runs))
            } else {
                missing.append(path)
            }
        }
        let m1 = try M1Bench.run(tracePath: tracePath, runs: runs)
        let records = try RecordsBench.run(tracePath: tracePath, runs: runs)
        let scaling = try ScalingBench.run(runs: min(runs, 3))
        let setText = try SetTextBench.run(runs: runs)
        let views = try ViewsBench.run(tracePath: tracePath, runs: runs)
        return Result(replays: replays, missingTraces: missing, m1: m1, records: records, scaling: scaling, setText: setText, views: views)
    }
}
