import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// The local-edit shortcuts (typing cursor, edit cursor, deleting by moving a run boundary,
/// the held-back Fenwick change) against a plain model, with every invariant checked after
/// every edit: typing, backspacing and deleting forwards near one spot, with multi-byte and
/// astral characters, jumps elsewhere, and merges in between.
@Suite struct NoteTextCursorTests {
    static let alphabet: [String] = ["a", "b", "é", "ж", "語", "😀", " ", "\n"]

    @Test(arguments: [21, 22, 23, 24] as [UInt64])
    func editsNearOneSpotMatchAPlainModel(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var note = NoteText(replica: .test(1))
        var other = NoteText(replica: .test(2))
        var model: [Unicode.Scalar] = []
        var cursor = 0
        for step in 0..<3000 {
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < 5 {
                cursor = Int.random(in: 0...model.count, using: &rng)
            } else if roll < 50 || model.isEmpty {
                let text = Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &rng)]
                try note.insert(text, atScalarOffset: cursor)
                model.insert(contentsOf: text.unicodeScalars, at: cursor)
                cursor += text.unicodeScalars.count
            } else if roll < 75, cursor > 0 {
                try note.deleteScalars(in: cursor - 1..<cursor)
                model.remove(at: cursor - 1)
                cursor -= 1
            } else if roll < 97, cursor < model.count {
                try note.deleteScalars(in: cursor..<cursor + 1)
                model.remove(at: cursor)
            } else if roll < 99, cursor < model.count {
                let end = min(model.count, cursor + Int.random(in: 1...5, using: &rng))
                try note.replaceScalars(in: cursor..<end, with: "xy")
                model.replaceSubrange(cursor..<end, with: "xy".unicodeScalars)
                cursor += 2
            } else {
                // A merge resets every cursor; the other side edits too.
                try other.merge(note)
                try other.insert("m", atScalarOffset: 0)
                try note.merge(other)
                model.insert("m", at: 0)
                cursor += 1
            }
            #expect(note.invariantViolations == [], "step \(step)")
            var expected = String.UnicodeScalarView()
            expected.append(contentsOf: model)
            if step % 50 == 0 { #expect(note.string == String(expected), "step \(step)") }
            #expect(note.scalarCount == model.count)
        }
        var expected = String.UnicodeScalarView()
        expected.append(contentsOf: model)
        #expect(note.string == String(expected))
        #expect(note.utf16Count == String(expected).utf16.count)
        let reloaded = try NoteText(snapshot: note.encodedSnapshot(), replica: .test(3))
        #expect(reloaded.string == note.string)
    }
}
