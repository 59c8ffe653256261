import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// The operations a device makes for a mark or a paragraph attribute, read from the note's
/// index (O(log n + range)), against the same fields read off the whole element order
/// (`elementsInOrder`, the reference reading), on notes with tombstones from several replicas.
@Suite struct LocalFormattingOperationTests {
    static let kinds: [MarkKind] = [.bold, .link, MarkKind(name: "x-both", expansion: MarkExpansion(growsAtStart: true, growsAtEnd: true))]

    /// Three replicas edit, delete and merge at random; after each step, a random range's
    /// mark operation (every expansion rule) and paragraph operations equal the reference's.
    @Test(arguments: Array(1...25) as [UInt64])
    func operationsEqualTheReferenceReading(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var notes = (1...3).map { NoteText(replica: .test(UInt64($0))) }
        for _ in 0..<60 {
            let i = Int.random(in: 0..<notes.count, using: &rng)
            let count = notes[i].scalarCount
            let lo = Int.random(in: 0...count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0, 1: try notes[i].insert(RandomText.make(&rng, maxPieces: 6), atScalarOffset: lo)
            case 2: try notes[i].deleteScalars(in: lo..<min(count, lo + Int.random(in: 0...5, using: &rng)))
            default: try notes[i].merge(notes[Int.random(in: 0..<notes.count, using: &rng)])
            }
            let note = notes[i]
            let n = note.scalarCount
            let start = Int.random(in: 0...n, using: &rng)
            let range = start..<min(n, start + Int.random(in: 0...12, using: &rng))
            let reference = try Reference(note)
            for kind in Self.kinds {
                let made = try NoteFormatting.mark(kind, "v", scalars: range, in: note, stamp: .zero, replica: note.replica)
                #expect(made == reference.mark(kind, range, note), "seed \(seed), \(kind.name) on \(range)")
            }
            let keys = try NoteFormatting.setParagraph(.quote(true), scalars: range, in: note, stamp: .zero, replica: note.replica).map(\.key)
            #expect(keys == reference.paragraphKeys(range), "seed \(seed), paragraphs of \(range)")
        }
    }

    /// The fields of a local operation, read off the element order.
    struct Reference {
        let elements: [NoteElement]
        let visible: [NoteElement]

        init(_ note: NoteText) throws {
            elements = try note.elementsInOrder()
            visible = elements.filter { $0.scalar != nil }
        }

        func mark(_ kind: MarkKind, _ range: Range<Int>, _ note: NoteText) -> MarkOperation? {
            guard !range.isEmpty else { return nil }
            let first = visible[range.lowerBound].id, last = visible[range.upperBound - 1].id
            let lo = elements.firstIndex { $0.id == first }!, hi = elements.firstIndex { $0.id == last }!
            var core: [ReplicaID: UInt32] = [:]
            for element in elements[lo...hi] { core[element.id.replica] = UInt32(note.version[element.id.replica]) }
            let start: MarkBoundary = !kind.expansion.growsAtStart ? .before(first)
                : range.lowerBound == 0 ? .documentStart : .after(visible[range.lowerBound - 1].id)
            let end: MarkBoundary = !kind.expansion.growsAtEnd ? .after(last)
                : range.upperBound == visible.count ? .documentEnd : .before(visible[range.upperBound].id)
            return MarkOperation(name: kind.name, value: "v", start: start, end: end, first: first, last: last,
                                 coreVersion: core, stamp: .zero, replica: note.replica)
        }

        func paragraphKeys(_ range: Range<Int>) -> [ParagraphKey] {
            let before = visible[..<range.lowerBound].lastIndex { $0.scalar == "\n" }
            var keys: [ParagraphKey] = [before.map { .newline(visible[$0].id) } ?? .documentStart]
            for k in range.dropLast() where visible[k].scalar == "\n" { keys.append(.newline(visible[k].id)) }
            return keys
        }
    }
}

/// Typing a newline into a paragraph with attributes, through every local way of typing text:
/// both halves keep the attributes (Docs/FORMAT.md §10.5, "Split").
@Suite struct ParagraphSplitWhileTypingTests {
    func heading(_ level: Int) -> ParagraphAttributes {
        var attributes = ParagraphAttributes()
        attributes.heading = level
        return attributes
    }

    /// Each visible character's paragraph attributes, from the public spans.
    func paragraphs(_ note: NoteText) throws -> [ParagraphAttributes] {
        try note.formattedSpans().flatMap { span in Array(repeating: span.paragraph, count: span.text.unicodeScalars.count) }
    }

    @Test func aNewlineTypedInAHeadingMakesTwoHeadings() throws {
        var note = try NoteText("Title\nbody", replica: .test(1))
        try note.setParagraphAttribute(.heading(1), utf16Range: 0..<0)
        try note.insert("\n", atScalarOffset: 2)
        #expect(note.string == "Ti\ntle\nbody")
        #expect(try paragraphs(note) == Array(repeating: heading(1), count: 7) + Array(repeating: ParagraphAttributes(), count: 4))
    }

    @Test func pastedLinesInAListItemAreListItems() throws {
        var note = try NoteText("- item\nafter", replica: .test(1))
        try note.setParagraphAttribute(.list(.check), utf16Range: 0..<1)
        try note.setParagraphAttribute(.checked(true), utf16Range: 0..<1)
        try note.insert("\ntwo\nthree", atScalarOffset: 6)
        var item = ParagraphAttributes()
        item.list = .check
        item.checked = true
        let lines = note.string.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == ["- item", "two", "three", "after"])
        #expect(try paragraphs(note) == Array(repeating: item, count: 17) + Array(repeating: ParagraphAttributes(), count: 5))
    }

    @Test func setTextThatAddsANewlineSplitsToo() throws {
        var note = try NoteText("Heading text\nbody", replica: .test(1))
        try note.setParagraphAttribute(.heading(2), utf16Range: 0..<3)
        try note.setText("Heading\ntext\nbody")
        #expect(try paragraphs(note) == Array(repeating: heading(2), count: 13) + Array(repeating: ParagraphAttributes(), count: 4))
    }

    @Test func aNoteWithoutParagraphAttributesMakesNoOperations() throws {
        var note = try NoteText("a\nb", replica: .test(1))
        try note.setMark(.bold, utf16Range: 0..<1)
        try note.insert("\n\n", atScalarOffset: 1)
        #expect(note.formatting.paragraphs.isEmpty)
        #expect(note.formatting.marks.count == 1)
    }

    /// A merged copy sees both halves with the attributes: the copies are operations.
    @Test func theSplitReachesOtherDevices() throws {
        var a = try NoteText("Title", replica: .test(1))
        try a.setParagraphAttribute(.heading(3), utf16Range: 0..<0)
        var b = a.forked(as: .test(2))
        try a.insert("\n", atScalarOffset: 3)
        try b.merge(a)
        #expect(try paragraphs(b) == Array(repeating: heading(3), count: 6))
    }
}
