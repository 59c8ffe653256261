import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// crdtnote-bench: performance suite (see Docs/BENCHMARKS.md). Exit 0 ok, 1 wrong result or error, 2 usage.
let usage = """
    usage: crdtnote-bench <command> [options]

      replay TRACE [--runs N] [--json]   replay an editing trace (plain or gzipped JSON), check endContent
      m1 [--trace PATH] [--runs N] [--json]
                                         merge workload M1 (shared/bench/WORKLOAD.md); default trace
                                         \(M1Bench.defaultTrace)
      records [--trace PATH] [--runs N] [--json]
                                         M1 as CloudKit records: three-way RecordMerger merge,
                                         JSON (+ asset files) in and out, inline and asset layouts
      scaling [--runs N] [--json]        merge cost for note sizes 10k..4M and 100..100k edits per side
      all [--trace PATH] [--runs N] [--json]
                                         everything above, as one table

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
        switch args.command {
        case "replay":
            guard args.positionals.count == 1 else { throw UsageError("replay takes exactly one TRACE path") }
            let result = try ReplayBench.run(path: args.positionals[0], runs: runs)
            emit(args.json ? [result.json.text] : result.lines)
            return result.correct ? 0 : 1
        case "m1":
            guard args.positionals.isEmpty else { throw UsageError("m1 takes no positional arguments") }
            let result = try M1Bench.run(tracePath: args.trace, runs: runs)
            if result.syntheticBase && args.json {
                printError("crdtnote-bench: WARNING: \(result.tracePath) not found; M1 ran on a SYNTHETIC base (not comparable)")
            }
            emit(args.json ? [result.json.text] : result.lines)
            return result.passed ? 0 : 1
        case "records":
            guard args.positionals.isEmpty else { throw UsageError("records takes no positional arguments") }
            let result = try RecordsBench.run(tracePath: args.trace, runs: runs)
            if result.syntheticBase && args.json {
                printError("crdtnote-bench: WARNING: \(result.tracePath) not found; records ran on a SYNTHETIC base (not comparable)")
            }
            emit(args.json ? [result.json.text] : result.lines)
            return result.passed ? 0 : 1
        case "scaling":
            guard args.positionals.isEmpty else { throw UsageError("scaling takes no positional arguments") }
            let result = try ScalingBench.run(runs: args.runs ?? 3)
            emit(args.json ? [result.json.text] : result.lines)
            return 0
        case "all":
            guard args.positionals.isEmpty else { throw UsageError("all takes no positional arguments") }
            let result = try AllBench.run(tracePath: args.trace, runs: runs)
            emit(args.json ? [result.json.text] : result.lines)
            return result.m1.passed && result.records.passed && result.replays.allSatisfy(\.correct) ? 0 : 1
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

func emit(_ lines: [String]) {
    for line in lines { print(line) }
}

exit(runBench())
