import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote verify`.
struct VerifyOptions: Equatable, Sendable {
    /// The records to check, in order; at most one is `-` (standard input).
    var recordPaths: [String]
    /// Folder with asset files, if any.
    var assets: String?
}

extension VerifyOptions {
    /// Parsing and help description of `crdtnote verify`.
    static let spec = CommandSpec(
        name: "verify",
        summary: "Check that note records decode and are internally consistent.",
        usage: ["verify RECORD... [--assets DIR]"],
        arguments: [ArgumentSpec(name: "RECORD...", help: "One or more record JSON files; '-' reads standard input.")],
        options: [CommonOptions.assets],
        discussion: [
            "Every record is checked and reported: 'FILE: ok' on standard output, problems on standard error.",
            "A valid device record (CRDTNoteDevice) is reported as 'FILE: device record, not a note (...)' and passes.",
            "Exits 1 if any record fails a check, 75 if the only failures are records newer than this crdtnote.",
        ],
        examples: [("crdtnote verify records/*.json --assets records/assets", "Check a folder of records")])

    /// Validates the parsed arguments of `crdtnote verify`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard !parsed.positionals.isEmpty else { throw parsed.usageError("missing RECORD argument") }
        if parsed.positionals.contains("") { throw parsed.usageError("record paths must not be empty") }
        recordPaths = parsed.positionals
        assets = try CommonOptions.assets(parsed)
        try CommonOptions.checkSingleStandardInput(recordPaths, command: Self.spec.name)
    }

    /// Checks only the assets folder: a missing record is one of the failures verify reports.
    func checkFiles() throws(CLIError) {
        try CommonOptions.checkAssets(assets)
    }
}
