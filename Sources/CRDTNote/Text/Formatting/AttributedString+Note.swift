import Foundation

extension AttributedString {
    /// The note's text with its formatting in ``AttributeScopes/CRDTNoteAttributes`` (and
    /// Foundation's `link` for links that parse as a `URL`): marks on their characters,
    /// paragraph attributes on every character of their paragraph, its newline included.
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's runs are corrupt.
    public init(_ note: NoteText) throws(NoteTextError) {
        let spans = try note.formattedSpans()
        // The whole text at once, then each formatted span's attributes: several times faster
        // than appending the spans one by one.
        self.init(note.string)
        var start = startIndex
        for span in spans {
            let end = utf8.index(start, offsetBy: span.text.utf8.count)
            if !span.marks.isEmpty || span.paragraph != ParagraphAttributes() {
                self[start..<end].setAttributes(AttributeContainer(TextAttributes(marks: span.marks, paragraph: span.paragraph)))
            }
            start = end
        }
    }
}

extension AttributeContainer {
    /// The attributes in crdtnote's scope.
    init(_ attributes: TextAttributes) {
        self.init()
        typealias A = AttributeScopes.CRDTNoteAttributes
        for mark in attributes.marks {
            switch mark.kind {
            case .bold: self[A.BoldAttribute.self] = true
            case .italic: self[A.ItalicAttribute.self] = true
            case .underline: self[A.UnderlineAttribute.self] = true
            case .strikethrough: self[A.StrikethroughAttribute.self] = true
            case .code: self[A.CodeAttribute.self] = true
            case .highlight: self[A.HighlightAttribute.self] = mark.value
            case .link:
                self[A.LinkURLStringAttribute.self] = mark.value
                if let url = URL(string: mark.value) { self.link = url }
            }
        }
        let paragraph = attributes.paragraph
        if paragraph.heading != 0 { self[A.HeadingAttribute.self] = paragraph.heading }
        if paragraph.list != .none { self[A.ListAttribute.self] = paragraph.list }
        if paragraph.checked { self[A.CheckedAttribute.self] = true }
        if paragraph.quote { self[A.QuoteAttribute.self] = true }
        if paragraph.codeBlock { self[A.CodeBlockAttribute.self] = true }
    }
}

extension NoteText {
    /// Makes the note's text and formatting equal `text` (``setFormattedText(_:)``: only what
    /// differs is recorded). Reads ``AttributeScopes/CRDTNoteAttributes``, and Foundation's
    /// `link` where crdtnote's link attribute is absent; other attributes are ignored. A
    /// paragraph takes the paragraph attributes of its first character. Throws as
    /// ``setFormattedText(_:)``, and ``NoteTextError/Code/outOfBounds`` for a heading level
    /// outside 0...6.
    public mutating func setAttributedText(_ text: AttributedString) throws(NoteTextError) {
        typealias A = AttributeScopes.CRDTNoteAttributes
        var spans: [FormattedSpan] = []
        for run in text.runs {
            var marks: [TextMark] = []
            if run[A.BoldAttribute.self] == true { marks.append(.bold) }
            if run[A.ItalicAttribute.self] == true { marks.append(.italic) }
            if run[A.UnderlineAttribute.self] == true { marks.append(.underline) }
            if run[A.StrikethroughAttribute.self] == true { marks.append(.strikethrough) }
            if run[A.CodeAttribute.self] == true { marks.append(.code) }
            if let color = run[A.HighlightAttribute.self] { marks.append(.highlight(color)) }
            if let link = run[A.LinkURLStringAttribute.self] ?? run.link?.absoluteString { marks.append(.link(link)) }
            var paragraph = ParagraphAttributes()
            if let level = run[A.HeadingAttribute.self] {
                guard (0...6).contains(level) else { throw NoteTextError(.outOfBounds, "heading level \(level) is outside 0...6") }
                paragraph.heading = level
            }
            paragraph.list = run[A.ListAttribute.self] ?? .none
            paragraph.checked = run[A.CheckedAttribute.self] ?? false
            paragraph.quote = run[A.QuoteAttribute.self] ?? false
            paragraph.codeBlock = run[A.CodeBlockAttribute.self] ?? false
            let string = String(text[run.range].characters)
            spans.append(FormattedSpan(text: string, utf16Range: 0..<string.utf16.count, marks: TextAttributes(marks: marks).marks, paragraph: paragraph))
        }
        try setFormattedText(spans)
    }
}
