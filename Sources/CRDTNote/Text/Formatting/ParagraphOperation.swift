/// Which paragraph an attribute belongs to: the one at the start of the note, or the one that
/// begins after a newline element. Docs/FORMAT.md, §10.5.
enum ParagraphKey: Hashable, Sendable {
    /// The first paragraph (also the only one of a note without newlines, or an empty note).
    case documentStart
    /// The paragraph after this newline element; dead while the newline is deleted.
    case newline(ElementID)
}

/// The list kind of a paragraph.
public enum ParagraphList: String, Hashable, Sendable, CaseIterable {
    /// Not a list item (the default).
    case none
    /// A bulleted item.
    case bullet
    /// A numbered item.
    case number
    /// A checklist item (see ``ParagraphAttribute/checked(_:)``).
    case check
}

/// One paragraph attribute with its value (Docs/FORMAT.md §10.5); the default value (`0`,
/// `.none`, `false`) unsets it. Per paragraph and attribute, the latest setting wins.
public enum ParagraphAttribute: Hashable, Sendable {
    /// Heading level 1–6; 0 is body text.
    case heading(Int)
    /// The list kind.
    case list(ParagraphList)
    /// Whether a checklist item is checked.
    case checked(Bool)
    /// A block quote.
    case quote(Bool)
    /// A code block.
    case codeBlock(Bool)
    /// An attribute this release does not know (from a newer one): kept and passed on, and
    /// resolved like the others, but it changes nothing this release shows.
    case other(name: String, value: String)

    /// The attribute's name: `heading`, `list`, `checked`, `quote`, `codeblock` (operations on
    /// one paragraph merge per name).
    public var name: String {
        switch self {
        case .heading: return "heading"
        case .list: return "list"
        case .checked: return "checked"
        case .quote: return "quote"
        case .codeBlock: return "codeblock"
        case .other(let name, _): return name
        }
    }

    /// The value as stored and named in the CLI: `0`–`6`, `none`/`bullet`/`number`/`check`,
    /// `true`/`false`.
    public var value: String {
        switch self {
        case .heading(let level): return String(level)
        case .list(let kind): return kind.rawValue
        case .checked(let on), .quote(let on), .codeBlock(let on): return on ? "true" : "false"
        case .other(_, let value): return value
        }
    }

    /// The attribute named `name` with `value`; nil when `name` is known and `value` is not
    /// one of its values (the CLI's `KEY=VALUE`). Unknown names give ``other(name:value:)``.
    public init?(name: String, value: String) {
        let flag: Bool? = value == "true" ? true : value == "false" ? false : nil
        switch name {
        case "heading":
            guard let level = Int(value), (0...6).contains(level), String(level) == value else { return nil }
            self = .heading(level)
        case "list":
            guard let kind = ParagraphList(rawValue: value) else { return nil }
            self = .list(kind)
        case "checked", "quote", "codeblock":
            guard let flag else { return nil }
            self = name == "checked" ? .checked(flag) : name == "quote" ? .quote(flag) : .codeBlock(flag)
        default:
            self = .other(name: name, value: value)
        }
    }
}

/// The resolved attributes of one paragraph (defaults when nothing was set).
public struct ParagraphAttributes: Hashable, Sendable {
    /// Heading level 1–6, 0 for body text.
    public var heading = 0
    /// The list kind.
    public var list = ParagraphList.none
    /// Whether a checklist item is checked.
    public var checked = false
    /// A block quote.
    public var quote = false
    /// A code block.
    public var codeBlock = false

    /// Default attributes (body text).
    public init() {}

    /// These attributes with `attribute` applied.
    mutating func apply(_ attribute: ParagraphAttribute) {
        switch attribute {
        case .heading(let level): heading = level
        case .list(let kind): list = kind
        case .checked(let value): checked = value
        case .quote(let value): quote = value
        case .codeBlock(let value): codeBlock = value
        case .other: break
        }
    }

    /// The attributes that differ from the defaults, as operations would set them.
    public var nonDefault: [ParagraphAttribute] {
        var out: [ParagraphAttribute] = []
        if heading != 0 { out.append(.heading(heading)) }
        if list != .none { out.append(.list(list)) }
        if checked { out.append(.checked(true)) }
        if quote { out.append(.quote(true)) }
        if codeBlock { out.append(.codeBlock(true)) }
        return out
    }
}

/// Sets one attribute of one paragraph; per key and attribute name the latest operation (by
/// stamp, then replica id as unsigned) wins.
struct ParagraphOperation: Hashable, Sendable {
    var key: ParagraphKey
    var attribute: ParagraphAttribute
    var stamp: HLCTimestamp
    var replica: ReplicaID
}

extension ParagraphOperation: StampedFormattingOperation {
    /// Hashes ``identityWords`` (the author, stamp and key: equal operations have equal ones).
    func hash(into hasher: inout Hasher) {
        let (a, b) = identityWords
        hasher.combine(a)
        hasher.combine(b)
    }
}

extension ParagraphOperation: HashedOperation {
    /// The author and stamp mixed into one word, the paragraph key the other.
    var identityWords: (UInt64, UInt64) {
        (stamp.rawValue ^ (replica.rawValue &* 0x9E37_79B9_7F4A_7C15), key.word)
    }
}

extension ParagraphKey {
    /// Hashes one word (the newline's replica and seq mixed; the document start a value no
    /// newline gives in practice): the key of the paragraph winners table and part of every
    /// paragraph operation's hash, both hashed on every newline typed in a formatted note.
    func hash(into hasher: inout Hasher) {
        hasher.combine(word)
    }

    /// The key mixed into one word.
    var word: UInt64 {
        switch self {
        case .documentStart: UInt64.max
        case .newline(let id): (id.replica.rawValue &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(id.seq)
        }
    }
}
