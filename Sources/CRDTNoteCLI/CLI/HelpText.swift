import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport

/// Renders the `--help` pages from the command specs, so help always matches what is parsed.
enum HelpText {
    /// Width of the name column in option and command lists.
    private static let column = 26

    /// The overview printed by `crdtnote --help` and `crdtnote help`.
    static func general() -> String {
        var lines = [
            "crdtnote \(CRDTNoteRelease.version): merge CloudKit note records without losing edits.",
            "",
            "USAGE: crdtnote COMMAND [OPTIONS]",
            "       crdtnote help [COMMAND]",
            "       crdtnote --version",
            "",
            "COMMANDS:",
        ]
        for command in Subcommand.allCases {
            lines.append(row("  " + command.rawValue, command.spec.summary))
        }
        lines += [
            "",
            "OPTIONS:",
            row("  -h, --help", "Show help (also after any command: crdtnote merge --help)."),
            row("  --version", "Print the version of crdtnote."),
            "",
            "Options take their value as '--opt value' or '--opt=value'; '--' ends options;",
            "'-' as a file name means standard input (or standard output for -o).",
            "",
            "EXIT STATUS:",
        ]
        for (status, meaning) in ExitStatus.documented {
            lines.append("  " + pad(String(status.rawValue), to: 5) + meaning)
        }
        lines += ["", "See 'crdtnote help COMMAND' for a command's options and examples."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help page of one command.
    static func command(_ spec: CommandSpec) -> String {
        var lines = ["crdtnote \(spec.name): \(spec.summary)", ""]
        for (index, usage) in spec.usage.enumerated() {
            lines.append((index == 0 ? "USAGE: " : "       ") + "crdtnote " + usage)
        }
        if !spec.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for argument in spec.arguments {
                lines.append(row("  " + argument.name, argument.help))
            }
        }
        lines += ["", "OPTIONS:"]
        for option in spec.options {
            var name = option.shortName.map { "  \($0), " } ?? "  "
            name += option.name
            if let valueName = option.valueName { name += " " + valueName }
            lines.append(row(name, option.help))
        }
        lines.append(row("  -h, --help", "Show this help."))
        if !spec.discussion.isEmpty {
            lines.append("")
            lines += spec.discussion
        }
        if !spec.examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            for example in spec.examples {
                lines.append("  # " + example.comment)
                lines.append("  " + example.command)
            }
        }
        lines += ["", "Exit status: see 'crdtnote --help'."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A two-column line; a name too long for its column puts the text on the next line.
    private static func row(_ name: String, _ text: String) -> String {
        if name.count + 2 > column {
            return name + "\n" + String(repeating: " ", count: column) + text
        }
        return pad(name, to: column) + text
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
