import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// The attributes index (`attributes(atUTF16:)`, cached until a note changes) against the
/// per-character reference resolution (`FormattingOracle`, written apart from it), on replicas
/// that edit, format, merge and keep old copies of themselves: copies share the cache until one
/// changes, so an answer read through a copy made before a change, or through the changed
/// note, must still be that copy's own.
@Suite struct AttributeIndexTests {
    static let marks: [TextMark] = [.bold, .italic, .underline, .code, .link("https://x.example"), .highlight("red")]

    @Test(arguments: Array(1...16) as [UInt64])
    func everyCopyReadsItsOwnAttributes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var notes = (1...3).map { NoteText(replica: .test(seed &* 8 &+ UInt64($0))) }
        var kept: [NoteText] = []
        for step in 0..<60 {
            let r = Int.random(in: 0..<notes.count, using: &rng)
            try Self.randomStep(&notes, r, &rng)
            // Read now (filling the cache), and sometimes keep a copy that shares it.
            try Self.check(notes[r], &rng, "seed \(seed), step \(step), replica \(r)")
            if Int.random(in: 0..<4, using: &rng) == 0 { kept.append(notes[r]) }
            if let old = kept.randomElement(using: &rng) { try Self.check(old, &rng, "seed \(seed), step \(step), a kept copy") }
        }
        for i in notes.indices { for j in notes.indices where i != j { try notes[i].merge(notes[j]) } }
        for note in notes + kept { try Self.check(note, &rng, "seed \(seed), at the end") }
    }

    /// One random edit, formatting command or merge on replica `r`.
    static func randomStep(_ notes: inout [NoteText], _ r: Int, _ rng: inout SplitMix64) throws {
        let scalarCount = notes[r].scalarCount
        let a = Int.random(in: 0...scalarCount, using: &rng)
        let b = Int.random(in: a...Swift.min(scalarCount, a + 12), using: &rng)
        let range = try notes[r].utf16Offset(forScalar: a)..<notes[r].utf16Offset(forScalar: b)
        switch Int.random(in: 0..<9, using: &rng) {
        case 0, 1:
            try notes[r].insert(RandomText.make(&rng, maxPieces: 3) + (Bool.random(using: &rng) ? "\n" : ""), atUTF16Offset: range.lowerBound)
        case 2:
            try notes[r].replaceUTF16(in: range, with: "")
        case 3, 4:
            let mark = marks[Int.random(in: 0..<marks.count, using: &rng)]
            if Int.random(in: 0..<3, using: &rng) == 0 { try notes[r].removeMark(mark.kind, utf16Range: range) } else { try notes[r].setMark(mark, utf16Range: range) }
        case 5:
            try notes[r].setParagraphAttribute(Bool.random(using: &rng) ? .heading(Int.random(in: 0...3, using: &rng)) : .list(.bullet), utf16Range: range)
        case 6, 7:
            // Only formatting arrives (the index is updated, not resolved again): the two copies
            // sync, then this one types while the other formats what it has, then this one merges.
            let other = (r + 1 + Int.random(in: 0..<notes.count - 1, using: &rng)) % notes.count
            try notes[other].merge(notes[r])
            try notes[r].merge(notes[other])
            if Bool.random(using: &rng) {
                let at = try notes[r].utf16Offset(forScalar: Int.random(in: 0...notes[r].scalarCount, using: &rng))
                try notes[r].insert(RandomText.make(&rng, maxPieces: 2), atUTF16Offset: at)
            }
            _ = try notes[r].formattedSpans()  // a view shows it: its index is built
            for _ in 0..<Int.random(in: 1...3, using: &rng) { try randomFormatting(&notes[other], &rng) }
            let before = try FormattedFakeView(notes[r])
            let patch = try notes[r].merge(notes[other])
            var view = before
            view.apply(patch)
            #expect(view == (try FormattedFakeView(notes[r])), "a formatting-only merge's patch")
        default:
            let other = Int.random(in: 0..<notes.count, using: &rng)
            if other != r { try notes[r].merge(notes[other]) }
        }
    }

    /// A random mark, unmark or paragraph attribute on `note`.
    static func randomFormatting(_ note: inout NoteText, _ rng: inout SplitMix64) throws {
        let a = Int.random(in: 0...note.scalarCount, using: &rng)
        let b = Int.random(in: a...Swift.min(note.scalarCount, a + 12), using: &rng)
        let range = try note.utf16Offset(forScalar: a)..<note.utf16Offset(forScalar: b)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: try note.removeMark(marks[Int.random(in: 0..<marks.count, using: &rng)].kind, utf16Range: range)
        case 1: try note.setParagraphAttribute(.heading(Int.random(in: 0...2, using: &rng)), utf16Range: range)
        default: try note.setMark(marks[Int.random(in: 0..<marks.count, using: &rng)], utf16Range: range)
        }
    }

    /// `attributes(atUTF16:)` at a few random characters of `note`, and `formattedSpans()`,
    /// against the oracle.
    static func check(_ note: NoteText, _ rng: inout SplitMix64, _ context: String) throws {
        let versions = Dictionary(uniqueKeysWithValues: note.formatting.marks.map { ($0, VersionVector($0.coreVersion.mapValues(UInt64.init))) })
        let expected = try FormattingOracle(note, versions: versions).characters(note.formatting)
        #expect(expected.count == note.scalarCount, "\(context)")
        guard note.scalarCount > 0 else { return }
        for _ in 0..<4 {
            let k = Int.random(in: 0..<note.scalarCount, using: &rng)
            let got = try note.attributes(atUTF16: note.utf16Offset(forScalar: k))
            let marks = Dictionary(uniqueKeysWithValues: got.marks.map { ($0.kind.rawValue, $0.value) })
            #expect(marks == expected[k].marks && got.paragraph == expected[k].paragraph,
                    "\(context), character \(k): \(got) but the oracle says \(expected[k])")
        }
        let spans = try note.formattedSpans()
        #expect(spans.map(\.text).joined() == note.string, "\(context)")
    }

    @Test func positionsOutsideTheTextAreRefused() throws {
        var note = try NoteText("ab", replica: .test(1))
        try note.setMark(.bold, utf16Range: 0..<1)
        #expect(try note.attributes(atUTF16: 0).mark(.bold) == .bold)
        #expect(try note.attributes(atUTF16: 1).mark(.bold) == nil)
        #expect(throws: NoteTextError.self) { try note.attributes(atUTF16: 2) }
        #expect(throws: NoteTextError.self) { try note.attributes(atUTF16: -1) }
        #expect(throws: NoteTextError.self) { try NoteText(replica: .test(2)).attributes(atUTF16: 0) }
    }
}
