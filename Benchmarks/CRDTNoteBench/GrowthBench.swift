import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport

/// `growth`: how a long-edited small note's payload grows (Docs/BENCHMARKS.md, "Payload growth").
/// Runs ``GrowthWorkload`` for 60,000 line edits and measures the note every device holds once
/// all have synced, in the format an up-to-date fleet writes.
struct GrowthResult {
    var edits: Int
    /// The workload's random seed.
    var seed: UInt64
    var visibleBytes: Int
    /// The format the fleet asks for (7, as the sync engine does; 6 with `--no-repoint`).
    var fleetFormat: UInt16
    /// The payload the fleet writes for the synced note, and the same state without compaction.
    var payloadBytes: Int
    var uncompactedBytes: Int
    /// The uncompacted state in format 1, for comparison.
    var uncompactedFormatOneBytes: Int
    /// `(edits, bytes)`: the payload the fleet writes after every 10,000 edits, every device
    /// synced as at the end (measured on a copy of the run).
    var byEdits: [(edits: Int, bytes: Int)]
    /// Where each of those payloads' bytes go (the same checkpoints).
    var partsByEdits: [PayloadBreakdown]
    /// The same checkpoints when the devices keep no history (every settled chain re-pointed).
    var byEditsKeepingNoHistory: [(edits: Int, bytes: Int)]
    var converged: Bool
    /// The payload plus history field the fleet writes when its devices keep history by the
    /// default policy, the history's bytes per byte of deleted text it keeps, and the
    /// automerge-paper figures (``HistoryFigures``).
    var payloadBytesHistory: Int
    var historyOverheadRatio: Double
    var history: HistoryFigures

    /// How flat the checkpoints are.
    var flatness: GrowthFlatness { GrowthFlatness(edits: byEdits.map(\.edits), payload: byEdits.map(\.bytes), parts: partsByEdits) }

    var json: JSONValue {
        let pairs: [(String, JSONValue)] = [
            ("edits", .int(edits)),
            ("seed", .int(Int(seed))),
            ("visible_bytes", .int(visibleBytes)),
            ("fleet_format", .int(Int(fleetFormat))),
            ("payload_bytes_no_history", .int(payloadBytes)),
            ("payload_bytes_uncompacted", .int(uncompactedBytes)),
            ("payload_bytes_uncompacted_format1", .int(uncompactedFormatOneBytes)),
            ("payload_bytes_by_edits", .array(byEdits.map { .object(["edits": .int($0.edits), "bytes": .int($0.bytes)]) })),
            ("visible_bytes_by_edits", .array(zip(byEdits, partsByEdits).map { .object(["edits": .int($0.edits), "bytes": .int($1.visibleBytes)]) })),
            ("payload_parts_by_edits", .array(zip(byEdits, partsByEdits).map { .object(JSONObject([("edits", .int($0.edits))] + Self.json($1))) })),
            ("payload_bytes_by_edits_keeping_no_history", .array(byEditsKeepingNoHistory.map { .object(["edits": .int($0.edits), "bytes": .int($0.bytes)]) })),
            ("converged", .bool(converged)),
            ("payload_bytes_history", .int(payloadBytesHistory)),
            ("history_overhead_ratio", .double(historyOverheadRatio)),
        ]
        return .object(JSONObject(pairs + flatness.json + history.json))
    }

    /// One checkpoint's parts, in payload order (run-table columns as `runs_` + column name).
    static func json(_ parts: PayloadBreakdown) -> [(String, JSONValue)] {
        [("header", .int(parts.header)), ("replica_table", .int(parts.replicaTable)),
         ("clock_log", .int(parts.clockLogBytes)), ("clock_log_entries", .int(parts.clockLogEntries)),
         ("text", .int(parts.textField)), ("ledger", .int(parts.ledger)), ("ledger_vectors", .int(parts.ledgerVectors)),
         ("run_table", .int(parts.runTable)), ("visible_runs", .int(parts.visibleRuns)),
         ("tombstone_runs", .int(parts.tombstoneRuns)), ("tombstones", .int(parts.tombstones)),
         ("tombstone_runs_by_left_origins", .int(parts.tombstoneRunsByLeftOrigins)),
         ("tombstone_runs_in_chains", .int(parts.tombstoneRunsInChains)),
         ("payload_bytes_without_chains", .int(parts.total - parts.runTable + parts.runTableWithoutChains)),
         ("tombstone_runs_reparentable", .int(parts.tombstoneRunsReparentable)),
         ("payload_bytes_reparented", .int(parts.total - parts.runTable + parts.runTableReparented)),
         ("run_table_visible_only", .int(parts.visibleRunTable))]
            + parts.runColumns.map { ("runs_" + $0.name.replacing(" column", with: "").replacing(" ", with: "_").replacing("-", with: "_"), .int($0.bytes)) }
    }

