import CRDTNote

/// What `crdtnote text --spans` and `--markdown` print (Docs/CLI.md, "text").
enum FormattedOutput {
    /// `[{"text": ..., "attributes": {...}}, ...]`, one span a line: marks (`"bold": true`,
    /// `"link": "URL"`, `"highlight": "COLOR"`), then the paragraph's attributes that are set.
    static func json(_ spans: [FormattedSpan]) -> String {
        let lines = spans.map { span in
            var attributes = span.marks.map { mark in
                "\(quoted(mark.kind.rawValue)): \(mark.value == "true" && mark.kind != .link && mark.kind != .highlight ? "true" : quoted(mark.value))"
            }
            for attribute in span.paragraph.nonDefault {
                let value: String
                switch attribute {
                case .heading(let level): value = String(level)
                case .list(let kind): value = quoted(kind.rawValue)
                default: value = attribute.value
                }
                attributes.append("\(quoted(attribute.name)): \(value)")
            }
            return "{\"text\": \(quoted(span.text)), \"attributes\": {\(attributes.joined(separator: ", "))}}"
        }
        return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// GitHub-flavored Markdown: a paragraph per line of the note (`&nbsp;` for an empty one), its attributes as a prefix
    /// (`> `, `- `, `1. `, `- [ ] `, `- [x] `, `#`s) or a fenced code block; marks as `**`,
    /// `*`, `~~`, backticks, `[..](..)`, `<u>` and `<mark>`; Markdown syntax in the text escaped.
    static func markdown(_ spans: [FormattedSpan]) -> String {
        let paragraphs = MarkdownParagraph.split(spans)
        var out = ""
        var previous: MarkdownParagraph?
        var fenceOpen = false
        for paragraph in paragraphs {
            let quote = paragraph.attributes.quote ? "> " : ""
            if fenceOpen, !paragraph.attributes.codeBlock {
                out += (previous?.attributes.quote == true ? "> " : "") + "```\n"
                fenceOpen = false
            }
            if let previous, !fenceOpen, !(previous.isListItem && paragraph.isListItem) {
                out += previous.attributes.quote && paragraph.attributes.quote ? "> \n" : "\n"
            }
            if paragraph.attributes.codeBlock {
                if !fenceOpen { out += quote + "```\n" }
                fenceOpen = true
                out += quote + paragraph.pieces.map(\.text).joined() + "\n"
            } else {
                // An empty line of the note stays one: Markdown would fold a blank line away.
                let body = paragraph.pieces.isEmpty && paragraph.prefix.isEmpty ? "&nbsp;" : MarkdownInline.render(paragraph.pieces)
                out += quote + paragraph.prefix + body + "\n"
            }
            previous = paragraph
        }
        if fenceOpen { out += (previous?.attributes.quote == true ? "> " : "") + "```\n" }
        return out
    }
}

/// One paragraph of the note for Markdown: its attributes and its pieces of text (newline dropped).
struct MarkdownParagraph {
    var attributes: ParagraphAttributes
    var pieces: [(text: String, marks: [TextMark])] = []

    var isListItem: Bool { attributes.list != .none }

    /// The line prefix of its list kind and heading level.
    var prefix: String {
        var prefix: String
        switch attributes.list {
        case .none: prefix = ""
        case .bullet: prefix = "- "
        case .number: prefix = "1. "
        case .check: prefix = attributes.checked ? "- [x] " : "- [ ] "
        }
        if attributes.heading > 0 { prefix += String(repeating: "#", count: attributes.heading) + " " }
        return prefix
    }

