/// One option a command accepts, used both to parse and to print help, so the two cannot drift.
package struct OptionSpec: Sendable {
    /// The long name with its dashes, e.g. `--server`; parsed values are keyed by it.
    package var name: String
    /// A one-letter alias with its dash, e.g. `-o`.
    package var shortName: String?
    /// The placeholder shown for the value, e.g. `FILE`; nil for a flag that takes no value.
    package var valueName: String?
    /// What the option does, for `--help`.
    package var help: String

    /// Creates an option that takes a value.
    package static func value(_ name: String, short: String? = nil, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: short, valueName: valueName, help: help)
    }

    /// Creates an option that takes no value.
    package static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: nil, valueName: nil, help: help)
    }

    /// Whether the option needs a value.
    package var takesValue: Bool { valueName != nil }
}

/// A positional argument of a command, for `--help`.
package struct ArgumentSpec: Sendable {
    /// The placeholder, e.g. `RECORD`.
    package var name: String
    /// What the argument is.
    package var help: String

    /// Creates an argument description.
    package init(name: String, help: String) {
        self.name = name
        self.help = help
    }
}

/// Everything a tool knows about one of its commands: how to parse it and how to explain it.
package struct CommandSpec: Sendable {
    /// The command word, e.g. `merge`.
    package var name: String
    /// One line saying what the command does.
    package var summary: String
    /// The usage lines, without the leading program name.
    package var usage: [String]
    /// The positional arguments.
    package var arguments: [ArgumentSpec]
    /// The options; `-h`/`--help` is added to every command by the parser.
    package var options: [OptionSpec]
    /// Extra paragraphs for `--help` (rules between options, defaults).
    package var discussion: [String]
    /// Example command lines, each with a short comment.
    package var examples: [(command: String, comment: String)]

    /// Creates a command description.
    package init(
        name: String, summary: String, usage: [String], arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
        discussion: [String] = [], examples: [(command: String, comment: String)] = []
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
        self.examples = examples
    }

    /// The option named `name` (long or short form), if the command has it.
    package func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.shortName == name }
    }
}
