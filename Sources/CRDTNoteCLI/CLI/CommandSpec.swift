/// One option a command accepts, used both to parse and to print help, so the two cannot drift.
struct OptionSpec: Sendable {
    /// The long name with its dashes, e.g. `--server`; parsed values are keyed by it.
    var name: String
    /// A one-letter alias with its dash, e.g. `-o`.
    var shortName: String?
    /// The placeholder shown for the value, e.g. `FILE`; nil for a flag that takes no value.
    var valueName: String?
    /// What the option does, for `--help`.
    var help: String

    /// Creates an option that takes a value.
    static func value(_ name: String, short: String? = nil, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: short, valueName: valueName, help: help)
    }

    /// Creates an option that takes no value.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: nil, valueName: nil, help: help)
    }

    /// Whether the option needs a value.
    var takesValue: Bool { valueName != nil }
}

/// A positional argument of a command, for `--help`.
struct ArgumentSpec: Sendable {
    /// The placeholder, e.g. `RECORD`.
    var name: String
    /// What the argument is.
    var help: String
}

/// Everything `crdtnote` knows about one command: how to parse it and how to explain it.
struct CommandSpec: Sendable {
    /// The command word, e.g. `merge`.
    var name: String
    /// One line saying what the command does.
    var summary: String
    /// The usage lines, without the leading `crdtnote `.
    var usage: [String]
    /// The positional arguments.
    var arguments: [ArgumentSpec] = []
    /// The options; `-h`/`--help` is added to every command by the parser.
    var options: [OptionSpec] = []
    /// Extra paragraphs for `--help` (rules between options, defaults).
    var discussion: [String] = []
    /// Example command lines, each with a short comment.
    var examples: [(command: String, comment: String)] = []

    /// The option named `name` (long or short form), if the command has it.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.shortName == name }
    }
}
