import CRDTNote
import CRDTNoteToolSupport

/// Validated options of `crdtnote library ACTION DIR ...`.
struct LibraryOptions: Equatable, Sendable {
    /// What to do with the library.
    enum Action: Equatable, Sendable {
        case initialize
        case list(json: Bool)
        case text(name: String)
        /// Whole new text from `textPath`, or exactly the UTF-16 range replaced by it.
        case edit(name: String, textPath: String, utf16Range: Range<Int>?)
        case append(name: String, text: String)
        /// One formatting operation on a UTF-16 range of the note, as `crdtnote style` makes it.
        case style(name: String, utf16Range: Range<Int>, change: StyleOptions.Change)
        case delete(name: String)
        case verify
        case export(outputFolder: String, format: SnapshotFormat?)
        case importRecords(paths: [String], assets: String?)
        /// Sync with the folder record store `server` (acting as the CloudKit server).
        case sync(server: String, json: Bool)
    }

    /// The library's folder.
    var folder: String
    var action: Action
}

extension LibraryOptions {
    /// Parsing and help description of `crdtnote library`.
    static let spec = CommandSpec(
        name: "library",
        summary: "Keep notes in a durable local note library (a folder), as an app does.",
        usage: [
            "library init DIR",
            "library list DIR [--json]",
            "library text DIR NAME",
            "library edit DIR NAME [--text FILE] [--utf16-range A:B]",
            "library append DIR NAME TEXT",
            "library style DIR NAME --utf16-range A:B (--add KIND | --remove KIND | --paragraph KEY=VALUE)",
            "library delete DIR NAME",
            "library verify DIR",
            "library export DIR OUTDIR [--format N]",
            "library import DIR RECORD... [--assets DIR]",
            "library sync DIR --server SERVERDIR [--json]",
        ],
        arguments: [
            ArgumentSpec(name: "DIR", help: "The library's folder."),
            ArgumentSpec(name: "NAME", help: "A note's name (its CloudKit record name)."),
        ],
        options: [
            CommonOptions.json,
            .value("--text", "FILE", "edit: read the new text from FILE; '-' or no --text reads standard input."),
            CommonOptions.utf16Range,
            .value("--add", "KIND", "style: set a mark (as 'crdtnote style --add')."),
            .value("--remove", "KIND", "style: remove a mark (as 'crdtnote style --remove')."),
            .value("--paragraph", "KEY=VALUE", "style: set a paragraph attribute (as 'crdtnote style --paragraph')."),
            CommonOptions.assets,
            CommonOptions.format,
            .value("--server", "SERVERDIR", "sync: the folder of CloudKit Web Services JSON records acting as the server (created when missing)."),
        ],
        discussion: [
            "init makes DIR a new library (DIR must be empty or missing) and a replica id of the tool's own",
            "for it. edit without --utf16-range makes the note's text the text read, as the fewest edits;",
            "edit and append create the note when it is missing; style formats an existing note, authored by",
            "the library's replica, as 'crdtnote style' formats a record. export writes every note as a CloudKit Web",
            "Services JSON record into OUTDIR (format 1, or --format's); import merges records into the notes of their names (device",
            "records, CRDTNoteDevice, are skipped with a note on standard error). verify reads every note",
            "and exits 1 when any file is damaged. Every command that changes the library exits 0 only once",
            "its change is durable. A library held by another process for more than 2 seconds exits 75.",
            "sync fetches the server folder's changes into the library and saves the",
            "library's unsaved notes and deletes there, as the app's sync engine does with CloudKit; several",
            "processes may sync different libraries with one server folder at once, and a sync killed at any",
            "moment loses nothing (the next one finishes the work). It exits 1 when a note failed (named in",
            "failedNotes), 75 when the server folder stayed busy or kept failing (try again).",
        ],
        examples: [
            ("crdtnote library init notes", "Make a library in ./notes"),
            ("crdtnote library append notes groceries ', eggs'", "Add to the end of a note"),
            ("crdtnote library list notes --json", "List every note as JSON"),
            ("crdtnote library sync notes --server server --json", "Sync with a server folder and report what changed"),
        ])

    /// Validates the parsed arguments of `crdtnote library`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        let words = parsed.positionals
        guard let verb = words.first else { throw parsed.usageError("missing action (init, list, text, edit, append, style, delete, verify, export, import, sync)") }
        guard words.count >= 2 else { throw parsed.usageError("missing DIR after '\(verb)'") }
        folder = words[1]
        let rest = Array(words.dropFirst(2))
        func exactly(_ names: [String]) throws(UsageError) -> [String] {
            guard rest.count == names.count else {
                throw parsed.usageError("'library \(verb)' takes DIR\(names.map { " " + $0 }.joined()), got \(rest.count + 1) argument(s)")
            }
            return rest
        }
        let allowed: Set<String>
        switch verb {
        case "init":
            _ = try exactly([])
            action = .initialize
            allowed = []
        case "list":
            _ = try exactly([])
            action = .list(json: parsed.flag(CommonOptions.json.name))
            allowed = [CommonOptions.json.name]
        case "text":
            action = .text(name: try exactly(["NAME"])[0])
            allowed = []
        case "edit":
            let name = try exactly(["NAME"])[0]
            action = .edit(name: name, textPath: try parsed.value("--text") ?? InputReader.standardInputPath,
                           utf16Range: try CommonOptions.utf16Range(parsed))
            allowed = ["--text", "--utf16-range"]
        case "append":
            let args = try exactly(["NAME", "TEXT"])
            action = .append(name: args[0], text: args[1])
            allowed = []
        case "style":
            let name = try exactly(["NAME"])[0]
            guard let range = try CommonOptions.utf16Range(parsed) else { throw parsed.usageError("'library style' needs --utf16-range A:B") }
            action = .style(name: name, utf16Range: range, change: try StyleOptions.change(parsed))
            allowed = Set(["--utf16-range"] + StyleOptions.changeOptions)
        case "delete":
            action = .delete(name: try exactly(["NAME"])[0])
            allowed = []
        case "verify":
            _ = try exactly([])
            action = .verify
            allowed = []
        case "export":
            action = .export(outputFolder: try exactly(["OUTDIR"])[0], format: try CommonOptions.format(parsed))
            allowed = [CommonOptions.format.name]
        case "import":
            guard !rest.isEmpty else { throw parsed.usageError("'library import' needs at least one RECORD") }
            action = .importRecords(paths: rest, assets: try CommonOptions.assets(parsed))
            allowed = [CommonOptions.assets.name]
        case "sync":
            _ = try exactly([])
            guard let server = try parsed.value("--server") else { throw parsed.usageError("'library sync' needs --server SERVERDIR") }
            action = .sync(server: server, json: parsed.flag(CommonOptions.json.name))
            allowed = ["--server", CommonOptions.json.name]
        default:
            throw parsed.usageError("unknown library action '\(verb)' (init, list, text, edit, append, style, delete, verify, export, import, sync)")
        }
        for option in [CommonOptions.json.name, "--text", "--utf16-range", CommonOptions.assets.name, "--server", CommonOptions.format.name]
            + StyleOptions.changeOptions
        where parsed.has(option) && !allowed.contains(option) {
            throw parsed.usageError("option '\(option)' does not apply to 'library \(verb)'")
        }
    }
}
