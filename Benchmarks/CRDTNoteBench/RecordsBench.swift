import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// One layout of the `records` benchmark: the three records' JSON files (and asset files) in,
/// the merged record's JSON (and asset files) out.
struct RecordsCase {
    var layout: String
    var inputBytes: [Int]
    var assetFields: [String]
    var total: Timing
    var readMs: Double
    var mergeMs: Double
    var writeMs: Double
    var outputBytes: Int
    var outputAssetBytes: Int
    var mergedLength: Int
    var converged: Bool

    var json: JSONValue {
        .object([
            "layout": .string(layout), "input_json_bytes": .array(inputBytes.map(JSONValue.int)),
            "asset_fields": .array(assetFields.map(JSONValue.string)),
            "record_merge_ms": .double(total.median), "record_merge_min_ms": .double(total.min),
            "record_merge_max_ms": .double(total.max), "read_ms": .double(readMs),
            "merge_ms": .double(mergeMs), "write_ms": .double(writeMs),
            "output_json_bytes": .int(outputBytes), "output_asset_bytes": .int(outputAssetBytes),
            "merged_len": .int(mergedLength), "converged": .bool(converged),
        ])
    }
}

/// `records`: the end-to-end three-way record merge of M1, as an app or the CLI runs it on a
/// `serverRecordChanged` conflict: read ancestor, client and server JSON (+ asset files),
/// `RecordMerger.merge`, write the merged record's JSON (+ new asset files).
struct RecordsResult {
    var syntheticBase: Bool
    var tracePath: String
    var runs: Int
    var cases: [RecordsCase]
    var peakRSS: Int

    var passed: Bool { cases.allSatisfy { $0.converged && $0.mergedLength == M1Result.expectedMergedLength } }

    var json: JSONValue {
        .object([
            "workload": .string("M1 records"), "trace": .string(tracePath), "synthetic_base": .bool(syntheticBase),
            "runs": .int(runs), "cases": .array(cases.map(\.json)), "peak_rss_bytes": .int(peakRSS),
        ])
    }

    var lines: [String] {
        var out: [String] = []
        if syntheticBase {
            out.append("*** SYNTHETIC BASE: \(tracePath) not found; results are NOT comparable with other libraries ***")
        }
        out.append("records: M1 three-way record merge, JSON files in -> RecordMerger -> JSON file out (\(runs) runs, medians)")
        var rows = [["layout", "total", "min", "read", "merge", "write", "in JSON (anc/cli/srv)", "out JSON + assets", "ok"]]
        for c in cases {
            rows.append([c.layout, Format.ms(c.total.median), Format.ms(c.total.min), Format.ms(c.readMs), Format.ms(c.mergeMs),
                         Format.ms(c.writeMs), c.inputBytes.map(Format.count).joined(separator: " / "),
                         "\(Format.count(c.outputBytes)) + \(Format.count(c.outputAssetBytes))",
                         c.converged && c.mergedLength == M1Result.expectedMergedLength ? "yes" : "NO"])
        }
        out += Table.render(rows)
        for c in cases where !c.assetFields.isEmpty {
            out.append("\(c.layout): asset fields \(c.assetFields.joined(separator: ", "))")
        }
        out.append("peak RSS \(Format.bytes(peakRSS))")
        return out
    }
}

enum RecordsBench {
    /// Inline (the standard limits keep M1's payloads inline) and all-assets layouts.
    static let layouts: [(String, NoteLimits)] = [
        ("inline", .default),
        ("assets", NoteLimits(maxInlinePayload: 1024, maxInlineText: 1024)),
    ]

