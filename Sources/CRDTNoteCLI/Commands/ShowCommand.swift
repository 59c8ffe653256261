import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote show`.
struct ShowOptions: Equatable, Sendable {
    /// The record to describe; `-` is standard input.
    var recordPath: String
    /// Whether to print JSON instead of text.
    var json: Bool
    /// Folder with asset files, if any.
    var assets: String?
}

extension ShowOptions {
    /// Parsing and help description of `crdtnote show`.
    static let spec = CommandSpec(
        name: "show",
        summary: "Describe a note record (format version, replicas, edit counts, sizes) or a device record.",
        usage: ["show RECORD [--json] [--assets DIR]"],
        arguments: [ArgumentSpec(name: "RECORD", help: "The record JSON file; '-' reads standard input.")],
        options: [CommonOptions.json, CommonOptions.assets],
        discussion: [
            "A device record (CRDTNoteDevice: what a device reads) is shown as one: release, format it reads,",
            "name, last sync, replicas; with --json an object whose \"kind\" is \"device\".",
        ],
        examples: [("crdtnote show note.json --json", "Describe a record as JSON")])

    /// Validates the parsed arguments of `crdtnote show`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        recordPath = try parsed.singlePositional("RECORD")
        json = parsed.flag("--json")
        assets = try CommonOptions.assets(parsed)
    }

    /// Checks inputs before reading.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(recordPath)
        try CommonOptions.checkAssets(assets)
    }
}
