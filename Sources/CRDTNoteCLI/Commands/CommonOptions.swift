import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport

/// Option descriptions shared by several commands, so each reads the same everywhere.
enum CommonOptions {
    /// `--assets DIR`
    static let assets = OptionSpec.value(
        "--assets", "DIR", "Folder holding the records' asset files (looked up by checksum or name).")
    /// `-o, --output OUT`
    static let output = OptionSpec.value(
        "--output", short: "-o", "OUT", "Write the result to OUT (replaced atomically); '-' means standard output.")
    /// `--replica ID`
    static let replica = OptionSpec.value(
        "--replica", "ID", "This device's replica ID: a decimal or 0x-hex number that fits in 64 bits.")
    /// `--format N`
    static let format = OptionSpec.value(
        "--format", "N", "Snapshot format to write: 1 (every crdtnote reads it), 2 (smaller; read only by releases that know format 2), 3 (compacted notes) or 6 (clock logs in columns; releases reading 6). Default: new writes 1, edit keeps its input's, merge writes the newest among its inputs.")
    /// `--text-mirror TYPE`
    static let textMirror = OptionSpec.value(
        "--text-mirror", "TYPE",
        "Type of the plain-text mirror ('text') for older apps: asset, string or off. Default: the input record's type (new notes: asset). One container needs one type.")
    /// `--json`
    static let json = OptionSpec.flag("--json", "Print machine-readable JSON instead of text.")
    /// `--utf16-range A:B`
    static let utf16Range = OptionSpec.value(
        "--utf16-range", "A:B", "Replace exactly the UTF-16 range A..<B with the text read (A:A inserts), instead of the whole text.")

    /// The `--replica` of a command that requires it.
    static func requiredReplica(_ parsed: ParsedArguments) throws(UsageError) -> ReplicaID {
        guard let replica = try parsed.replicaID(CommonOptions.replica.name) else {
            throw parsed.usageError("missing required option '--replica'")
        }
        return replica
    }

    /// The `--utf16-range` half-open range, if given.
    static func utf16Range(_ parsed: ParsedArguments) throws(UsageError) -> Range<Int>? {
        guard let value = try parsed.value(utf16Range.name) else { return nil }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b else {
            throw parsed.usageError("option '--utf16-range' must be A:B with 0 <= A <= B, got '\(value)'")
        }
        return a..<b
    }

    /// The `--assets` folder, if given.
    static func assets(_ parsed: ParsedArguments) throws(UsageError) -> String? {
        try parsed.value(assets.name)
    }

    /// The `-o` destination, or `fallback` when absent.
    static func output(_ parsed: ParsedArguments, default fallback: OutputDestination) throws(UsageError) -> OutputDestination {
        try parsed.value(output.name).map(OutputDestination.init(argument:)) ?? fallback
    }

    /// The `--format` snapshot format, or nil when absent (each command has its default).
    static func format(_ parsed: ParsedArguments) throws(UsageError) -> SnapshotFormat? {
        guard let value = try parsed.value(format.name) else { return nil }
        // Format 7 is written only for a note whose ledger lists re-pointed ids, whatever is asked.
        guard let number = UInt16(value), let format = SnapshotFormat(rawValue: number), format != .version7 else {
            throw parsed.usageError("option '--format' must be 1, 2, 3 or 6, got '\(value)'")
        }
        return format
    }

    /// The `--text-mirror` type, or nil when absent (keep the input record's type).
    static func textMirror(_ parsed: ParsedArguments) throws(UsageError) -> NoteTextMirror? {
        guard let value = try parsed.value(textMirror.name) else { return nil }
        guard let mirror = NoteTextMirror(rawValue: value) else {
            throw parsed.usageError("option '--text-mirror' must be asset, string or off, got '\(value)'")
        }
        return mirror
    }

    /// Fails when standard input is named by more than one argument, since it can be read once.
    static func checkSingleStandardInput(_ paths: [String?], command: String) throws(UsageError) {
        if paths.filter({ $0 == InputReader.standardInputPath }).count > 1 {
            throw UsageError("standard input ('-') can be used for only one input", command: command)
        }
    }

    /// Checks that an optional `--assets` folder exists.
    static func checkAssets(_ path: String?) throws(CLIError) {
        if let path { try InputReader.checkReadableDirectory(path) }
    }
}
