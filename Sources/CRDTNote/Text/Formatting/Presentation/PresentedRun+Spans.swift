import Foundation

extension PresentedRun {
    /// The note's formatted spans in Apple's vocabulary, one run per span and paragraph.
    /// Paragraphs become blocks, innermost first: a `header(level:)`, or a `codeBlock`, or a
    /// `paragraph` (a code-block heading is a header inside a code block); inside a `listItem`
    /// of an `orderedList` or `unorderedList` when the paragraph is a list item; inside a
    /// `blockQuote` when it is quoted. Consecutive paragraphs share their quote, list and code
    /// block (one identity each, as Markdown's blocks); every paragraph and list item is a new
    /// block, and list items are numbered 1, 2, ... within their list.
    package static func runs(of spans: [FormattedSpan]) -> [PresentedRun] {
        var runs: [PresentedRun] = []
        var blocks = BlockNumbering()
        var atParagraphStart = true
        var paragraphBlocks: [PresentedBlock] = []
        for span in spans {
            for piece in span.text.paragraphPieces {
                if atParagraphStart { paragraphBlocks = blocks.next(span.paragraph) }
                atParagraphStart = piece.hasSuffix("\n")
                var run = PresentedRun(text: piece)
                run.blocks = paragraphBlocks
                run.setParagraph(span.paragraph)
                for mark in span.marks { run.setMark(mark) }
                runs.append(run)
            }
        }
        return runs
    }

    /// The spans these runs show: Apple's attributes for what they carry, crdtnote's kept keys
    /// for the rest (a checklist, checked items, a highlight's colour name, a link's exact
    /// string). A new block that begins without a newline before it (Foundation's Markdown
    /// parser writes none between blocks) gets one. Throws ``NoteTextError/Code/outOfBounds``
    /// for a header level outside 1...6.
    package static func spans(of runs: [PresentedRun]) throws(NoteTextError) -> [FormattedSpan] {
        var spans: [FormattedSpan] = []
        var previous: PresentedRun?
        for run in runs where !run.text.isEmpty {
            let paragraph = try run.paragraph()
            if let previous, let before = previous.blocks.first, let leaf = run.blocks.first,
               before.identity != leaf.identity, !previous.text.hasSuffix("\n"), let last = spans.last {
                spans.append(FormattedSpan(text: "\n", utf16Range: 0..<1, marks: [], paragraph: last.paragraph))
            }
            spans.append(FormattedSpan(text: run.text, utf16Range: 0..<run.text.utf16.count, marks: run.marks(), paragraph: paragraph))
            previous = run
        }
        return spans
    }
}

extension String {
    /// The text cut after each newline ("a\nb" → "a\n", "b").
    var paragraphPieces: [String] {
        var pieces: [String] = []
        var start = startIndex
        while let newline = self[start...].firstIndex(of: "\n") {
            pieces.append(String(self[start...newline]))
            start = index(after: newline)
        }
        if start < endIndex { pieces.append(String(self[start...])) }
        return pieces
    }
}

/// Gives each paragraph its blocks, sharing the quote, list and code block of the paragraph
/// before where they continue (``PresentedRun/runs(of:)``).
private struct BlockNumbering {
    /// The previous paragraph's blocks, outermost first.
    private var previous: [PresentedBlock] = []
    private var lastIdentity = 0

    /// The blocks of the next paragraph, innermost first.
    mutating func next(_ paragraph: ParagraphAttributes) -> [PresentedBlock] {
        var chain: [PresentedBlock] = []
        var sharing = true
        for kind in Self.kinds(paragraph) {
            let index = chain.count
            let old = index < previous.count ? previous[index] : nil
            var kind = kind
            if case .listItem = kind, sharing, index > 0, case .listItem(let ordinal)? = old?.kind {
                kind = .listItem(ordinal: ordinal + 1)
            }
            if sharing, let old, old.kind == kind, Self.continues(kind) {
                chain.append(old)
            } else {
                sharing = false
                lastIdentity += 1
                chain.append(PresentedBlock(kind, identity: lastIdentity))
            }
        }
        previous = chain
        return chain.reversed()
    }

    /// The paragraph's block kinds, outermost first; list items numbered 1.
    private static func kinds(_ p: ParagraphAttributes) -> [PresentedBlock.Kind] {
        var kinds: [PresentedBlock.Kind] = []
        if p.quote { kinds.append(.blockQuote) }
        if p.list != .none { kinds += [p.list == .number ? .orderedList : .unorderedList, .listItem(ordinal: 1)] }
        if p.codeBlock { kinds.append(.codeBlock) }
        if p.heading > 0 {
            kinds.append(.header(level: p.heading))
        } else if !p.codeBlock {
            kinds.append(.paragraph)
        }
        return kinds
    }

    /// Whether a block of this kind goes on into the next paragraph when it has one too.
    private static func continues(_ kind: PresentedBlock.Kind) -> Bool {
        switch kind {
        case .blockQuote, .orderedList, .unorderedList, .codeBlock: return true
        default: return false
        }
    }
}
