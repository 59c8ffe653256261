import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote merge`.
struct MergeOptions: Equatable, Sendable {
    /// Which records are merged.
    enum Inputs: Equatable, Sendable {
        /// A CloudKit save conflict: the server's record, the client's, and optionally their ancestor.
        case conflict(server: String, client: String, ancestor: String?)
        /// Two or more versions of the same note, merged as equals.
        case versions([String])
    }

    /// The records to merge.
    var inputs: Inputs
    /// Folder with asset files, if any.
    var assets: String?
    /// Where the merged record goes (standard output by default).
    var output: OutputDestination
    /// The snapshot format written (`--format`; nil: the newest among the inputs).
    var format: SnapshotFormat?
    /// The type of the merged record's `text` mirror (`--text-mirror`); nil: the inputs'.
    var textMirror: NoteTextMirror?
}

extension MergeOptions {
    /// Parsing and help description of `crdtnote merge`.
    static let spec = CommandSpec(
        name: "merge",
        summary: "Merge versions of a note record into one record that keeps every edit.",
        usage: [
            "merge --server S --client C [--ancestor A] [--assets DIR] [--format N] [--text-mirror TYPE] [-o OUT]",
            "merge R1 R2 [R3 ...] [--assets DIR] [--format N] [--text-mirror TYPE] [-o OUT]",
        ],
        arguments: [ArgumentSpec(name: "R1 R2 ...", help: "Record JSON files: versions of the same note.")],
        options: [
            .value("--server", "S", "The record now on the server (the merge is built on it)."),
            .value("--client", "C", "The record the client tried to save."),
            .value("--ancestor", "A", "The record the client started from (optional)."),
            CommonOptions.assets, CommonOptions.format, CommonOptions.textMirror, CommonOptions.output,
        ],
        discussion: [
            "Give either --server and --client (a save conflict) or two or more records, not both.",
            "Plain-text (version 1) sides are upgraded with replica ids derived from the record, so every",
            "device merging the same records gets the same result. Asset files of the merged record are",
            "written beside OUT; with standard output, into --assets DIR, or else the current directory.",
            "The merged record's plain-text mirror has the type of the record it is built on (else of the",
            "other inputs; else ASSET) unless --text-mirror is given.",
        ],
        examples: [
            ("crdtnote merge --server server.json --client client.json -o merged.json",
             "Resolve a save conflict"),
            ("crdtnote merge phone.json laptop.json tablet.json > note.json", "Merge three copies of a note"),
        ])

    /// Validates the parsed arguments of `crdtnote merge`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        let server = try parsed.value("--server")
        let client = try parsed.value("--client")
        let ancestor = try parsed.value("--ancestor")
        if !parsed.positionals.isEmpty {
            if server != nil || client != nil || ancestor != nil {
                throw parsed.usageError("give records either as arguments or with --server/--client, not both")
            }
            guard parsed.positionals.count >= 2 else {
                throw parsed.usageError("merge needs at least two records, got one")
            }
            if parsed.positionals.contains("") { throw parsed.usageError("record paths must not be empty") }
            inputs = .versions(parsed.positionals)
        } else {
            switch (server, client) {
            case let (server?, client?): inputs = .conflict(server: server, client: client, ancestor: ancestor)
            case (_?, nil): throw parsed.usageError("--server requires --client")
            case (nil, _?): throw parsed.usageError("--client requires --server")
            case (nil, nil):
                throw parsed.usageError("missing records: give --server and --client, or two or more records")
            }
        }
        assets = try CommonOptions.assets(parsed)
        output = try CommonOptions.output(parsed, default: .standardOutput)
        format = try CommonOptions.format(parsed)
        textMirror = try CommonOptions.textMirror(parsed)
        try CommonOptions.checkSingleStandardInput(inputPaths, command: Self.spec.name)
    }

    /// Every record file read by the merge.
    var inputPaths: [String] {
        switch inputs {
        case let .conflict(server, client, ancestor): [server, client] + (ancestor.map { [$0] } ?? [])
        case let .versions(paths): paths
        }
    }

    /// Checks inputs and output before merging.
    func checkFiles() throws(CLIError) {
        for path in inputPaths { try InputReader.checkReadableFile(path) }
        try CommonOptions.checkAssets(assets)
        try OutputWriter.checkWritable(output)
    }
}

