import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote replay`.
struct ReplayOptions: Equatable, Sendable {
    /// The most runs allowed, so a typo cannot keep the tool busy for days.
    static let maximumRuns = 1_000_000

    /// The editing trace to replay; `-` is standard input.
    var tracePath: String
    /// Whether to print JSON instead of text.
    var json: Bool
    /// How many times to replay (for timing).
    var runs: Int
}

extension ReplayOptions {
    /// Parsing and help description of `crdtnote replay`.
    static let spec = CommandSpec(
        name: "replay",
        summary: "Replay an editing trace and check the final text it must produce.",
        usage: ["replay TRACE [--json] [--runs N]"],
        arguments: [ArgumentSpec(name: "TRACE", help: "The trace file; '-' reads standard input.")],
        options: [
            CommonOptions.json,
            .value("--runs", "N", "Replay N times and report timings (1 to 1000000, default 1)."),
        ],
        discussion: [
            "Traces are plain or gzipped JSON, sequential or concurrent (see ../shared/traces/README.md).",
            "Exits 1 if the replayed text differs from the trace's expected text.",
        ],
        examples: [("crdtnote replay ../shared/traces/seph-blog1.json.gz --runs 5", "Replay a trace five times")])

    /// Validates the parsed arguments of `crdtnote replay`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        tracePath = try parsed.singlePositional("TRACE")
        json = parsed.flag("--json")
        runs = try parsed.integer("--runs", in: 1...Self.maximumRuns) ?? 1
    }

    /// Checks the trace before reading.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(tracePath)
    }
}
