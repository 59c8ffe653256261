import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote text`.
struct TextOptions: Equatable, Sendable {
    /// The record whose text is printed; `-` is standard input.
    var recordPath: String
    /// Folder with asset files, if any.
    var assets: String?
}

extension TextOptions {
    /// Parsing and help description of `crdtnote text`.
    static let spec = CommandSpec(
        name: "text",
        summary: "Print a note record's text exactly, with no newline added.",
        usage: ["text RECORD [--assets DIR]"],
        arguments: [ArgumentSpec(name: "RECORD", help: "The record JSON file; '-' reads standard input.")],
        options: [CommonOptions.assets],
        examples: [("crdtnote text merged.json > note.txt", "Save a merged note's text")])

    /// Validates the parsed arguments of `crdtnote text`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        recordPath = try parsed.singlePositional("RECORD")
        assets = try CommonOptions.assets(parsed)
    }

    /// Checks inputs before reading.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(recordPath)
        try CommonOptions.checkAssets(assets)
    }
}
