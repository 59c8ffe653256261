import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport

/// Validated options of `crdtnote style`.
struct StyleOptions: Equatable, Sendable {
    /// What the command does to the range.
    enum Change: Equatable, Sendable {
        /// `--add KIND`
        case add(TextMark)
        /// `--remove KIND`
        case remove(TextMarkKind)
        /// `--paragraph KEY=VALUE`
        case paragraph(ParagraphAttribute)
    }

    /// The record to format.
    var recordPath: String
    /// The replica that authors the formatting.
    var replica: ReplicaID
    /// The half-open UTF-16 range formatted.
    var utf16Range: Range<Int>
    /// The change.
    var change: Change
    /// Where the formatted record goes: the record itself by default.
    var output: OutputDestination
    /// Folder with asset files, if any.
    var assets: String?
}

extension StyleOptions {
    /// Parsing and help description of `crdtnote style`.
    static let spec = CommandSpec(
        name: "style",
        summary: "Set or remove a mark, or set a paragraph attribute, on a UTF-16 range of a note.",
        usage: ["style RECORD --utf16-range A:B (--add KIND | --remove KIND | --paragraph KEY=VALUE) --replica ID [-o OUT] [--assets DIR]"],
        arguments: [ArgumentSpec(name: "RECORD", help: "The record JSON file to format.")],
        options: [
            .value("--utf16-range", "A:B", "The half-open UTF-16 range A..<B to format (A:A: the paragraph at A, for --paragraph)."),
            .value("--add", "KIND", "Set a mark: bold, italic, underline, strikethrough, code, highlight=COLOR or link=URL."),
            .value("--remove", "KIND", "Remove a mark: bold, italic, underline, strikethrough, code, highlight or link."),
            .value("--paragraph", "KEY=VALUE",
                   "Set an attribute of every paragraph the range touches: heading=0..6, list=bullet|number|check|none, checked=, quote=, codeblock=true|false."),
            CommonOptions.replica,
            .value("--output", short: "-o", "OUT", "Write the record to OUT ('-': standard output) instead of replacing RECORD."),
            CommonOptions.assets,
        ],
        discussion: [
            "The formatting is recorded as an operation by replica ID and merges like the text: text typed",
            "later at the end of a bold, italic, underline, strikethrough or highlight range joins it, not",
            "at a link or code. The record's text, payload format and mirror are kept; the formatting goes",
            "into its 'formatting' field. Without -o, RECORD is rewritten in place, atomically.",
        ],
        examples: [
            ("crdtnote style note.json --utf16-range 0:4 --add bold --replica 42", "Bold the first four UTF-16 units"),
            ("crdtnote style note.json --utf16-range 0:0 --paragraph heading=1 --replica 42", "Make the first paragraph a heading"),
        ])

    /// Validates the parsed arguments of `crdtnote style`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        recordPath = try parsed.singlePositional("RECORD")
        replica = try CommonOptions.requiredReplica(parsed)
        guard let range = try CommonOptions.utf16Range(parsed) else {
            throw parsed.usageError("missing required option '--utf16-range'")
        }
        utf16Range = range
        change = try Self.change(parsed)
        assets = try CommonOptions.assets(parsed)
        if recordPath == InputReader.standardInputPath, !parsed.has("--output") {
            throw parsed.usageError("a record read from standard input needs -o (it cannot be formatted in place)")
        }
        output = try CommonOptions.output(parsed, default: .file(recordPath))
    }

    /// The options that name the change (`crdtnote style` and `crdtnote library style`).
    static let changeOptions = ["--add", "--remove", "--paragraph"]

    /// The change named by exactly one of ``changeOptions``.
    static func change(_ parsed: ParsedArguments) throws(UsageError) -> Change {
        var given: [(String, String)] = []
        for name in changeOptions {
            if let value = try parsed.value(name) { given.append((name, value)) }
        }
        guard given.count == 1, let (option, value) = given.first else {
            throw parsed.usageError("give exactly one of '--add', '--remove' and '--paragraph'")
        }
        return try change(option, value, parsed)
    }

    /// The change `--add`, `--remove` or `--paragraph` names.
    private static func change(_ option: String, _ argument: String, _ parsed: ParsedArguments) throws(UsageError) -> Change {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0]), value = parts.count > 1 ? String(parts[1]) : nil
        if option == "--paragraph" {
            guard let value, let attribute = ParagraphAttribute(name: name, value: value), Self.known(attribute) else {
                throw parsed.usageError("option '--paragraph' must be heading=0..6, list=bullet|number|check|none, checked=true|false, quote=true|false or codeblock=true|false, got '\(argument)'")
            }
            return .paragraph(attribute)
        }
        guard let kind = TextMarkKind(rawValue: name) else {
            throw parsed.usageError("unknown mark '\(name)' in '\(option)': bold, italic, underline, strikethrough, code, highlight or link")
        }
        if option == "--remove" {
            guard value == nil else { throw parsed.usageError("option '--remove' takes a mark name without a value, got '\(argument)'") }
            return .remove(kind)
        }
        let needsValue = kind == .link || kind == .highlight
        guard needsValue == (value != nil), value?.isEmpty != true else {
            throw parsed.usageError(needsValue ? "'\(name)' needs a value: '--add \(name)=\(kind == .link ? "URL" : "COLOR")'"
                                               : "'\(name)' takes no value, got '\(argument)'")
        }
        return .add(TextMark.kind(kind, value: value))
    }

    private static func known(_ attribute: ParagraphAttribute) -> Bool {
        if case .other = attribute { return false }
        return true
    }

    /// Checks input and output before formatting.
    func checkFiles() throws(CLIError) {
        try InputReader.checkReadableFile(recordPath)
        try CommonOptions.checkAssets(assets)
        try OutputWriter.checkWritable(output)
    }
}

extension TextMark {
    /// The mark of `kind` with `value` (nil: on/off kinds' `true`).
    static func kind(_ kind: TextMarkKind, value: String?) -> TextMark {
        switch kind {
        case .bold: return .bold
        case .italic: return .italic
        case .underline: return .underline
        case .strikethrough: return .strikethrough
        case .code: return .code
        case .highlight: return .highlight(value ?? "")
        case .link: return .link(value ?? "")
        }
    }
}