    var lines: [String] {
        ["to-do list on 3 devices, \(edits) line edits (seed \(seed)), \(visibleBytes) B visible; fleet format \(fleetFormat)",
         "payload (what the fleet writes):   \(Format.bytes(payloadBytes))",
         "uncompacted:                       \(Format.bytes(uncompactedBytes)) (format 1: \(Format.bytes(uncompactedFormatOneBytes)))",
         "devices converged:                 \(converged ? "yes" : "NO")",
         "with history (default policy):     \(Format.bytes(payloadBytesHistory)), \(Format.fixed(historyOverheadRatio, 3)) B per B of deleted text kept",
         "automerge-paper, whole history:    \(Format.bytes(history.fullHistoryBytes)) (payload \(Format.bytes(history.payloadBytes)), history \(Format.bytes(history.historyBytes)))",
         "text(at:) on it, median of 100:    \(Format.ms(history.textAt.median)) (first \(Format.ms(history.textAtFirst)))\(history.textAtCorrect ? "" : " (WRONG TEXT)")"]
            + Table.render([["edits", "payload", "visible", "clock log", "ledger", "runs", "tombstone runs (ids)", "in chains", "without them",
                             "no history kept", "re-parented (runs)"]]
                + zip(zip(byEdits, partsByEdits), byEditsKeepingNoHistory).map { pair, bare in
                    let (edits, parts) = pair
                    return ["\(edits.edits)", Format.bytes(edits.bytes), Format.bytes(parts.visibleBytes),
                            "\(Format.bytes(parts.clockLogBytes)) (\(parts.clockLogEntries))", Format.bytes(parts.ledger),
                            "\(Format.bytes(parts.runTable)) (\(parts.visibleRuns + parts.tombstoneRuns))",
                            "\(parts.tombstoneRuns) (\(parts.tombstones))", "\(parts.tombstoneRunsInChains)",
                            Format.bytes(parts.total - parts.runTable + parts.runTableWithoutChains), Format.bytes(bare.bytes),
                            "\(Format.bytes(parts.total - parts.runTable + parts.runTableReparented)) (\(parts.tombstoneRunsReparentable))"]
                })
            + ["departure from the 10,000-edit entry:"]
            + Table.render([GrowthFlatness.headers, flatness.cells]).map { "  " + $0 }
    }
}

enum GrowthBench {
    /// Line edits of a run unless `--edits` says otherwise.
    static let edits = 60_000
    static let seed: UInt64 = 31

