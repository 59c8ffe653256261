/// Which paragraph an attribute belongs to: the one at the start of the note, or the one that
/// begins after a newline element. Docs/FORMAT.md, §10.5.
enum ParagraphKey: Hashable, Sendable {
    /// The first paragraph (also the only one of a note without newlines, or an empty note).
    case documentStart
    /// The paragraph after this newline element; dead while the newline is deleted.
    case newline(ElementID)
}

/// The list kind of a paragraph.
enum ParagraphList: String, Hashable, Sendable, CaseIterable {
    case none, bullet, number, check
}

/// One paragraph attribute with its value; the default value unsets it.
enum ParagraphAttribute: Hashable, Sendable {
    /// Heading level 1–6; 0 is body text.
    case heading(Int)
    case list(ParagraphList)
    case checked(Bool)
    case quote(Bool)
    case codeBlock(Bool)

    /// The attribute's name: operations on one paragraph merge per name.
    var name: String {
        switch self {
        case .heading: return "heading"
        case .list: return "list"
        case .checked: return "checked"
        case .quote: return "quote"
        case .codeBlock: return "codeblock"
        }
    }
}

/// The resolved attributes of one paragraph (defaults when nothing was set).
struct ParagraphAttributes: Hashable, Sendable {
    var heading = 0
    var list = ParagraphList.none
    var checked = false
    var quote = false
    var codeBlock = false

    /// These attributes with `attribute` applied.
    mutating func apply(_ attribute: ParagraphAttribute) {
        switch attribute {
        case .heading(let level): heading = level
        case .list(let kind): list = kind
        case .checked(let value): checked = value
        case .quote(let value): quote = value
        case .codeBlock(let value): codeBlock = value
        }
    }

    /// The attributes that differ from the defaults, as operations would set them.
    var nonDefault: [ParagraphAttribute] {
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

extension ParagraphOperation: StampedFormattingOperation {}
