import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteToolSupport

/// Typing into a formatted note updates its attributes index from the runs before the edit
/// (AttributeRuns+LocalEdit.swift) and answers typing attributes from the caret's neighbours,
/// instead of resolving the note: checked against the per-character reference resolution
/// (`FormattingOracle`, written apart from both) and a fresh resolution, on replicas that
/// format, merge and keep copies that share the index, then type, backspace and replace.
@Suite struct IncrementalAttributeIndexTests {
    static let typed = ["a", "b", " ", "word ", "é", "👋", "xy"]

    @Test(arguments: Array(1...24) as [UInt64])
    func typingUpdatesTheIndexAsResolutionWould(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 1_000)
        var notes = (1...3).map { NoteText(replica: .test(seed &* 8 &+ UInt64($0))) }
        try notes[0].insert("Hello bold world\nsecond line here", atUTF16Offset: 0)
        var keystrokes = 0, updated = 0, typedAnswered = 0
        for step in 0..<40 {
            let r = Int.random(in: 0..<notes.count, using: &rng)
            try AttributeIndexTests.randomStep(&notes, r, &rng)
            _ = try notes[r].formattedSpans()  // a view shows it: its index is built
            var kept: NoteText?
            if Int.random(in: 0..<4, using: &rng) == 0 { kept = notes[r] }  // a copy sharing the index
            for key in 0..<Int.random(in: 1...6, using: &rng) {
                let context = "seed \(seed), step \(step), keystroke \(key)"
                let count = notes[r].scalarCount
                let a = Int.random(in: 0...count, using: &rng)
                let b = Bool.random(using: &rng) ? a : Int.random(in: a...Swift.min(count, a + 3), using: &rng)
                let range = try notes[r].utf16Offset(forScalar: a)..<notes[r].utf16Offset(forScalar: b)
                let text = Int.random(in: 0..<4, using: &rng) == 0 ? "" : Self.typed[Int.random(in: 0..<Self.typed.count, using: &rng)]
                let promised = try notes[r].typedAttributes(replacingUTF16: range)
                try notes[r].replaceUTF16(in: range, with: text)
                keystrokes += 1
                let expected = try Self.oracle(notes[r])
                let runs = try notes[r].attributeRuns()
                if notes[r].attributeCache?.lastFill == .updated { updated += 1 }
                try Self.expectAgreement(runs, notes[r], expected, context)
                // What the caret's neighbours promised is what the typed text got.
                if let promised, !text.isEmpty {
                    typedAnswered += 1
                    let k = a
                    #expect(Self.marks(promised) == expected[k].marks && promised.paragraph == expected[k].paragraph,
                            "\(context): typing attributes \(promised) but the typed text has \(expected[k])")
                }
            }
            if let kept { try Self.expectAgreement(kept.attributeRuns(), kept, Self.oracle(kept), "seed \(seed), step \(step), the kept copy") }
        }
        // The update and the neighbours' answer are what typing takes, not the exception.
        #expect(updated * 2 >= keystrokes, "seed \(seed): \(updated) of \(keystrokes) keystrokes updated the index")
        #expect(typedAnswered > 0, "seed \(seed): no typing attributes answered from the neighbours")
    }

    /// With undo on, a mark command reads the index for its undo step and updates it where the
    /// mark covers: the next command and read find it current (no resolution of the note), and
    /// it agrees with the reference resolution; undo gives back what each command changed.
    @Test(arguments: Array(1...12) as [UInt64])
    func markCommandsWithUndoKeepTheIndex(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 2_000)
        var note = try NoteText("Hello bold world\nsecond line here, and a third one", replica: .test(seed &+ 1))
        note.undoLimit = 50
        var states = [try note.formattedSpans()]
        for step in 0..<25 {
            let count = note.utf16Count
            let a = Int.random(in: 0..<count, using: &rng)
            let range = a..<Swift.min(count, a + 1 + Int.random(in: 0..<10, using: &rng))
            let mark = FormattedViewPropertyTests.marks[Int.random(in: 0..<FormattedViewPropertyTests.marks.count, using: &rng)]
            if Int.random(in: 0..<3, using: &rng) == 0 { try note.removeMark(mark.kind, utf16Range: range) } else { try note.setMark(mark, utf16Range: range) }
            let runs = try note.attributeRuns()
            #expect(note.attributeCache?.lastFill == .stored, "seed \(seed), step \(step): the command left the index to resolve")
            try Self.expectAgreement(runs, note, Self.oracle(note), "seed \(seed), step \(step)")
            states.append(try note.formattedSpans())
        }
        while note.canUndo {
            try note.undo()
            states.removeLast()
            #expect(try note.formattedSpans() == states.last, "seed \(seed): undo to state \(states.count - 1)")
        }
    }

    /// Right after a link the winner's range stops before the typed text: the next latest link
    /// covering the character before the caret, if any, takes over, still without resolving.
    @Test func typingRightAfterALinkFollowsTheRules() throws {
        var note = try NoteText("see here now", replica: .test(1))
        try note.setMark(.link("https://a.example"), utf16Range: 4..<8)  // "here"
        _ = try note.formattedSpans()
        let promised = try #require(try note.typedAttributes(replacingUTF16: 8..<8))
        #expect(promised.mark(.link) == nil)
        try note.insert("!", atUTF16Offset: 8)
        _ = try note.attributeRuns()
        #expect(note.attributeCache?.lastFill == .updated)
        #expect(try note.attributes(atUTF16: 8).mark(.link) == nil)
        #expect(try note.attributes(atUTF16: 7).mark(.link) == .link("https://a.example"))

        // An older link over the whole text: text typed after the inner one joins the outer one.
        var nested = try NoteText("see here now", replica: .test(2))
        try nested.setMark(.link("https://outer.example"), utf16Range: 0..<12)
        try nested.setMark(.link("https://inner.example"), utf16Range: 4..<8)
        _ = try nested.formattedSpans()
        #expect(try nested.typedAttributes(replacingUTF16: 8..<8)?.mark(.link) == .link("https://outer.example"))
        try nested.insert("!", atUTF16Offset: 8)
        _ = try nested.attributeRuns()
        #expect(nested.attributeCache?.lastFill == .updated)
        let expected = try Self.oracle(nested)
        #expect(expected[8].marks == ["link": "https://outer.example"])
        try Self.expectAgreement(nested.attributeRuns(), nested, expected, "nested links")
    }

    /// The oracle's attributes of every visible character of `note`.
    static func oracle(_ note: NoteText) throws -> [(marks: [String: String], paragraph: ParagraphAttributes)] {
        let versions = Dictionary(uniqueKeysWithValues: note.formatting.marks.map { ($0, VersionVector($0.coreVersion.mapValues(UInt64.init))) })
        return try FormattingOracle(note, versions: versions).characters(note.formatting)
    }

    static func marks(_ attributes: TextAttributes) -> [String: String] {
        Dictionary(uniqueKeysWithValues: attributes.marks.map { ($0.kind.rawValue, $0.value) })
    }

    /// `runs` (the index `note` read) against the oracle per character, and against a fresh
    /// resolution per character (winners included) and in its UTF-16 starts.
    static func expectAgreement(_ runs: AttributeRuns, _ note: NoteText,
                                _ expected: [(marks: [String: String], paragraph: ParagraphAttributes)], _ context: String) throws {
        let sequence = try note.indexForReading()
        let fresh = AttributeRuns(resolving: note.formatting, in: sequence)
        #expect(runs.scalarCount == note.scalarCount && runs.utf16Count == note.utf16Count, "\(context)")
        let got = runs.perScalar()
        #expect(got.count == expected.count, "\(context)")
        for k in 0..<Swift.min(got.count, expected.count) where Self.marks(got[k]) != expected[k].marks || got[k].paragraph != expected[k].paragraph {
            Issue.record("\(context), character \(k): \(got[k]) but the oracle says \(expected[k])")
            break
        }
        let resolved = fresh.perScalar()
        if let k = (0..<Swift.min(got.count, resolved.count)).first(where: { got[$0] != resolved[$0] }) {
            Issue.record("\(context), character \(k): \(got[k]) but a fresh resolution gives \(resolved[k])")
        }
        for k in 0..<note.scalarCount where runs.winners[runs.run(atScalar: k)] != fresh.winners[fresh.run(atScalar: k)] {
            Issue.record("\(context), character \(k): winners differ from a fresh resolution")
            break
        }
        for i in 0..<runs.count {
            #expect(runs.utf16Starts[i] == sequence.utf16Offset(ofScalar: runs.scalarStarts[i]), "\(context), run \(i)")
            #expect(!runs.scalars(ofRun: i).isEmpty, "\(context), run \(i) is empty")
        }
    }
}
