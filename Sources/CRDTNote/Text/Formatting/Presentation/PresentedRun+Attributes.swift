import Foundation

extension PresentedRun {
    /// Shows `mark`: bold, italic, code and strikethrough as inline intents, underline and
    /// highlight as an underline and a background colour, a link as Foundation's `link` (when
    /// the string parses as a `URL`); a highlight's and a link's own strings are kept too.
    mutating func setMark(_ mark: TextMark) {
        switch mark.kind {
        case .bold: inline.insert(.stronglyEmphasized)
        case .italic: inline.insert(.emphasized)
        case .code: inline.insert(.code)
        case .strikethrough: inline.insert(.strikethrough)
        case .underline: underline = true
        case .highlight:
            background = HighlightColor(mark.value)
            highlight = mark.value
        case .link:
            link = URL(string: mark.value)
            linkString = mark.value
        }
    }

    /// Shows the paragraph attributes Apple has no block for (``blocks`` holds the rest): the
    /// heading font, a checklist, a checked item.
    mutating func setParagraph(_ paragraph: ParagraphAttributes) {
        headingStyle = HeadingTextStyle(level: paragraph.heading)
        checklist = paragraph.list == .check
        checked = paragraph.checked
    }

    /// The marks these attributes show, in ``TextMarkKind`` order. A highlight needs both a
    /// background colour and its kept name; a link is Foundation's `link` (its kept string when
    /// that is the same URL), or the kept string alone when it never parsed as a `URL`.
    func marks() -> [TextMark] {
        var marks: [TextMark] = []
        if inline.contains(.stronglyEmphasized) { marks.append(.bold) }
        if inline.contains(.emphasized) { marks.append(.italic) }
        if underline { marks.append(.underline) }
        if inline.contains(.strikethrough) { marks.append(.strikethrough) }
        if inline.contains(.code) { marks.append(.code) }
        if background != nil, let highlight { marks.append(.highlight(highlight)) }
        if let link {
            let kept = linkString.flatMap { URL(string: $0)?.absoluteString == link.absoluteString ? $0 : nil }
            marks.append(.link(kept ?? link.absoluteString))
        } else if let linkString, URL(string: linkString) == nil {
            marks.append(.link(linkString))
        }
        return TextAttributes(marks: marks).marks
    }

    /// The paragraph attributes these attributes show: the innermost header's level, the
    /// innermost list's kind (an unordered one is a checklist when the kept key says so), a
    /// quote or code block anywhere in the blocks, and the kept checked state.
    func paragraph() throws(NoteTextError) -> ParagraphAttributes {
        var paragraph = ParagraphAttributes()
        paragraph.checked = checked
        for block in blocks {
            switch block.kind {
            case .header(let level) where paragraph.heading == 0:
                guard (1...6).contains(level) else { throw NoteTextError(.outOfBounds, "header level \(level) is outside 1...6") }
                paragraph.heading = level
            case .orderedList where paragraph.list == .none: paragraph.list = .number
            case .unorderedList where paragraph.list == .none: paragraph.list = checklist ? .check : .bullet
            case .blockQuote: paragraph.quote = true
            case .codeBlock: paragraph.codeBlock = true
            default: break
            }
        }
        return paragraph
    }
}
