import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote new`.
struct NewOptions: Equatable, Sendable {
    /// The replica that authors the note's first edit.
    var replica: ReplicaID
    /// The file with the note's text; `-` is standard input.
    var textPath: String
    /// The CloudKit record name to use; nil lets crdtnote make one.
    var recordName: String?
    /// Where the new record goes (standard output by default).
    var output: OutputDestination
    /// The snapshot format written (`--format`; nil: format 1).
    var format: SnapshotFormat?
    /// The type of the `text` mirror (`--text-mirror`); nil: ASSET.
    var textMirror: NoteTextMirror?
}

extension NewOptions {
    /// CloudKit's limit on a record name, in bytes.
    static let maximumRecordNameLength = 255

    /// Parsing and help description of `crdtnote new`.
    static let spec = CommandSpec(
        name: "new",
        summary: "Create a note record from plain text.",
        usage: ["new --replica ID [--text FILE] [--name RECORDNAME] [--format N] [--text-mirror TYPE] [-o OUT]"],
        options: [
            CommonOptions.replica,
            .value("--text", "FILE", "Read the note's text from FILE; '-' or no --text reads standard input."),
            .value("--name", "RECORDNAME", "CloudKit record name (ASCII, at most 255 bytes); default: a new UUID."),
            CommonOptions.format, CommonOptions.textMirror, CommonOptions.output,
        ],
        discussion: [
            "The text is read as UTF-8, exactly (no newline added or removed). The plain-text mirror is an",
            "ASSET file (the classic note app's type) unless --text-mirror says otherwise. Asset files go",
            "beside OUT, or with standard output into the current directory.",
        ],
        examples: [
            ("crdtnote new --replica 0x1f --text todo.txt -o todo.json", "Make a record from a text file"),
            ("echo 'Buy milk' | crdtnote new --replica 7 --name shopping", "Make a record from standard input"),
        ])

    /// Validates the parsed arguments of `crdtnote new`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        if let extra = parsed.positionals.first {
            throw parsed.usageError("unexpected argument '\(extra)' (use --text FILE for the text)")
        }
        guard let replica = try parsed.replicaID("--replica") else {
            throw parsed.usageError("missing required option '--replica'")
        }
        self.replica = replica
        textPath = try parsed.value("--text") ?? InputReader.standardInputPath
        recordName = try parsed.value("--name")
        if let recordName {
            let printableASCII = recordName.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            guard printableASCII, recordName.utf8.count <= Self.maximumRecordNameLength else {
                throw parsed.usageError("option '--name' must be printable ASCII of at most 255 bytes")
            }
        }
        output = try CommonOptions.output(parsed, default: .standardOutput)
        format = try CommonOptions.format(parsed)
        textMirror = try CommonOptions.textMirror(parsed)
    }

    /// Checks input and output before creating the record.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(textPath)
        try OutputWriter.checkWritable(output)
    }
}