    /// The spans cut at their newlines into paragraphs (a note ending in a newline has no empty
    /// paragraph after it).
    static func split(_ spans: [FormattedSpan]) -> [MarkdownParagraph] {
        var paragraphs: [MarkdownParagraph] = []
        var current: MarkdownParagraph?
        for span in spans {
            let lines = span.text.split(separator: "\n", omittingEmptySubsequences: false)
            for (i, line) in lines.enumerated() {
                let endsParagraph = i < lines.count - 1
                guard !line.isEmpty || endsParagraph else { continue }
                var paragraph = current ?? MarkdownParagraph(attributes: span.paragraph)
                if !line.isEmpty { paragraph.pieces.append((String(line), span.marks)) }
                current = paragraph
                if endsParagraph {
                    paragraphs.append(paragraph)
                    current = nil
                }
            }
        }
        if let current { paragraphs.append(current) }
        return paragraphs
    }
}

/// Inline marks as Markdown: marks opened and closed as a stack, whitespace kept outside them
/// (CommonMark does not take `** bold**` as bold), the text escaped.
enum MarkdownInline {
    /// Marks in nesting order, outermost first (code is written inside whatever is open).
    static let order: [TextMarkKind] = [.link, .highlight, .underline, .strikethrough, .bold, .italic]

    static func render(_ pieces: [(text: String, marks: [TextMark])]) -> String {
        var out = "", pending = ""
        var open: [TextMark] = []
        for (index, piece) in pieces.enumerated() {
            let isCode = piece.marks.contains { $0.kind == .code }
            let core = isCode ? piece.text[...] : piece.text.drop { $0 == " " || $0 == "\t" }
            let leading = piece.text.prefix(piece.text.count - core.count)
            let trimmed = isCode ? core : core.dropLast(core.count - (core.lastIndex { $0 != " " && $0 != "\t" }.map { core.distance(from: core.startIndex, to: $0) + 1 } ?? 0))
            let trailing = core.suffix(core.count - trimmed.count)
            guard !trimmed.isEmpty else {
                pending += piece.text
                continue
            }
            let wanted = order.compactMap { kind in piece.marks.first { $0.kind == kind } }
            var keep = 0
            while keep < open.count, keep < wanted.count, open[keep] == wanted[keep] { keep += 1 }
            for mark in open[keep...].reversed() { out += close(mark) }
            open.removeLast(open.count - keep)
            out += pending + leading
            pending = ""
            for mark in wanted[keep...] {
                out += opening(mark)
                open.append(mark)
            }
            let atStart = index == 0 && out.isEmpty
            out += isCode ? code(String(trimmed)) : escape(String(trimmed), atLineStart: atStart)
            pending = String(trailing)
        }
        for mark in open.reversed() { out += close(mark) }
        return out + pending
    }

    static func opening(_ mark: TextMark) -> String {
        switch mark.kind {
        case .bold: return "**"
        case .italic: return "*"
        case .strikethrough: return "~~"
        case .underline: return "<u>"
        case .highlight: return "<mark>"
        case .link: return "["
        case .code: return ""
        }
    }

    static func close(_ mark: TextMark) -> String {
        switch mark.kind {
        case .bold: return "**"
        case .italic: return "*"
        case .strikethrough: return "~~"
        case .underline: return "</u>"
        case .highlight: return "</mark>"
        case .link:
            let url = mark.value.replacingOccurrences(of: " ", with: "%20")
                .replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")
            return "](\(url))"
        case .code: return ""
        }
    }

    /// Inline code: a backtick fence longer than any run of backticks inside.
    static func code(_ text: String) -> String {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return fence + pad + text + pad + fence
    }

    /// `text` with Markdown syntax escaped: inline punctuation everywhere, and what would start
    /// a heading, list or quote at the start of a line.
    static func escape(_ text: String, atLineStart: Bool) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>~|&".contains(character) { out += "\\" }
            out.append(character)
        }
        guard atLineStart, let first = out.first else { return out }
        if "#-+>".contains(first) { return "\\" + out }
        let digits = out.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, let next = out.dropFirst(digits.count).first, next == "." || next == ")" {
            return digits + "\\" + out.dropFirst(digits.count)
        }
        return out
    }
}
