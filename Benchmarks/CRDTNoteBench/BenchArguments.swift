import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport

/// The parsed command line: a subcommand, its positional arguments and options.
///
/// Split by the package's `ArgumentParser` in its long-options-only syntax, with the bench's
/// own wording of mistakes (printed with the usage text, exit status 2).
struct BenchArguments {
    var command: String
    var positionals: [String] = []
    var json = false
    var runs: Int?
    var trace: String?
    /// `scaling --sizes` / `--edits`: the points to measure (default: the whole grid);
    /// `growth --edits N`: the line edits of the run (one number, a multiple of 10,000).
    var sizes: [Int]?
    var edits: [Int]?
    /// `m1 --save DIR`: where to write the workload's snapshots.
    var save: String?
    /// `library --notes N`: how many notes the library holds.
    var notes: Int?
    /// `sync --format N`: the payload format pinned (nil: the automatic choice).
    var format: SnapshotFormat?
    /// `replay --formatted`: also replay with formatting made as it goes.
    var formatted = false
    /// `growth --no-repoint`: compactions keep group chains (format 6, what a fleet gets while a
    /// device reads less than format 7).
    var noRepoint = false
    /// `growth --seed N`: the workload's random seed (default ``GrowthBench/seed``).
    var seed: UInt64?
    /// `growth --seeds N,N,...`: one run per seed, summarized (how flat each run's checkpoints are).
    var seeds: [UInt64]?

    private static let runsOption = OptionSpec.value("--runs", "N", "timed repetitions")
    private static let traceOption = OptionSpec.value("--trace", "PATH", "the M1 base trace")
    private static let jsonOption = OptionSpec.flag("--json", "print JSON")
    private static let sizesOption = OptionSpec.value("--sizes", "N,N,...", "note sizes")
    private static let editsOption = OptionSpec.value("--edits", "K,K,...", "edits per side")
    private static let growthEditsOption = OptionSpec.value("--edits", "N", "line edits (a multiple of 10,000)")
    private static let saveOption = OptionSpec.value("--save", "DIR", "write the snapshots here")
    private static let notesOption = OptionSpec.value("--notes", "N", "notes in the library")
    private static let formattedOption = OptionSpec.flag("--formatted", "also replay with formatting made as it goes")
    private static let noRepointOption = OptionSpec.flag("--no-repoint", "compactions keep group chains (format 6)")
    private static let seedOption = OptionSpec.value("--seed", "N", "the workload's random seed")
    private static let seedsOption = OptionSpec.value("--seeds", "N,N,...", "one run per seed, summarized")
    private static let formatOption = OptionSpec.value("--format", "N", "payload format pinned (1 or 2)")

    /// Options each subcommand accepts, so a stray flag is reported rather than ignored.
    static let commands: [String: CommandSpec] = [
        "replay": spec("replay", [runsOption, jsonOption, formattedOption]),
        "m1": spec("m1", [traceOption, runsOption, jsonOption, saveOption]),
        "records": spec("records", [traceOption, runsOption, jsonOption]),
        "scaling": spec("scaling", [jsonOption, runsOption, sizesOption, editsOption]),
        "settext": spec("settext", [runsOption, jsonOption]),
        "standard": spec("standard", [traceOption, runsOption, jsonOption]),
        "views": spec("views", [traceOption, runsOption, jsonOption]),
        "all": spec("all", [traceOption, runsOption, jsonOption]),
        "library": spec("library", [notesOption, runsOption, jsonOption]),
        "sync": spec("sync", [notesOption, runsOption, jsonOption, formatOption]),
        "density": spec("density", [jsonOption]),
        "growth": spec("growth", [jsonOption, growthEditsOption, noRepointOption, seedOption, seedsOption]),
        "formatting": spec("formatting", [runsOption, jsonOption]),
    ]

    private static func spec(_ name: String, _ options: [OptionSpec]) -> CommandSpec {
        CommandSpec(name: name, summary: "", usage: [], options: options)
    }

