import CRDTNoteSupport
import CRDTNoteToolSupport

/// `crdtnote help [COMMAND]`: prints the general help or one command's help.
enum HelpCommand {
    /// Parsing and help description of `crdtnote help`.
    static let spec = CommandSpec(
        name: "help",
        summary: "Show help for crdtnote or for one command.",
        usage: ["help [COMMAND]"],
        arguments: [ArgumentSpec(name: "COMMAND", help: "The command to explain; omit for the overview.")],
        examples: [("crdtnote help merge", "Show the options of merge")])

    /// Parses the arguments after `help` (or after a leading `--help`).
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard case .parsed(let parsed) = try ArgumentParser.parse(arguments, for: spec) else {
            return .help(.help)
        }
        guard let name = parsed.positionals.first else { return .help(nil) }
        guard parsed.positionals.count == 1 else {
            throw parsed.usageError("unexpected argument '\(parsed.positionals[1])' (help takes one command)")
        }
        guard let command = Subcommand(rawValue: name) else {
            throw UsageError("unknown command '\(name)'")
        }
        return .help(command)
    }
}