    static func run(tracePath: String?, runs: Int) throws -> RecordsResult {
        let (path, synthetic, base) = try M1Bench.buildBase(tracePath: tracePath)
        var a = base.forked(as: ReplicaID(rawValue: 2)), b = base.forked(as: ReplicaID(rawValue: 3))
        try RandomEdits.apply(RandomEdits.generate(seed: 1, startLength: M1Result.baseLength, count: M1Result.editsPerSide), to: &a)
        try RandomEdits.apply(RandomEdits.generate(seed: 2, startLength: M1Result.baseLength, count: M1Result.editsPerSide), to: &b)
        var cases: [RecordsCase] = []
        for (layout, limits) in layouts {
            cases.append(try measure(layout: layout, limits: limits, base: base, a: a, b: b, runs: runs))
        }
        return RecordsResult(syntheticBase: synthetic, tracePath: path, runs: runs, cases: cases, peakRSS: Measure.peakRSSBytes())
    }

    static func measure(layout: String, limits: NoteLimits, base: NoteText, a: NoteText, b: NoteText, runs: Int) throws -> RecordsCase {
        let dir = try BenchFiles.temporaryDirectory("records-\(layout)")
        defer { BenchFiles.remove(dir) }
        var ancestor = try NoteRecord(recordName: "M1", note: base, limits: limits)
        ancestor.record.recordChangeTag = "tag-1"
        var server = try ancestor.writing(b, limits: limits)
        server.record.recordChangeTag = "tag-2"
        let client = try ancestor.writing(a, limits: limits)
        var inputSizes: [Int] = []
        for (name, record) in [("ancestor", ancestor), ("client", client), ("server", server)] {
            let saved = try record.savingAssets(to: AssetLocator(jsonDirectory: dir), all: true)
            let bytes = saved.record.jsonBytes(pretty: false)
            try BenchFiles.write(bytes, to: dir + "/\(name).json")
            inputSizes.append(bytes.count)
        }
        let assetFields = [NoteSchema.Field.payloadAsset, NoteSchema.Field.text].filter { name in
            if case .asset? = client.record[field: name] { return true }
            return false
        }
        let merger = RecordMerger(limits: limits)
        var totals: [Double] = [], reads: [Double] = [], merges: [Double] = [], writes: [Double] = []
        var outputBytes = 0, outputAssetBytes = 0
        var merged: NoteText?
        for run in 0..<runs {
            let outDir = try BenchFiles.temporaryDirectory("records-out-\(layout)-\(run)")
            defer { BenchFiles.remove(outDir) }
            let clock = ContinuousClock()
            let start = clock.now
            let (readMs, inputs) = try Measure.time { () throws -> [NoteRecord] in
                try ["ancestor", "client", "server"].map { name throws -> NoteRecord in
                    let record = try CloudRecord.record(fromJSON: try BenchFiles.read(dir + "/\(name).json"))
                    return try NoteRecord(record, loadingAssetsFrom: AssetLocator(jsonDirectory: dir))
                }
            }
            let (mergeMs, result) = try Measure.time { () throws -> RecordMergeResult in
                try merger.merge(ancestor: inputs[0], client: inputs[1], server: inputs[2])
            }
            let (writeMs, written) = try Measure.time { () throws -> (Int, Int) in
                let saved = try result.record.savingAssets(to: AssetLocator(jsonDirectory: outDir))
                let bytes = saved.record.jsonBytes(pretty: false)
                try BenchFiles.write(bytes, to: outDir + "/merged.json")
                return (bytes.count, result.record.assetsToSave.values.reduce(0) { $0 + $1.count })
            }
            totals.append(Measure.milliseconds(clock.now - start))
            reads.append(readMs); merges.append(mergeMs); writes.append(writeMs)
            (outputBytes, outputAssetBytes) = written
            merged = result.note
        }
        // The other side's view of the same conflict must produce the same text.
        let swapped = try merger.merge(ancestor: ancestor, client: server, server: client)
        return RecordsCase(
            layout: layout, inputBytes: inputSizes, assetFields: assetFields, total: Timing(samples: totals),
            readMs: Timing(samples: reads).median, mergeMs: Timing(samples: merges).median,
            writeMs: Timing(samples: writes).median, outputBytes: outputBytes, outputAssetBytes: outputAssetBytes,
            mergedLength: merged?.scalarCount ?? 0, converged: merged?.string == swapped.note.string)
    }
}