    /// Parses `arguments` (without the program name).
    init(_ arguments: [String]) throws(UsageError) {
        guard let first = arguments.first else { throw UsageError("missing subcommand") }
        command = first
        guard let spec = Self.commands[command] else { throw UsageError("unknown subcommand \"\(command)\"") }
        let parsed: ParsedArguments
        do throws(UsageError) {
            guard case .parsed(let p) = try ArgumentParser.parse(Array(arguments.dropFirst()), for: spec, syntax: .longOptionsOnly) else {
                preconditionFailure("runBench answers -h and --help before parsing")
            }
            parsed = p
        } catch {
            switch error.kind {
            case .unknownOption(let name): throw UsageError("\(command) does not take \(name)")
            case .flagWithValue(let name): throw UsageError("\(name) takes no value")
            case .missingValue(let name, _):
                switch name {
                case Self.runsOption.name: throw UsageError("--runs needs a number")
                case Self.traceOption.name: throw UsageError("--trace needs a path")
                case Self.saveOption.name: throw UsageError("--save needs a folder")
                case Self.notesOption.name: throw UsageError("--notes needs a number")
                case Self.formatOption.name: throw UsageError("--format needs 1 or 2")
                case Self.seedOption.name: throw UsageError("--seed needs a number")
                default: throw UsageError("\(name) needs a comma-separated list of numbers")
                }
            case .invalid: throw error
            }
        }
        positionals = parsed.positionals
        json = parsed.flag("--json")
        formatted = parsed.flag("--formatted")
        noRepoint = parsed.flag("--no-repoint")
        // Every occurrence is checked; the last one counts.
        for value in parsed.values["--runs"] ?? [] {
            guard let n = Int(value), n >= 1, n <= 1000 else {
                throw UsageError("--runs must be a whole number from 1 to 1000, got \"\(value)\"")
            }
            runs = n
        }
        sizes = try Self.numbers(parsed.values["--sizes"], "--sizes", 1...16_000_000)
        edits = try Self.numbers(parsed.values["--edits"], "--edits", 1...1_000_000)
        if command == "growth", let edits {
            guard edits.count == 1, edits[0] % 10_000 == 0 else { throw UsageError("growth --edits takes one multiple of 10,000") }
        }
        for value in parsed.values["--trace"] ?? [] {
            guard !value.isEmpty else { throw UsageError("--trace needs a path") }
            trace = value
        }
        for value in parsed.values["--notes"] ?? [] {
            guard let n = Int(value), n >= 1, n <= 1_000_000 else {
                throw UsageError("--notes must be a whole number from 1 to 1,000,000, got \"\(value)\"")
            }
            notes = n
        }
        for value in parsed.values["--format"] ?? [] {
            guard let n = UInt16(value), let pinned = SnapshotFormat(rawValue: n) else {
                throw UsageError("--format must be 1 or 2, got \"\(value)\"")
            }
            format = pinned
        }
        for value in parsed.values["--seed"] ?? [] {
            guard let n = UInt64(value), n <= UInt64(Int.max) else {
                throw UsageError("--seed must be a whole number from 0 to \(Int.max), got \"\(value)\"")
            }
            seed = n
        }
        if let list = try Self.numbers(parsed.values["--seeds"], "--seeds", 0...Int.max) {
            guard seed == nil else { throw UsageError("growth takes --seed or --seeds, not both") }
            seeds = list.map { UInt64($0) }
        }
        for value in parsed.values["--save"] ?? [] {
            guard !value.isEmpty else { throw UsageError("--save needs a folder") }
            save = value
        }
    }

    /// The last occurrence of a comma-separated list option, each number within `allowed`.
    private static func numbers(_ values: [String]?, _ name: String, _ allowed: ClosedRange<Int>) throws(UsageError) -> [Int]? {
        guard let value = values?.last else { return nil }
        var out: [Int] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard let n = Int(part), allowed.contains(n) else {
                throw UsageError("\(name) takes numbers from \(allowed.lowerBound) to \(allowed.upperBound) separated by commas, got \"\(value)\"")
            }
            out.append(n)
        }
        return out
    }
}
