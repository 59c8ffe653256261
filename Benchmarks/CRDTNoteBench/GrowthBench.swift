import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport

/// `growth`: how a long-edited small note's payload grows (Docs/BENCHMARKS.md, "Payload growth").
/// Runs ``GrowthWorkload`` for 60,000 line edits and measures the note every device holds once
/// all have synced, in the format an up-to-date fleet writes.
struct GrowthResult {
    var edits: Int
    var visibleBytes: Int
    /// The format an up-to-date fleet writes by default (``M1Bench/fleetDefaultFormat()``).
    var fleetFormat: UInt16
    /// The payload the fleet writes for the synced note, and the same state without compaction.
    var payloadBytes: Int
    var uncompactedBytes: Int
    /// The uncompacted state in format 1, for comparison.
    var uncompactedFormatOneBytes: Int
    /// `(edits, bytes)`: the payload the fleet writes for the union of the devices' states after
    /// every 10,000 edits.
    var byEdits: [(edits: Int, bytes: Int)]
    var converged: Bool

    var json: JSONValue {
        .object([
            "edits": .int(edits),
            "visible_bytes": .int(visibleBytes),
            "fleet_format": .int(Int(fleetFormat)),
            "payload_bytes_no_history": .int(payloadBytes),
            "payload_bytes_uncompacted": .int(uncompactedBytes),
            "payload_bytes_uncompacted_format1": .int(uncompactedFormatOneBytes),
            "payload_bytes_by_edits": .array(byEdits.map { .object(["edits": .int($0.edits), "bytes": .int($0.bytes)]) }),
            "converged": .bool(converged),
        ])
    }

    var lines: [String] {
        ["to-do list on 3 devices, \(edits) line edits, \(visibleBytes) B visible; fleet format \(fleetFormat)",
         "payload (what the fleet writes):   \(Format.bytes(payloadBytes))",
         "uncompacted:                       \(Format.bytes(uncompactedBytes)) (format 1: \(Format.bytes(uncompactedFormatOneBytes)))",
         "devices converged:                 \(converged ? "yes" : "NO")"]
            + Table.render([["edits", "payload"]] + byEdits.map { ["\($0.edits)", Format.bytes($0.bytes)] })
    }
}

enum GrowthBench {
    static let edits = 60_000
    static let seed: UInt64 = 31

    static func run() throws -> GrowthResult {
        let format = try M1Bench.fleetDefaultFormat()
        guard let snapshotFormat = SnapshotFormat(rawValue: format) else {
            throw UsageError("growth: the fleet writes format \(format), which this benchmark cannot write")
        }
        var workload = GrowthWorkload(seed: seed)
        var byEdits: [(Int, Int)] = []
        while workload.edits < edits {
            try workload.step()
            if workload.edits % 10_000 == 0 {
                var union = workload.server
                for device in workload.devices { try union.merge(device) }
                byEdits.append((workload.edits, union.encodedSnapshot(format: snapshotFormat).count))
            }
        }
        try workload.syncEveryDevice()
        let note = workload.server
        let bytes = note.encodedSnapshot(format: snapshotFormat).count
        let texts = Set(workload.devices.map(\.string) + [note.string])
        return GrowthResult(
            edits: workload.edits, visibleBytes: note.utf8.count, fleetFormat: format,
            // Nothing compacts the note yet: what the fleet writes is the uncompacted state.
            payloadBytes: bytes, uncompactedBytes: bytes,
            uncompactedFormatOneBytes: note.encodedSnapshot(format: .version1).count,
            byEdits: byEdits, converged: texts.count == 1)
    }
}