    /// Runs the workload three times in step, compacting (keeping history by the default policy,
    /// and keeping none) and not (the same random choices, so the same text throughout), and
    /// measures them in the format an up-to-date fleet writes: the newest it reads (format 7,
    /// compactions re-pointing group chains) and history payload version 2. Without
    /// `repointing`, format 6 and compactions keep the chains (a fleet with a device reading
    /// less than 7).
    static func run(edits: Int = Self.edits, seed: UInt64 = Self.seed, repointing: Bool = true) throws -> GrowthResult {
        let format: SnapshotFormat = repointing ? SnapshotFormat.newest(readableBy: NoteFormat.readerVersion) : .version6
        var compacting = GrowthWorkload(seed: seed, compacting: true, history: .default, repointing: format.allowsRepointing)
        var plain = GrowthWorkload(seed: seed, compacting: false)
        var bare = GrowthWorkload(seed: seed, compacting: true, repointing: format.allowsRepointing)
        var byEdits: [(Int, Int)] = []
        var partsByEdits: [PayloadBreakdown] = []
        var byEditsBare: [(Int, Int)] = []
        while compacting.edits < edits {
            try compacting.step()
            try plain.step()
            try bare.step()
            if compacting.edits % 10_000 == 0 {
                let parts = try checkpoint(compacting, format: format)
                byEdits.append((compacting.edits, parts.total))
                partsByEdits.append(parts)
                var bareSynced = bare
                try bareSynced.syncEveryDevice()
                byEditsBare.append((bare.edits, bareSynced.server.encodedSnapshot(format: format).count))
            }
        }
        try compacting.syncEveryDevice()
        try plain.syncEveryDevice()
        let note = compacting.server
        let uncompacted = plain.server
        try bare.syncEveryDevice()
        guard note.string == uncompacted.string, bare.server.string == note.string else {
            throw UsageError("growth: the compacting runs' text differs from the plain run's")
        }
        let texts = Set(compacting.devices.map(\.string) + [note.string])
        let withHistory = try HistoryBench.historyBytes(note, history: .version2)
        let kept = try NoteRecord(recordName: "n", note: note, mirror: .off).read(as: ReplicaID(rawValue: 9)).note.keptDeletedTextBytes()
        return GrowthResult(
            edits: compacting.edits, seed: seed, visibleBytes: note.utf8.count, fleetFormat: format.rawValue,
            payloadBytes: note.encodedSnapshot(format: format).count,
            uncompactedBytes: uncompacted.encodedSnapshot(format: format).count,
            uncompactedFormatOneBytes: uncompacted.encodedSnapshot(format: .version1).count,
            byEdits: byEdits, partsByEdits: partsByEdits, byEditsKeepingNoHistory: byEditsBare,
            converged: texts.count == 1 && Set(bare.devices.map(\.string)) == [note.string],
            payloadBytesHistory: note.encodedSnapshot(format: format).count + withHistory.history,
            historyOverheadRatio: kept > 0 ? Double(withHistory.history) / Double(kept) : 0,
            history: try HistoryBench.run())
    }

    /// The payload the fleet writes for `workload`'s note once every device has synced, as at
    /// the end (on a copy; the run goes on unsynced), part by part.
    static func checkpoint(_ workload: GrowthWorkload, format: SnapshotFormat) throws -> PayloadBreakdown {
        var synced = workload
        try synced.syncEveryDevice()
        let bytes = synced.server.encodedSnapshot(format: format).count
        let parts = try synced.server.payloadBreakdown(format: format)
        guard parts.total == bytes else {
            throw UsageError("growth: the payload's parts add up to \(parts.total) bytes, not its \(bytes)")
        }
        return parts
    }

    /// `growth --seeds`: the compacting run alone (history by the default policy, as the
    /// payload column of ``run(edits:seed:repointing:)``) once per seed, with its checkpoints.
    static func runSeeds(edits: Int = Self.edits, seeds: [UInt64], repointing: Bool = true) throws -> GrowthSeedsResult {
        let format: SnapshotFormat = repointing ? SnapshotFormat.newest(readableBy: NoteFormat.readerVersion) : .version6
        var runs: [(UInt64, GrowthFlatness, Bool)] = []
        for seed in seeds {
            var workload = GrowthWorkload(seed: seed, compacting: true, history: .default, repointing: format.allowsRepointing)
            var checkpoints: [Int] = []
            var parts: [PayloadBreakdown] = []
            while workload.edits < edits {
                try workload.step()
                if workload.edits % 10_000 == 0 {
                    parts.append(try checkpoint(workload, format: format))
                    checkpoints.append(workload.edits)
                }
            }
            try workload.syncEveryDevice()
            let converged = Set(workload.devices.map(\.string) + [workload.server.string]).count == 1
            runs.append((seed, GrowthFlatness(edits: checkpoints, payload: parts.map(\.total), parts: parts), converged))
        }
        return GrowthSeedsResult(edits: edits, fleetFormat: format.rawValue, runs: runs)
    }
}
