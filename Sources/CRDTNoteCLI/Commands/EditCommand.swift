import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote edit`.
struct EditOptions: Equatable, Sendable {
    /// The record to edit.
    var recordPath: String
    /// The replica that authors the edits.
    var replica: ReplicaID
    /// The file with the note's new text; `-` is standard input.
    var textPath: String
    /// Where the edited record goes: the record itself by default.
    var output: OutputDestination
    /// Folder with asset files, if any.
    var assets: String?
    /// The snapshot format written (`--format`; nil: the input record's).
    var format: SnapshotFormat?
    /// The type of the `text` mirror (`--text-mirror`); nil: the record's own.
    var textMirror: NoteTextMirror?
    /// `--utf16-range`: replace exactly this UTF-16 range with the text read (nil: the whole text).
    var utf16Range: Range<Int>? = nil
}

extension EditOptions {
    /// Parsing and help description of `crdtnote edit`.
    static let spec = CommandSpec(
        name: "edit",
        summary: "Replace a note's text, recording the change as edits by one replica.",
        usage: ["edit RECORD --replica ID [--text FILE] [--utf16-range A:B] [--format N] [--text-mirror TYPE] [-o OUT] [--assets DIR]"],
        arguments: [ArgumentSpec(name: "RECORD", help: "The record JSON file to edit.")],
        options: [
            CommonOptions.replica,
            .value("--text", "FILE", "Read the new text from FILE; '-' or no --text reads standard input."),
            CommonOptions.utf16Range,
            .value("--output", short: "-o", "OUT",
                   "Write the edited record to OUT ('-': standard output) instead of replacing RECORD."),
            CommonOptions.assets, CommonOptions.format, CommonOptions.textMirror,
        ],
        discussion: [
            "The note is read (a version 1 record is upgraded), its text replaced by the new text as the",
            "smallest edits by replica ID, and the record written as version 2 with every other field kept.",
            "The plain-text mirror keeps the record's type (STRING or ASSET) unless --text-mirror is given.",
            "Without -o, RECORD is rewritten in place, atomically: it is never left half written.",
            "Asset files go beside the output (with -o -, into --assets DIR or the current directory).",
        ],
        examples: [
            ("crdtnote edit note.json --replica 42 --text note.txt", "Apply the text in note.txt to note.json"),
            ("printf 'Dear ' | crdtnote edit note.json --replica 42 --utf16-range 0:0", "Insert at the start, exactly"),
        ])

    /// Validates the parsed arguments of `crdtnote edit`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        recordPath = try parsed.singlePositional("RECORD")
        replica = try CommonOptions.requiredReplica(parsed)
        textPath = try parsed.value("--text") ?? InputReader.standardInputPath
        utf16Range = try CommonOptions.utf16Range(parsed)
        assets = try CommonOptions.assets(parsed)
        if recordPath == InputReader.standardInputPath {
            guard parsed.has("--output") else {
                throw parsed.usageError("a record read from standard input needs -o (it cannot be edited in place)")
            }
        }
        output = try CommonOptions.output(parsed, default: .file(recordPath))
        format = try CommonOptions.format(parsed)
        textMirror = try CommonOptions.textMirror(parsed)
        try CommonOptions.checkSingleStandardInput([recordPath, textPath], command: Self.spec.name)
    }

    /// Checks inputs and output before editing.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(recordPath)
        try InputReader.checkReadableFile(textPath)
        try CommonOptions.checkAssets(assets)
        try OutputWriter.checkWritable(output)
    }
}
