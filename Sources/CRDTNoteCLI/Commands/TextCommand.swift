import CRDTNoteSupport
import CRDTNoteToolSupport
import Foundation

/// Validated options of `crdtnote text`.
struct TextOptions: Equatable, Sendable {
    /// The record whose text is printed; `-` is standard input.
    var recordPath: String
    /// Folder with asset files, if any.
    var assets: String?
    /// How the text is printed.
    var rendering = Rendering.plain
    /// `--at TIME`: the text as it was then (Docs/FORMAT.md §11.4).
    var at: Date?

    /// How `crdtnote text` prints the note.
    enum Rendering: Equatable, Sendable {
        /// The text exactly (the default).
        case plain
        /// `--spans`: JSON, the text in runs of equal attributes.
        case spans
        /// `--markdown`: GitHub-flavored Markdown.
        case markdown
    }
}

extension TextOptions {
    /// Parsing and help description of `crdtnote text`.
    static let spec = CommandSpec(
        name: "text",
        summary: "Print a note record's text exactly, with no newline added.",
        usage: ["text RECORD [--spans | --markdown | --at TIME] [--assets DIR]"],
        arguments: [ArgumentSpec(name: "RECORD", help: "The record JSON file; '-' reads standard input.")],
        options: [
            .flag("--spans", "Print the formatted text as JSON: [{\"text\": ..., \"attributes\": {...}}, ...]."),
            .flag("--markdown", "Print the formatted text as GitHub-flavored Markdown."),
            CommonOptions.at,
            CommonOptions.assets,
        ],
        examples: [("crdtnote text merged.json > note.txt", "Save a merged note's text"),
                   ("crdtnote text note.json --markdown", "The note with its formatting, as Markdown"),
                   ("crdtnote text note.json --at 2026-11-20T09:00:00Z", "The text as it was then, from the kept history")])

    /// Validates the parsed arguments of `crdtnote text`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        recordPath = try parsed.singlePositional("RECORD")
        assets = try CommonOptions.assets(parsed)
        if parsed.flag("--spans"), parsed.flag("--markdown") {
            throw parsed.usageError("give at most one of '--spans' and '--markdown'")
        }
        rendering = parsed.flag("--spans") ? .spans : parsed.flag("--markdown") ? .markdown : .plain
        at = try CommonOptions.at(parsed)
        if at != nil, rendering != .plain {
            throw parsed.usageError("'--at' prints the plain text: give it without '--spans' or '--markdown'")
        }
    }

    /// Checks inputs before reading.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(recordPath)
        try CommonOptions.checkAssets(assets)
    }
}
