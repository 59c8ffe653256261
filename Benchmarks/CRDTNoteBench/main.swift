import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport
import Foundation

/// crdtnote-bench: performance suite (see Docs/BENCHMARKS.md). Exit 0 ok, 1 wrong result or error, 2 usage.
let usage = """
    usage: crdtnote-bench <command> [options]

      replay TRACE [--runs N] [--json] [--formatted]
                                         replay an editing trace (plain or gzipped JSON), check endContent;
                                         --formatted: also replay it making marks and paragraph attributes
      m1 [--trace PATH] [--runs N] [--json] [--save DIR]
                                         merge workload M1 (Docs/BENCHMARKS.md); default trace
                                         \(M1Bench.defaultTrace); --save writes S0, SA, SB and the
                                         merged note to DIR (existing folder) in formats 1 and 2
      records [--trace PATH] [--runs N] [--json]
                                         M1 as CloudKit records: three-way RecordMerger merge,
                                         JSON (+ asset files) in and out, inline and asset layouts
      scaling [--runs N] [--sizes N,...] [--edits K,...] [--json]
                                         merge cost for note sizes 10k..4M and 100..100k edits per side
                                         (2 untimed warm-up merges per point timed more than once)
      settext [--runs N] [--json]        whole-text updates (NoteText.setText): one character in 1 MB and
                                         10 MB notes, 1,000 word edits, a 100-line paste, a rewrite
      standard [--trace PATH] [--runs N] [--json]
                                         crdt-benchmarks' text workloads B1.1-B1.6, B2.1-B2.4, B4,
                                         B4x100 (N = 6,000; SplitMix64 positions); checks final texts
      views [--trace PATH] [--runs N] [--json]
                                         live text views: 100 anchors resolved after merging a 10-character
                                         edit into 100 KB / 1 MB / 4 MB notes; automerge-paper replay with
                                         undoLimit = 100 against without
      sync [--notes N] [--runs N] [--format N] [--json]
                                         the sync half of library alone: one change sent, one fetched, the
                                         memory a sync adds, a new device's first download (in-memory server)
      library [--notes N] [--runs N] [--json]
                                         a durable note library of N (default 10,000) notes of ~3 KB:
                                         open + list, memory, edit + flush, bytes per edit, disk / text,
                                         first read of a note, compaction
      all [--trace PATH] [--runs N] [--json]
                                         everything above except standard, as one table
      density [TRACE ...] [--json]       runs and decoded column bytes per snapshot byte of real notes
                                         (default: the three shared traces, and M1's notes), both formats
      growth [--edits N] [--json] [--no-repoint] [--seed N | --seeds N,N,...]
                                         payload growth: a to-do list edited on 3 devices for N line edits
                                         (default 60,000); the synced note's payload, and after every 10,000 edits;
                                         --no-repoint: compactions keep group chains (format 6);
                                         --seed: the workload's random seed (default 31);
                                         --seeds: one run per seed, each checkpoint's departure from
                                         the 10,000-edit entry (payload, and where it comes from)
      formatting [--runs N] [--json]     formatted notes of 100 KB and 1 MB (a mark per 200 characters):
                                         reading every character's attributes, merging 100 operations

    --runs N: timed repetitions (default 5; medians are reported). Build with -c release.
    """

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func runBench() -> Int32 {
    let argv = Array(CommandLine.arguments.dropFirst())
    if argv.isEmpty || argv.contains("--help") || argv.contains("-h") || argv.first == "help" {
        print(usage)
        return argv.isEmpty ? 2 : 0
    }
    let args: BenchArguments
    do {
        args = try BenchArguments(argv)
    } catch {
        printError("crdtnote-bench: \(error.message)\n\n\(usage)")
        return 2
    }
    let runs = args.runs ?? 5
    #if DEBUG
    if !args.json { print("warning: debug build; use `swift run -c release crdtnote-bench ...` for real figures") }
    #endif
    do {
        if args.command == "replay" {
            guard args.positionals.count == 1 else { throw UsageError("replay takes exactly one TRACE path") }
        } else if !args.positionals.isEmpty && args.command != "density" {
            throw UsageError("\(args.command) takes no positional arguments")
        }
        switch args.command {
        case "replay":
            let result = try ReplayBench.run(path: args.positionals[0], runs: runs, formatted: args.formatted)
            return emit(result.json, result.lines, asJSON: args.json, passed: result.correct)
        case "m1":
            let result = try M1Bench.run(tracePath: args.trace, runs: runs, saveDirectory: args.save)
            warnIfSynthetic(result.syntheticBase, tracePath: result.tracePath, workload: "M1", asJSON: args.json)
            return emit(result.json, result.lines, asJSON: args.json, passed: result.passed)
        case "records":
            let result = try RecordsBench.run(tracePath: args.trace, runs: runs)
            warnIfSynthetic(result.syntheticBase, tracePath: result.tracePath, workload: "records", asJSON: args.json)
            return emit(result.json, result.lines, asJSON: args.json, passed: result.passed)
        case "scaling":
            let result = try ScalingBench.run(runs: args.runs ?? 3, sizes: args.sizes ?? ScalingBench.sizes,
                                              edits: args.edits ?? ScalingBench.edits)
            return emit(result.json, result.lines, asJSON: args.json, passed: true)
        case "settext":
            let result = try SetTextBench.run(runs: runs)
            return emit(result.json, result.lines, asJSON: args.json, passed: result.passed)
        case "standard":
            let result = try StandardBench.run(tracePath: args.trace, runs: runs)
            return emit(result.json, result.lines, asJSON: args.json, passed: result.passed)
        case "views":
            let result = try ViewsBench.run(tracePath: args.trace, runs: runs)
            return emit(result.json, result.lines, asJSON: args.json, passed: result.passed)
        case "library":
            let result = try LibraryBench.run(notes: args.notes ?? 10_000, runs: runs)
            let sync = try LibrarySyncBench.run(notes: args.notes ?? 10_000, runs: runs, format: args.format)
            guard case .object(var json) = result.json, case .object(let syncJSON) = sync.json else {
                return emit(result.json, result.lines + sync.lines, asJSON: args.json, passed: true)
            }
            for (key, value) in syncJSON { json[key] = value }
            return emit(.object(json), result.lines + sync.lines, asJSON: args.json, passed: true)
        case "sync":
            let sync = try LibrarySyncBench.run(notes: args.notes ?? 10_000, runs: runs, format: args.format)
            return emit(sync.json, sync.lines, asJSON: args.json, passed: true)
        case "density":
            let traces = args.positionals.isEmpty
                ? ["automerge-paper", "seph-blog1", "clownschool.concurrent"].map { "../shared/traces/\($0).json.gz" }
                : args.positionals
            let result = try DensityBench.run(paths: traces)
            return emit(result.json, result.lines, asJSON: args.json, passed: true)
        case "formatting":
            let result = try FormattingBench.run(runs: runs)
            return emit(result.json, result.lines, asJSON: args.json, passed: result.correct)
        case "growth":
            if let seeds = args.seeds {
                let result = try GrowthBench.runSeeds(edits: args.edits?.first ?? GrowthBench.edits, seeds: seeds, repointing: !args.noRepoint)
                return emit(result.json, result.lines, asJSON: args.json, passed: result.converged)
            }
            let result = try GrowthBench.run(edits: args.edits?.first ?? GrowthBench.edits, seed: args.seed ?? GrowthBench.seed, repointing: !args.noRepoint)
            return emit(result.json, result.lines, asJSON: args.json, passed: result.converged)
        case "all":
            let result = try AllBench.run(tracePath: args.trace, runs: runs)
            let passed = result.m1.passed && result.records.passed && result.replays.allSatisfy(\.correct) && result.setText.passed && result.views.passed
            return emit(result.json, result.lines, asJSON: args.json, passed: passed)
        default:
            throw UsageError("unknown subcommand \"\(args.command)\"")
        }
    } catch let error as UsageError {
        printError("crdtnote-bench: \(error.message)\n\n\(usage)")
        return 2
    } catch {
        printError("crdtnote-bench: \(error)")
        return 1
    }
}

/// Prints a result as JSON or as its lines; the exit status says whether it passed its checks.
func emit(_ json: JSONValue, _ lines: [String], asJSON: Bool, passed: Bool) -> Int32 {
    for line in asJSON ? [json.text] : lines { print(line) }
    return passed ? 0 : 1
}

/// In JSON mode the text warning is not printed, so say on standard error that the base was synthetic.
func warnIfSynthetic(_ synthetic: Bool, tracePath: String, workload: String, asJSON: Bool) {
    if synthetic && asJSON {
        printError("crdtnote-bench: WARNING: \(tracePath) not found; \(workload) ran on a SYNTHETIC base (not comparable)")
    }
}

exit(LibraryOpenProbe.runIfChild() ? 0 : runBench())
