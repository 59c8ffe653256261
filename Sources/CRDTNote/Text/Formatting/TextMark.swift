/// The kinds of inline mark a note's text can carry (Docs/FORMAT.md §10.2): the raw value is
/// the name every device, the record and the CLI use.
public enum TextMarkKind: String, Hashable, Sendable, CaseIterable {
    /// Grows when text is typed at its end, not at its start (also italic, underline,
    /// strikethrough and highlight).
    case bold, italic, underline, strikethrough
    /// Grows at neither end (also link).
    case code
    /// Value: a colour name or `#rrggbb`.
    case highlight
    /// Value: the URL. Grows at neither end.
    case link

    /// Its expansion rule.
    var kind: MarkKind {
        switch self {
        case .bold: return .bold
        case .italic: return .italic
        case .underline: return .underline
        case .strikethrough: return .strikethrough
        case .code: return .code
        case .highlight: return .highlight
        case .link: return .link
        }
    }
}

/// An inline mark with its value: ``bold`` and the other on/off kinds have the value `true`,
/// a ``link(_:)`` its URL, a ``highlight(_:)`` its colour.
public struct TextMark: Hashable, Sendable, CustomStringConvertible {
    /// The kind.
    public let kind: TextMarkKind
    /// The value: `true` for on/off kinds, the URL of a link, the colour of a highlight.
    public let value: String

    /// Bold text.
    public static let bold = TextMark(kind: .bold, value: MarkKind.on)
    /// Italic text.
    public static let italic = TextMark(kind: .italic, value: MarkKind.on)
    /// Underlined text.
    public static let underline = TextMark(kind: .underline, value: MarkKind.on)
    /// Struck-through text.
    public static let strikethrough = TextMark(kind: .strikethrough, value: MarkKind.on)
    /// Inline code.
    public static let code = TextMark(kind: .code, value: MarkKind.on)
    /// A link to `url`.
    public static func link(_ url: String) -> TextMark { TextMark(kind: .link, value: url) }
    /// A highlight in `color` (a colour name or `#rrggbb`).
    public static func highlight(_ color: String) -> TextMark { TextMark(kind: .highlight, value: color) }

    /// `bold`, `link=https://…`: the CLI's spelling.
    public var description: String { value == MarkKind.on ? kind.rawValue : "\(kind.rawValue)=\(value)" }
}

/// A stretch of a note's visible text with one set of attributes (``NoteText/formattedSpans()``).
public struct FormattedSpan: Hashable, Sendable {
    /// The text of the stretch.
    public var text: String
    /// Its UTF-16 offsets in the note (what `NSRange` uses).
    public var utf16Range: Range<Int>
    /// The marks in force on it, in ``TextMarkKind`` order (kinds from newer releases are not
    /// listed: they are kept and merged, not shown).
    public var marks: [TextMark]
    /// The attributes of its paragraph (a newline belongs to the paragraph it ends).
    public var paragraph: ParagraphAttributes
}
