/// A command-line mistake: printed with the usage text, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// The parsed command line: a subcommand, its positional arguments and options.
struct BenchArguments {
    var command: String
    var positionals: [String] = []
    var json = false
    var runs: Int?
    var trace: String?

    /// Options each subcommand accepts, so a stray flag is reported rather than ignored.
    static let accepted: [String: Set<String>] = [
        "replay": ["--runs", "--json"],
        "m1": ["--trace", "--runs", "--json"],
        "records": ["--trace", "--runs", "--json"],
        "scaling": ["--json", "--runs"],
        "all": ["--trace", "--runs", "--json"],
    ]

    /// Parses `arguments` (without the program name).
    init(_ arguments: [String]) throws(UsageError) {
        guard let first = arguments.first else { throw UsageError("missing subcommand") }
        command = first
        guard let allowed = Self.accepted[command] else { throw UsageError("unknown subcommand \"\(command)\"") }
        var rest = arguments.dropFirst()
        while let arg = rest.popFirst() {
            if arg.hasPrefix("--") {
                let (name, inline) = Self.split(arg)
                guard allowed.contains(name) else { throw UsageError("\(command) does not take \(name)") }
                switch name {
                case "--json":
                    guard inline == nil else { throw UsageError("--json takes no value") }
                    json = true
                case "--runs":
                    guard let value = inline ?? rest.popFirst() else { throw UsageError("--runs needs a number") }
                    guard let n = Int(value), n >= 1, n <= 1000 else {
                        throw UsageError("--runs must be a whole number from 1 to 1000, got \"\(value)\"")
                    }
                    runs = n
                case "--trace":
                    guard let value = inline ?? rest.popFirst(), !value.isEmpty else { throw UsageError("--trace needs a path") }
                    trace = value
                default:
                    throw UsageError("unknown option \(name)")
                }
            } else {
                positionals.append(arg)
            }
        }
    }

    /// `--name=value` into its two halves.
    private static func split(_ arg: String) -> (String, String?) {
        guard let eq = arg.firstIndex(of: "=") else { return (arg, nil) }
        return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
    }
}
