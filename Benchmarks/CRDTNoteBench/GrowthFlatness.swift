import CRDTNote
import CRDTNoteSupport

/// How flat a `growth` run's checkpoints are (Docs/BENCHMARKS.md, "Payload growth", "How flat"):
/// each series' departure from its 10,000-edit entry, for the payload and for three measures that
/// say where a departure comes from: the re-parenting estimate (``PayloadBreakdown``), the payload
/// with every tombstone gone (a bound no compaction that keeps the visible text and its runs can go
/// below), and the text field alone (what the list holds at that moment).
struct GrowthFlatness {
    /// Each series' bytes per checkpoint, and the checkpoints' edits.
    var payload: [Int]
    var reparented: [Int]
    var withoutTombstones: [Int]
    var text: [Int]
    var edits: [Int]

    init(edits: [Int], payload: [Int], parts: [PayloadBreakdown]) {
        self.edits = edits
        self.payload = payload
        reparented = parts.map { $0.total - $0.runTable + $0.runTableReparented }
        withoutTombstones = parts.map { $0.total - $0.runTable + $0.visibleRunTable }
        text = parts.map(\.textField)
    }

    /// The lowest and highest entry as a fraction of the first, minus 1 (0, 0 for fewer than two).
    static func departure(_ series: [Int]) -> (low: Double, high: Double) {
        guard let first = series.first, first > 0, series.count > 1 else { return (0, 0) }
        let ratios = series.map { Double($0) / Double(first) - 1 }
        return (ratios.min() ?? 0, ratios.max() ?? 0)
    }

    /// Whether every entry is within `tolerance` (a fraction) of the first: the rule
    /// with 0.1.
    static func within(_ series: [Int], _ tolerance: Double) -> Bool {
        let (low, high) = departure(series)
        return low >= -tolerance && high <= tolerance
    }

    /// The least-squares slope of `series` against `edits`, in bytes per 10,000 edits: a trend
    /// the departures alone do not show (0 for fewer than two entries).
    static func trend(_ series: [Int], edits: [Int]) -> Double {
        guard series.count > 1, series.count == edits.count else { return 0 }
        let n = Double(series.count)
        let x = edits.map { Double($0) / 10_000 }
        let y = series.map(Double.init)
        let mx = x.reduce(0, +) / n
        let my = y.reduce(0, +) / n
        let sxy = zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        let sxx = x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        return sxx > 0 ? sxy / sxx : 0
    }

    /// A departure as `−18% … +19%`.
    static func percent(_ d: (low: Double, high: Double)) -> String {
        func one(_ v: Double) -> String {
            let p = Int((v * 100).rounded())
            return p > 0 ? "+\(p)%" : p < 0 ? "−\(-p)%" : "0%"
        }
        return "\(one(d.low)) … \(one(d.high))"
    }

    var json: [(String, JSONValue)] {
        func range(_ d: (low: Double, high: Double)) -> JSONValue { .array([.double(d.low), .double(d.high)]) }
        return [
            ("payload_departure", range(Self.departure(payload))),
            ("payload_within_10_percent", .bool(Self.within(payload, 0.1))),
            ("payload_trend_bytes_per_10000_edits", .double(Self.trend(payload, edits: edits))),
            ("payload_bytes_by_edits_reparented", .array(reparented.map { .int($0) })),
            ("reparented_departure", range(Self.departure(reparented))),
            ("payload_bytes_by_edits_without_tombstones", .array(withoutTombstones.map { .int($0) })),
            ("without_tombstones_departure", range(Self.departure(withoutTombstones))),
            ("text_field_bytes_by_edits", .array(text.map { .int($0) })),
            ("text_field_departure", range(Self.departure(text))),
        ]
    }

    /// One row of the per-seed table (``GrowthSeedsResult``) or the lines under a run's table.
    var cells: [String] {
        [Format.bytes(payload.min() ?? 0) + "–" + Format.bytes(payload.max() ?? 0),
         Self.percent(Self.departure(payload)), Format.fixed(Self.trend(payload, edits: edits), 1),
         Self.percent(Self.departure(reparented)), Self.percent(Self.departure(withoutTombstones)),
         Self.percent(Self.departure(text))]
    }

    static let headers = ["payload", "vs 10,000", "trend (B/10k)", "re-parented", "no tombstones", "text field"]
}

/// `growth --seeds`: the checkpoints of one run per seed, and how flat each is.
struct GrowthSeedsResult {
    var edits: Int
    var fleetFormat: UInt16
    var runs: [(seed: UInt64, flatness: GrowthFlatness, converged: Bool)]

    var converged: Bool { runs.allSatisfy(\.converged) }

    var json: JSONValue {
        .object(JSONObject([
            ("edits", .int(edits)),
            ("fleet_format", .int(Int(fleetFormat))),
            ("seeds", .array(runs.map { run in
                .object(JSONObject([("seed", .int(Int(run.seed))), ("converged", .bool(run.converged)),
                                    ("payload_bytes_by_edits", .array(run.flatness.payload.map { .int($0) }))]
                                   + run.flatness.json))
            })),
            ("seeds_within_10_percent", .int(runs.filter { GrowthFlatness.within($0.flatness.payload, 0.1) }.count)),
            ("seeds_without_tombstones_within_10_percent",
             .int(runs.filter { GrowthFlatness.within($0.flatness.withoutTombstones, 0.1) }.count)),
        ]))
    }

    var lines: [String] {
        let within = runs.filter { GrowthFlatness.within($0.flatness.payload, 0.1) }.count
        let bound = runs.filter { GrowthFlatness.within($0.flatness.withoutTombstones, 0.1) }.count
        let reparented = runs.filter { GrowthFlatness.within($0.flatness.reparented, 0.1) }.count
        return ["to-do list on 3 devices, \(edits) line edits per seed; fleet format \(fleetFormat); departures from the 10,000-edit entry"]
            + Table.render([["seed"] + GrowthFlatness.headers + ["converged"]]
                + runs.map { ["\($0.seed)"] + $0.flatness.cells + [$0.converged ? "yes" : "NO"] })
            + ["within 10% of the 10,000-edit entry: payload \(within) of \(runs.count) seeds; re-parented \(reparented); "
                + "every tombstone gone \(bound)"]
    }
}
