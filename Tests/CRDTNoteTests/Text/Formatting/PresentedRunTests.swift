import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// The portable half of the mapping to Apple's attributes (`PresentedRun`): random formatted
/// notes survive note → Apple's vocabulary → note; Apple's attributes alone (as Foundation's
/// Markdown parser or another app writes them) give what they can carry; blocks are numbered as
/// Markdown's are.
@Suite struct PresentedRunTests {
    static let marks: [TextMark] = [.bold, .italic, .underline, .strikethrough, .code, .link("https://a.example/x?y=1"),
                                    .link("https://docs.example/a b"), .link("mailto:someone@example.com"),
                                    .highlight("yellow"), .highlight("#ff8000"), .highlight("no such colour")]
    static let paragraphs: [ParagraphAttribute] = [.heading(1), .heading(3), .heading(6), .list(.bullet), .list(.number),
                                                   .list(.check), .checked(true), .quote(true), .codeBlock(true)]
    static let words = ["alpha ", "beta", "\n", "δέλτα ", "👋", "x", "\n", "two words "]

    /// A random note: random words with random marks, paragraphs with random attributes
    /// (any combination, also ones Markdown cannot write), then random work from another device.
    static func randomNote(_ rng: inout SplitMix64) throws -> NoteText {
        var spans: [FormattedSpan] = []
        var paragraph = ParagraphAttributes()
        func nextParagraph() {
            paragraph = ParagraphAttributes()
            for attribute in paragraphs where Int.random(in: 0..<4, using: &rng) == 0 { paragraph.apply(attribute) }
        }
        nextParagraph()
        for _ in 0..<Int.random(in: 0...16, using: &rng) {
            let chosen = marks.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 }
            let unique = Array(Dictionary(chosen.map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a }).values)
            for scalar in words.randomElement(using: &rng)!.unicodeScalars {
                spans.append(FormattedSpan(text: String(scalar), utf16Range: 0..<0, marks: TextAttributes(marks: unique).marks, paragraph: paragraph))
                if scalar == "\n" { nextParagraph() }
            }
        }
        var note = try NoteText("", replica: .test(1))
        try note.setFormattedText(spans)
        for _ in 0..<Int.random(in: 0...3, using: &rng) { try FormattedViewPropertyTests.remoteWork(&note, &rng) }
        return note
    }

    /// The note these runs show, made on a fresh device.
    static func note(from runs: [PresentedRun]) throws -> NoteText {
        var note = try NoteText("", replica: .test(2))
        try note.setFormattedText(try PresentedRun.spans(of: runs))
        return note
    }

    @Test(arguments: Array(1...80) as [UInt64])
    func randomNotesRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let note = try Self.randomNote(&rng)
        let spans = try note.formattedSpans()
        let runs = PresentedRun.runs(of: spans)
        #expect(runs.map(\.text).joined() == note.string)
        // As the mapping makes them, and joined as an `AttributedString` joins equal neighbours.
        for runs in [runs, Self.coalesced(runs)] {
            let copy = try Self.note(from: runs)
            #expect(copy.string == note.string, "seed \(seed)")
            #expect(FormattedTextUpdateTests.characters(try copy.formattedSpans()) == FormattedTextUpdateTests.characters(spans), "seed \(seed)")
        }
    }

    /// Test-only keys standing in for Apple's intents and styles (which Linux Foundation
    /// lacks), so runs go through a real `AttributedString` here, with `link` and crdtnote's
    /// kept keys as the Apple-only layer writes them.
    enum ModelInlineKey: AttributedStringKey { typealias Value = UInt8; static let name = "test.inlinePresentationIntent" }
    enum ModelBlocksKey: AttributedStringKey { typealias Value = [PresentedBlock]; static let name = "test.presentationIntent" }
    enum ModelUnderlineKey: AttributedStringKey { typealias Value = Bool; static let name = "test.underlineStyle" }
    enum ModelBackgroundKey: AttributedStringKey { typealias Value = Bool; static let name = "test.backgroundColor" }

    @Test(arguments: Array(1...40) as [UInt64])
    func runsSurviveAnAttributedString(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let note = try Self.randomNote(&rng)
        var text = AttributedString()
        for run in PresentedRun.runs(of: try note.formattedSpans()) {
            var container = run.portableAttributes
            if !run.inline.isEmpty { container[ModelInlineKey.self] = run.inline.rawValue }
            if !run.blocks.isEmpty { container[ModelBlocksKey.self] = run.blocks }
            if run.underline { container[ModelUnderlineKey.self] = true }
            if run.background != nil { container[ModelBackgroundKey.self] = true }
            text.append(AttributedString(run.text, attributes: container))
        }
        let runs = text.runs.map { piece in
            var run = PresentedRun(text: String(text[piece.range].characters), portableAttributes: piece.attributes)
            run.inline = InlineIntent(rawValue: piece.attributes[ModelInlineKey.self] ?? 0)
            run.blocks = piece.attributes[ModelBlocksKey.self] ?? []
            run.underline = piece.attributes[ModelUnderlineKey.self] ?? false
            if piece.attributes[ModelBackgroundKey.self] == true, let highlight = run.highlight { run.background = HighlightColor(highlight) }
            return run
        }
        let copy = try Self.note(from: runs)
        #expect(copy.string == note.string)
        #expect(FormattedTextUpdateTests.characters(try copy.formattedSpans()) == FormattedTextUpdateTests.characters(try note.formattedSpans()),
                "seed \(seed)")
    }

    /// The runs with neighbours of equal attributes joined (`AttributedString` keeps no
    /// boundary between them).
    static func coalesced(_ runs: [PresentedRun]) -> [PresentedRun] {
        var out: [PresentedRun] = []
        for run in runs {
            if var last = out.last {
                let text = last.text
                last.text = run.text
                if last == run {
                    out[out.count - 1].text = text + run.text
                    continue
                }
            }
            out.append(run)
        }
        return out
    }

    /// With crdtnote's kept keys removed, what is left is exactly what Apple's vocabulary
    /// carries: computed here per character from the note's own attributes.
    @Test(arguments: Array(1...80) as [UInt64])
    func applesAttributesAloneCarryWhatTheyCan(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let note = try Self.randomNote(&rng)
        let runs = PresentedRun.runs(of: try note.formattedSpans()).map { run in
            var run = run
            (run.checklist, run.checked, run.highlight, run.linkString) = (false, false, nil, nil)
            return run
        }
        let expected = try note.formattedSpans().map { span in
            var span = span
            span.marks = span.marks.compactMap { mark in
                switch mark.kind {
                case .highlight: return nil
                case .link: return URL(string: mark.value).map { .link($0.absoluteString) }
                default: return mark
                }
            }
            if span.paragraph.list == .check { span.paragraph.list = .bullet }
            span.paragraph.checked = false
            return span
        }
        let copy = try Self.note(from: runs)
        #expect(FormattedTextUpdateTests.characters(try copy.formattedSpans()) == FormattedTextUpdateTests.characters(expected), "seed \(seed)")
    }

    /// Blocks as Markdown numbers them: one quote for consecutive quoted paragraphs, one list
    /// for consecutive items of one kind in the same quote, items numbered from 1, a new block
    /// for every paragraph and item, and a list item always directly inside its list.
    @Test(arguments: Array(1...60) as [UInt64])
    func blocksAreSharedAsMarkdownShares(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let spans = try Self.randomNote(&rng).formattedSpans()
        let runs = PresentedRun.runs(of: spans)
        // Paragraphs: the runs from one newline to the next, each with its attributes.
        var paragraphs: [(attributes: ParagraphAttributes, blocks: [PresentedBlock])] = []
        var startsParagraph = true
        for (run, attributes) in zip(runs, spans.flatMap { span in span.text.paragraphPieces.map { _ in span.paragraph } }) {
            if startsParagraph {
                paragraphs.append((attributes, run.blocks))
            } else {
                #expect(run.blocks == paragraphs.last?.blocks, "seed \(seed): one paragraph, one set of blocks")
            }
            startsParagraph = run.text.hasSuffix("\n")
        }
        func block(_ blocks: [PresentedBlock], _ match: (PresentedBlock.Kind) -> Bool) -> PresentedBlock? { blocks.first { match($0.kind) } }
        let isList: (PresentedBlock.Kind) -> Bool = { $0 == .orderedList || $0 == .unorderedList }
        var ordinal = 0
        var seenItems = Set<Int>()
        for (i, paragraph) in paragraphs.enumerated() {
            let p = paragraph.attributes, blocks = paragraph.blocks
            #expect(Set(blocks.map(\.identity)).count == blocks.count)
            #expect((block(blocks, { $0 == .blockQuote }) != nil) == p.quote)
            #expect(block(blocks, isList)?.kind == (p.list == .none ? nil : p.list == .number ? .orderedList : .unorderedList))
            if let item = blocks.firstIndex(where: { if case .listItem = $0.kind { return true } else { return false } }) {
                #expect(item + 1 < blocks.count && isList(blocks[item + 1].kind), "seed \(seed): a list item sits in a list")
                #expect(seenItems.insert(blocks[item].identity).inserted, "seed \(seed): every item is a new block")
            }
            let previous = i > 0 ? paragraphs[i - 1] : nil
            let sameQuote = p.quote && previous?.attributes.quote == true
            if sameQuote {
                #expect(block(blocks, { $0 == .blockQuote }) == block(previous!.blocks, { $0 == .blockQuote }))
            }
            let sameList = p.list != .none && previous.map { $0.attributes.list != .none
                && ($0.attributes.list == .number) == (p.list == .number) && $0.attributes.quote == p.quote } == true
            if p.list != .none {
                ordinal = sameList ? ordinal + 1 : 1
                #expect(blocks.contains { $0.kind == .listItem(ordinal: ordinal) }, "seed \(seed) paragraph \(i)")
                if let previous {
                    #expect((block(blocks, isList) == block(previous.blocks, isList)) == sameList, "seed \(seed) paragraph \(i)")
                }
            }
            switch blocks.first?.kind {
            case .header(let level)?: #expect(level == p.heading)
            case .codeBlock?: #expect(p.codeBlock && p.heading == 0)
            case .paragraph?: #expect(!p.codeBlock && p.heading == 0)
            default: Issue.record("seed \(seed): paragraph \(i) has no leaf block")
            }
        }
    }

    /// The shape Foundation's Markdown parser gives (intents only, no newlines between blocks)
    /// for "# Groceries", "- milk", "- **eggs**", "1. [shop](https://shop.example)", "> *soon*",
    /// a fenced code block, and "~~old~~ `x`".
    @Test func markdownShapedTextReadsAsItsBlocks() throws {
        func run(_ text: String, _ blocks: [(PresentedBlock.Kind, Int)], _ inline: InlineIntent = [], link: String? = nil) -> PresentedRun {
            var run = PresentedRun(text: text)
            run.blocks = blocks.map { PresentedBlock($0.0, identity: $0.1) }
            run.inline = inline
            run.link = link.flatMap(URL.init(string:))
            return run
        }
        let runs = [
            run("Groceries", [(.header(level: 1), 1)]),
            run("milk", [(.paragraph, 4), (.listItem(ordinal: 1), 3), (.unorderedList, 2)]),
            run("eggs", [(.paragraph, 6), (.listItem(ordinal: 2), 5), (.unorderedList, 2)], .stronglyEmphasized),
            run("shop", [(.paragraph, 9), (.listItem(ordinal: 1), 8), (.orderedList, 7)], link: "https://shop.example"),
            run("soon", [(.paragraph, 11), (.blockQuote, 10)], .emphasized),
            run("let x = 1\nlet y = 2\n", [(.codeBlock, 12)]),
            run("old", [(.paragraph, 13)], .strikethrough),
            run(" ", [(.paragraph, 13)]),
            run("x", [(.paragraph, 13)], .code),
        ]
        let note = try Self.note(from: runs)
        #expect(note.string == "Groceries\nmilk\neggs\nshop\nsoon\nlet x = 1\nlet y = 2\nold x")
        func attributes(_ heading: Int = 0, _ list: ParagraphList = .none, quote: Bool = false, code: Bool = false) -> ParagraphAttributes {
            var p = ParagraphAttributes()
            (p.heading, p.list, p.quote, p.codeBlock) = (heading, list, quote, code)
            return p
        }
        let spans = try note.formattedSpans()
        #expect(spans.map(\.text) == ["Groceries\n", "milk\n", "eggs", "\n", "shop", "\n", "soon", "\n", "let x = 1\nlet y = 2\n", "old", " ", "x"])
        #expect(spans.map(\.paragraph) == [attributes(1), attributes(0, .bullet), attributes(0, .bullet), attributes(0, .bullet),
                                           attributes(0, .number), attributes(0, .number), attributes(quote: true), attributes(quote: true),
                                           attributes(code: true), attributes(), attributes(), attributes()])
        #expect(spans.map(\.marks) == [[], [], [.bold], [], [.link("https://shop.example")], [], [.italic], [], [], [.strikethrough], [], [.code]])
    }

    @Test func highlightColoursAndHeadingStyles() {
        #expect(HighlightColor("#FF8000") == HighlightColor(red: 1, green: 128.0 / 255, blue: 0))
        #expect(HighlightColor("yellow") == HighlightColor("#fff59d"))
        #expect(HighlightColor("Green") == HighlightColor("#c5e1a5"))
        for unknown in ["#+12345", "#12345", "ff8000", "chartreuse"] { #expect(HighlightColor(unknown) == HighlightColor("yellow")) }
        #expect((0...7).map(HeadingTextStyle.init(level:)) == [nil, .title1, .title2, .title3, .headline, .subheadline, .callout, nil])
        // The Apple-only layer's tables of fonts and text styles list six styles in this order.
        #expect(HeadingTextStyle.allCases.map(\.rawValue) == Array(0..<6))
        // A header level Markdown cannot write is refused, not clamped.
        var run = PresentedRun(text: "deep")
        run.blocks = [PresentedBlock(.header(level: 7), identity: 1)]
        #expect(throws: NoteTextError.self) { try PresentedRun.spans(of: [run]) }
    }
}
