/// A mistake in a command line, found while parsing or validating it. Each tool prints it its
/// own way: `crdtnote` as an error line with a help hint (exit 64), `crdtnote-bench` with its
/// usage text (exit 2).
package struct UsageError: Error, Equatable, Sendable {
    /// What the parser found wrong, for a tool that words those mistakes its own way.
    package enum Kind: Equatable, Sendable {
        /// `spelled` is not an option of the command.
        case unknownOption(spelled: String)
        /// The flag `option` was given a value (`--flag=value`).
        case flagWithValue(option: String)
        /// The option `option` (written `spelled`) has no value after it.
        case missingValue(option: String, spelled: String)
        /// Anything else: a command's own checks of what was parsed.
        case invalid
    }

    /// What went wrong, in words a user can act on.
    package var message: String
    /// The command whose usage was broken; nil for the tool as a whole.
    package var command: String?
    /// The parser's finding, or `.invalid`.
    package var kind: Kind

    /// Creates a usage error.
    package init(_ message: String, command: String? = nil, kind: Kind = .invalid) {
        self.message = message
        self.command = command
        self.kind = kind
    }
}

/// The result of splitting a command's arguments into options and positionals, before the
/// command gives the values their types.
package struct ParsedArguments: Equatable, Sendable {
    /// The command the arguments belong to, for error hints.
    package var command: String
    /// Positional arguments in order (everything after `--` included).
    package var positionals: [String]
    /// Values of value-taking options, keyed by long name, in the order given.
    package var values: [String: [String]]
    /// Flags that were present, by long name.
    package var flags: Set<String>

    /// Creates parsed arguments of `command`.
    package init(command: String, positionals: [String] = [], values: [String: [String]] = [:], flags: Set<String> = []) {
        self.command = command
        self.positionals = positionals
        self.values = values
        self.flags = flags
    }

    /// A usage error for this command.
    package func usageError(_ message: String) -> UsageError {
        UsageError(message, command: command)
    }

    /// Whether the flag `name` was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Whether the option or flag `name` was given at all.
    package func has(_ name: String) -> Bool { values[name] != nil || flags.contains(name) }

    /// The single, non-empty value of option `name`, or nil when it is absent.
    package func value(_ name: String) throws(UsageError) -> String? {
        guard let given = values[name] else { return nil }
        guard given.count == 1 else { throw usageError("option '\(name)' given more than once") }
        guard !given[0].isEmpty else { throw usageError("option '\(name)' needs a non-empty value") }
        return given[0]
    }

    /// The single positional argument, named `placeholder` in errors.
    package func singlePositional(_ placeholder: String) throws(UsageError) -> String {
        guard let first = positionals.first else { throw usageError("missing \(placeholder) argument") }
        guard positionals.count == 1 else {
            throw usageError("unexpected argument '\(positionals[1])' (only one \(placeholder) is taken)")
        }
        guard !first.isEmpty else { throw usageError("\(placeholder) must not be empty") }
        return first
    }
}

/// A small hand-written command-line parser, shared by `crdtnote` and `crdtnote-bench`.
///
/// Accepts `--opt value`, `--opt=value`, `-o value`, `-o=value`, flags, `--` to end options and
/// `-` as a positional (standard input). Errors name the option at fault. A `-h`/`--help` anywhere
/// before `--` wins over any error, so asking for help always works.
package enum ArgumentParser {
    /// What a command line turned out to ask for.
    package enum Outcome: Equatable, Sendable {
        /// The user asked for the command's help.
        case help
        /// Options and positionals, not yet validated by the command.
        case parsed(ParsedArguments)
    }

    /// Which words are options.
    package enum Syntax: Sendable {
        /// `--name` and `-n` are options and `--` ends them; an option's value is the next
        /// word unless that word is itself an option (`crdtnote`).
        case standard
        /// Only `--name` words are options (`-x` is a positional, `--` an unknown option), and
        /// an option's value is the next word, whatever it is (`crdtnote-bench`).
        case longOptionsOnly
    }

    /// Splits `arguments` (those after the command word) according to `spec`.
    package static func parse(
        _ arguments: [String], for spec: CommandSpec, syntax: Syntax = .standard
    ) throws(UsageError) -> Outcome {
        var result = ParsedArguments(command: spec.name)
        var firstError: UsageError?
        var optionsEnded = false
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if !optionsEnded && (argument == "--help" || argument == "-h") { return .help }
            if optionsEnded || !isOption(argument, syntax) {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" && syntax == .standard {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = splitInlineValue(argument)
            guard let option = spec.option(named: name) else {
                firstError = firstError
                    ?? UsageError("unknown option '\(name)'", command: spec.name, kind: .unknownOption(spelled: name))
                continue
            }
            guard option.takesValue else {
                if inlineValue != nil {
                    firstError = firstError
                        ?? UsageError("option '\(option.name)' takes no value", command: spec.name,
                                      kind: .flagWithValue(option: option.name))
                } else {
                    result.flags.insert(option.name)
                }
                continue
            }
            if let inlineValue {
                result.values[option.name, default: []].append(inlineValue)
            } else if index < arguments.endIndex, syntax == .longOptionsOnly || looksLikeValue(arguments[index]) {
                result.values[option.name, default: []].append(arguments[index])
                index += 1
            } else {
                let valueName = option.valueName ?? "VALUE"
                firstError = firstError
                    ?? UsageError("option '\(name)' needs a value (\(name) \(valueName))", command: spec.name,
                                  kind: .missingValue(option: option.name, spelled: name))
            }
        }
        if let firstError { throw firstError }
        return .parsed(result)
    }

    /// Whether `argument`, met before any `--`, is an option word in `syntax`.
    private static func isOption(_ argument: String, _ syntax: Syntax) -> Bool {
        switch syntax {
        case .standard: argument != "-" && argument.hasPrefix("-")
        case .longOptionsOnly: argument.hasPrefix("--")
        }
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
