import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// `setFormattedText`: random attributed targets are reached exactly, and only what differs is
/// recorded (formatting operations bounded by the stretches that differ, none for no change).
@Suite struct FormattedTextUpdateTests {
    static let words = ["alpha ", "beta ", "gamma", "\n", "δέλτα ", "👋 ", "x", "longer words here "]

    /// A random attributed text: random pieces, each with random marks; paragraphs take random
    /// attributes, set on every character of the paragraph.
    static func randomSpans(_ rng: inout SplitMix64) -> [FormattedSpan] {
        var pieces: [(String, [TextMark])] = []
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            let marks = FormattedViewPropertyTests.marks.filter { _ in Int.random(in: 0..<4, using: &rng) == 0 }
            let unique = Dictionary(marks.map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a }).values
            pieces.append((words.randomElement(using: &rng)!, Array(unique)))
        }
        var paragraph = ParagraphAttributes()
        var spans: [FormattedSpan] = []
        func nextParagraph() {
            paragraph = ParagraphAttributes()
            for attribute in FormattedViewPropertyTests.paragraphs where Int.random(in: 0..<5, using: &rng) == 0 { paragraph.apply(attribute) }
        }
        nextParagraph()
        for (text, marks) in pieces {
            for scalar in text.unicodeScalars {
                spans.append(FormattedSpan(text: String(scalar), utf16Range: 0..<0, marks: TextAttributes(marks: marks).marks, paragraph: paragraph))
                if scalar == "\n" { nextParagraph() }
            }
        }
        return spans
    }

    /// Per scalar: text and attributes (span boundaries and ranges aside).
    static func characters(_ spans: [FormattedSpan]) -> [String] {
        spans.flatMap { span in span.text.unicodeScalars.map { "\($0)|\(span.marks)|\(span.paragraph)" } }
    }

    @Test(arguments: Array(1...40) as [UInt64])
    func randomTargetsAreReachedWithFewOperations(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var note = try NoteText("", replica: .test(1))
        note.undoLimit = 10
        var remote = note.forked(as: .test(2))
        for round in 0..<6 {
            let target = Self.randomSpans(&rng)
            try note.setFormattedText(target)
            #expect(Self.characters(try note.formattedSpans()) == Self.characters(target), "seed \(seed) round \(round)")
            // Reaching it again records nothing at all.
            let operations = note.formatting.operationCount, version = note.version
            try note.setFormattedText(try note.formattedSpans())
            #expect(note.formatting.operationCount == operations && note.version == version)
            // One mark changed on one stretch: one operation.
            if note.scalarCount > 2 {
                var changed = try note.formattedSpans()
                let i = Int.random(in: 0..<changed.count, using: &rng)
                let hadBold = changed[i].marks.contains(.bold)
                changed[i].marks = TextAttributes(marks: hadBold ? changed[i].marks.filter { $0 != .bold } : changed[i].marks + [.bold]).marks
                try note.setFormattedText(changed)
                #expect(note.formatting.operationCount == operations + 1, "seed \(seed) round \(round)")
                #expect(Self.characters(try note.formattedSpans()) == Self.characters(changed))
            }
            // Another device's concurrent work merges in.
            if Bool.random(using: &rng) {
                try FormattedViewPropertyTests.remoteWork(&remote, &rng)
                try note.merge(remote)
                try remote.merge(note)
            }
        }
    }

    @Test func typingAWordInsideBoldRecordsNoFormatting() throws {
        var note = try NoteText("make it bold now", replica: .test(1))
        try note.setMark(.bold, utf16Range: 8..<12)
        var target = try note.formattedSpans()
        #expect(target.map(\.text) == ["make it ", "bold", " now"])
        target[1].text = "bolder"
        let operations = note.formatting.operationCount
        try note.setFormattedText(target)
        #expect(try note.formattedSpans().map(\.text) == ["make it ", "bolder", " now"])
        #expect(note.formatting.operationCount == operations, "the typed letters join the bold range by its expansion rule")
    }
}
