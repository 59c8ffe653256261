import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport
import Foundation

/// Validated options of `crdtnote log`.
struct LogOptions: Equatable, Sendable {
    var recordPath: String
    var assets: String?
    var json = false
    /// `--pause SECONDS`: a longer pause starts a new session.
    var pause: TimeInterval = 300
}

/// Validated options of `crdtnote restore`.
struct RestoreOptions: Equatable, Sendable {
    var recordPath: String
    var replica: ReplicaID
    /// The time restored to.
    var at: Date
    /// `--utf16-range A:B`: restore only this range of the text at that time.
    var utf16Range: Range<Int>?
    var output: OutputDestination
    var assets: String?
}

extension LogOptions {
    /// Parsing and help description of `crdtnote log`.
    static let spec = CommandSpec(
        name: "log",
        summary: "List a note's editing sessions: who edited when, and how much.",
        usage: ["log RECORD [--json] [--pause SECONDS] [--assets DIR]"],
        arguments: [ArgumentSpec(name: "RECORD", help: "The record JSON file; '-' reads standard input.")],
        options: [
            CommonOptions.json,
            .value("--pause", "SECONDS", "A pause longer than this starts a new session (default 300)."),
            CommonOptions.assets,
        ],
        examples: [("crdtnote log note.json --json", "The sessions as JSON, oldest first")])

    /// Validates the parsed arguments of `crdtnote log`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        recordPath = try parsed.singlePositional("RECORD")
        assets = try CommonOptions.assets(parsed)
        json = parsed.flag("--json")
        if let value = try parsed.value("--pause") {
            guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
                throw parsed.usageError("option '--pause' must be a number of seconds (0 or more), got '\(value)'")
            }
            pause = seconds
        }
    }

    /// Checks inputs before reading.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(recordPath)
        try CommonOptions.checkAssets(assets)
    }
}

extension RestoreOptions {
    /// Parsing and help description of `crdtnote restore`.
    static let spec = CommandSpec(
        name: "restore",
        summary: "Make a note's text what it was at a time, as new edits by one replica.",
        usage: ["restore RECORD --at TIME --replica ID [--utf16-range A:B] [-o OUT] [--assets DIR]"],
        arguments: [ArgumentSpec(name: "RECORD", help: "The record JSON file to restore.")],
        options: [
            CommonOptions.at, CommonOptions.replica,
            .value("--utf16-range", "A:B", "Bring back only what UTF-16 range A..<B of the text at TIME held and was deleted since."),
            .value("--output", short: "-o", "OUT",
                   "Write the restored record to OUT ('-': standard output) instead of replacing RECORD."),
            CommonOptions.assets,
        ],
        discussion: [
            "What was not there at TIME is deleted and what was deleted since is typed again, each at its",
            "place, as one edit by replica ID: it merges with other devices' edits like any edit.",
            "TIME must be covered by the note's kept history (see 'crdtnote text --at').",
        ],
        examples: [("crdtnote restore note.json --at 2026-11-20T09:00:00Z --replica 42", "Back to how the note read then")])

    /// Validates the parsed arguments of `crdtnote restore`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        recordPath = try parsed.singlePositional("RECORD")
        replica = try CommonOptions.requiredReplica(parsed)
        guard let at = try CommonOptions.at(parsed) else { throw parsed.usageError("missing required option '--at'") }
        self.at = at
        utf16Range = try CommonOptions.utf16Range(parsed)
        assets = try CommonOptions.assets(parsed)
        if recordPath == InputReader.standardInputPath, !parsed.has("--output") {
            throw parsed.usageError("a record read from standard input needs -o (it cannot be restored in place)")
        }
        output = try CommonOptions.output(parsed, default: .file(recordPath))
    }

    /// Checks inputs and output before restoring.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(recordPath)
        try CommonOptions.checkAssets(assets)
        try OutputWriter.checkWritable(output)
    }
}

extension CommonOptions {
    /// `--at TIME`
    static let at = OptionSpec.value("--at", "TIME", "An ISO 8601 time, e.g. 2026-11-20T09:00:00Z or 2026-11-20T10:00:00.250+01:00.")

    /// The `--at` time, if given.
    static func at(_ parsed: ParsedArguments) throws(UsageError) -> Date? {
        guard let value = try parsed.value(at.name) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: value) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: value) { return date }
        throw parsed.usageError("option '--at' must be an ISO 8601 time with a zone, e.g. 2026-11-20T09:00:00Z, got '\(value)'")
    }
}

/// A history failure of the note in `file` as the CLI reports it (exit 65, or 70 for a newer format).
func historyError(_ error: NoteHistoryError, file: RecordFile) -> CLIError {
    CLIError(code: error.code == .newerFormat ? .newerFormat : .dataError, message: "\(error.code.rawValue): \(error.message)",
             file: file.displayName)
}

/// Runs `crdtnote log`.
func runLog(_ options: LogOptions) throws(CLIError) {
    let file = try RecordFile.load(options.recordPath, assets: options.assets)
    let note = try file.read().note
    let versions: [NoteVersion]
    do {
        versions = try note.versions(pause: options.pause)
    } catch {
        throw historyError(error, file: file)
    }
    func iso(_ date: Date) -> String {
        ReportDate.iso(milliseconds: Int64(clamping: Int64((date.timeIntervalSince1970 * 1000).rounded(.down))))
    }
    if options.json {
        let entries: [JSONValue] = versions.map { version in
            .object(JSONObject([
                ("replica", .string(version.replica.description)),
                ("start", .string(iso(version.start))),
                ("end", .string(iso(version.end))),
                ("inserted", .number(JSONNumber(version.inserted))),
                ("deleted", .number(JSONNumber(version.deleted))),
            ]))
        }
        try OutputWriter.writeToStandardOutput(JSONValue.array(entries).serialized(pretty: true) + [0x0A])
        return
    }
    let lines = versions.map { "\(iso($0.start))  \(iso($0.end))  replica \($0.replica.description)  +\($0.inserted) -\($0.deleted)\n" }
    try OutputWriter.writeToStandardOutput(Array(lines.joined().utf8))
}

/// Runs `crdtnote restore`: the note restored as edits by the given replica (its own deletions
/// logged in the history it writes), the record written back as `edit` writes it.
func runRestore(_ options: RestoreOptions) throws(CLIError) {
    let file = try RecordFile.load(options.recordPath, assets: options.assets)
    var note = try file.read(as: options.replica).note
    note.historyRetention = .default
    do {
        if let range = options.utf16Range {
            try note.restore(utf16Range: range, at: options.at)
        } else {
            try note.restore(to: options.at)
        }
    } catch {
        throw historyError(error, file: file)
    }
    try writeBack(note, into: file, output: options.output, assets: options.assets)
}
