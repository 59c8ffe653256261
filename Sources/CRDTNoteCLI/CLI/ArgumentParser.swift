/// The result of splitting a command's arguments into options and positionals, before the
/// command gives the values their types.
struct ParsedArguments: Equatable, Sendable {
    /// The command the arguments belong to, for error hints.
    var command: String
    /// Positional arguments in order (everything after `--` included).
    var positionals: [String] = []
    /// Values of value-taking options, keyed by long name, in the order given.
    var values: [String: [String]] = [:]
    /// Flags that were present, by long name.
    var flags: Set<String> = []

    /// A usage error for this command.
    func usageError(_ message: String) -> CLIError {
        .usage(message, command: command)
    }

    /// Whether the flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Whether the option or flag `name` was given at all.
    func has(_ name: String) -> Bool { values[name] != nil || flags.contains(name) }

    /// The single, non-empty value of option `name`, or nil when it is absent.
    func value(_ name: String) throws(CLIError) -> String? {
        guard let given = values[name] else { return nil }
        guard given.count == 1 else { throw usageError("option '\(name)' given more than once") }
        guard !given[0].isEmpty else { throw usageError("option '\(name)' needs a non-empty value") }
        return given[0]
    }

    /// The value of option `name`, failing when it is absent.
    func requiredValue(_ name: String) throws(CLIError) -> String {
        guard let value = try value(name) else { throw usageError("missing required option '\(name)'") }
        return value
    }

    /// The single positional argument, named `placeholder` in errors.
    func singlePositional(_ placeholder: String) throws(CLIError) -> String {
        guard let first = positionals.first else { throw usageError("missing \(placeholder) argument") }
        guard positionals.count == 1 else {
            throw usageError("unexpected argument '\(positionals[1])' (only one \(placeholder) is taken)")
        }
        guard !first.isEmpty else { throw usageError("\(placeholder) must not be empty") }
        return first
    }
}

/// A small hand-written parser for `crdtnote` command lines.
///
/// Accepts `--opt value`, `--opt=value`, `-o value`, `-o=value`, flags, `--` to end options and
/// `-` as a positional (standard input). Errors name the option at fault. A `-h`/`--help` anywhere
/// before `--` wins over any error, so asking for help always works.
enum ArgumentParser {
    /// What a command line turned out to ask for.
    enum Outcome: Equatable, Sendable {
        /// The user asked for the command's help.
        case help
        /// Options and positionals, not yet validated by the command.
        case parsed(ParsedArguments)
    }

    /// Splits `arguments` (those after the command word) according to `spec`.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(CLIError) -> Outcome {
        var result = ParsedArguments(command: spec.name)
        var firstError: CLIError?
        var optionsEnded = false
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" { return .help }
            let (name, inlineValue) = splitInlineValue(argument)
            guard let option = spec.option(named: name) else {
                firstError = firstError ?? result.usageError("unknown option '\(name)'")
                continue
            }
            guard option.takesValue else {
                if inlineValue != nil {
                    firstError = firstError ?? result.usageError("option '\(option.name)' takes no value")
                } else {
                    result.flags.insert(option.name)
                }
                continue
            }
            if let inlineValue {
                result.values[option.name, default: []].append(inlineValue)
            } else if index < arguments.endIndex, looksLikeValue(arguments[index]) {
                result.values[option.name, default: []].append(arguments[index])
                index += 1
            } else {
                let valueName = option.valueName ?? "VALUE"
                firstError = firstError
                    ?? result.usageError("option '\(name)' needs a value (\(name) \(valueName))")
            }
        }
        if let firstError { throw firstError }
        return .parsed(result)
    }

    /// Splits `--name=value` into its parts; the value is nil without `=`.
    private static func splitInlineValue(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// Whether the next argument can be an option's value: anything but another option.
    /// `-` (standard input) and negative numbers count as values so range checks can name them.
    private static func looksLikeValue(_ argument: String) -> Bool {
        argument == "-" || !argument.hasPrefix("-") || Double(argument) != nil
    }
}
