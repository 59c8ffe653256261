import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

@Suite struct NoteTextEditingTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomScalarEditsMatchAPlainModel(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var note = NoteText(replica: .test(7))
        var model: [Unicode.Scalar] = []
        for step in 0..<1500 {
            if model.isEmpty || Int.random(in: 0..<3, using: &rng) != 0 {
                let text = RandomText.make(&rng)
                let at = Int.random(in: 0...model.count, using: &rng)
                try note.insert(text, atScalarOffset: at)
                model.insert(contentsOf: text.unicodeScalars, at: at)
            } else {
                let lo = Int.random(in: 0..<model.count, using: &rng)
                let hi = min(model.count, lo + Int.random(in: 1...12, using: &rng))
                try note.deleteScalars(in: lo..<hi)
                model.removeSubrange(lo..<hi)
            }
            if step % 100 == 0 { #expect(note.invariantViolations == []) }
        }
        var expected = String.UnicodeScalarView()
        expected.append(contentsOf: model)
        #expect(note.string == String(expected))
        #expect(note.scalarCount == model.count)
        #expect(note.utf16Count == String(expected).utf16.count)
        #expect(note.invariantViolations == [])
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func randomUTF16EditsMatchFoundationStyleOffsets(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var note = NoteText(replica: .test(3))
        var model = ""
        for _ in 0..<800 {
            let units = Array(model.utf16)
            // Pick UTF-16 offsets on scalar boundaries, as a text view would.
            let boundaries = model.unicodeScalars.indices.map { $0.utf16Offset(in: model) } + [units.count]
            if units.isEmpty || Bool.random(using: &rng) {
                let text = RandomText.make(&rng)
                let at = boundaries.randomElement(using: &rng) ?? 0
                try note.insert(text, atUTF16Offset: at)
                let index = String.Index(utf16Offset: at, in: model)
                model.unicodeScalars.insert(contentsOf: text.unicodeScalars, at: index)
            } else {
                let a = boundaries.randomElement(using: &rng) ?? 0
                let b = boundaries.randomElement(using: &rng) ?? 0
                let range = min(a, b)..<max(a, b)
                try note.deleteUTF16(in: range)
                model.unicodeScalars.removeSubrange(String.Index(utf16Offset: range.lowerBound, in: model)..<String.Index(utf16Offset: range.upperBound, in: model))
            }
        }
        #expect(note.string == model)
        #expect(note.invariantViolations == [])
    }

    /// `setText` used to keep the old text silently when the result was too large.
    @Test func setTextPastTheReplicaLimitThrowsAndChangesNothing() throws {
        var note = try NoteText("abc", replica: .test(1))
        let local = try #require(note.localIndexIfAny)
        note.sequence.nextSeq[Int(local)] = UInt32.max - 2   // as if this replica had typed 4 billion characters
        #expect(throws: NoteTextError.self) { try note.setText("abc and more") }
        do {
            try note.setText("abc and more")
        } catch {
            #expect(error.code == .tooLarge)
        }
        #expect(note.string == "abc")
        try note.setText("ab")                               // deleting needs no new ids
        #expect(note.string == "ab")
    }

    @Test func offsetsOutsideTheTextAreTypedErrors() throws {
        var note = try NoteText("abc", replica: .test(1))
        #expect(throws: NoteTextError.self) { try note.insert("x", atScalarOffset: 4) }
        #expect(throws: NoteTextError.self) { try note.insert("x", atScalarOffset: -1) }
        #expect(throws: NoteTextError.self) { try note.deleteScalars(in: 2..<5) }
        #expect(throws: NoteTextError.self) { try note.deleteUTF16(in: 0..<9) }
        #expect(note.string == "abc")
    }

    @Test func utf16OffsetInsideASurrogatePairIsRefused() throws {
        var note = try NoteText("a😀b", replica: .test(1))
        do {
            try note.insert("x", atUTF16Offset: 2)
            Issue.record("inserting inside a surrogate pair succeeded")
        } catch {
            #expect(error.code == .insideSurrogatePair)
        }
        #expect(throws: NoteTextError.self) { try note.deleteUTF16(in: 1..<2) }
        try note.insert("x", atUTF16Offset: 3)
        #expect(note.string == "a😀xb")
        #expect(try note.scalarRange(forUTF16: 1..<3) == 1..<2)
        #expect(try note.utf16Offset(forScalar: 2) == 3)
    }

    @Test(arguments: [21, 22, 23, 24] as [UInt64])
    func setTextReachesTheNewTextWithFewEdits(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var note = NoteText(replica: .test(5))
        var text = ""
        for _ in 0..<200 {
            var scalars = Array(text.unicodeScalars)
            let edits = Int.random(in: 1...3, using: &rng)
            for _ in 0..<edits {
                if scalars.isEmpty || Bool.random(using: &rng) {
                    scalars.insert(contentsOf: RandomText.make(&rng).unicodeScalars, at: Int.random(in: 0...scalars.count, using: &rng))
                } else {
                    let lo = Int.random(in: 0..<scalars.count, using: &rng)
                    scalars.removeSubrange(lo..<min(scalars.count, lo + Int.random(in: 1...5, using: &rng)))
                }
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            text = String(view)
            try note.setText(text)
            #expect(note.string == text)
        }
        #expect(note.invariantViolations == [])
    }

    @Test func aOneCharacterChangeInALargeNoteInsertsOneCharacter() throws {
        let big = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 25_000)
        var note = try NoteText(big, replica: .test(9))
        let before = note.version[.test(9)]
        var changed = big
        changed.insert("!", at: changed.index(changed.startIndex, offsetBy: 500_000))
        try note.setText(changed)
        #expect(note.string == changed)
        #expect(note.version[.test(9)] == before + 1)
    }

    @Test func typingExtendsOneRun() throws {
        var note = NoteText(replica: .test(1))
        for (i, ch) in "hello world".unicodeScalars.enumerated() {
            try note.insert(String(ch), atScalarOffset: i)
        }
        #expect(note.runCount == 1)
        try note.deleteScalars(in: 10..<11)
        try note.deleteScalars(in: 9..<10)
        #expect(note.string == "hello wor")
        #expect(note.runCount == 2)
    }
}
