@testable import CRDTNote
import CRDTNoteToolSupport
import Testing

/// The derived title: the first non-blank line, trimmed, at most 100 characters, checked
/// against a reference that splits the whole text into lines first.
@Suite struct NoteTitleTests {
    static func reference(_ text: String) -> String {
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let trimmed = line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            if !trimmed.isEmpty { return String(String(trimmed).prefix(NoteTitle.maximumLength)) }
        }
        return ""
    }

    @Test func examples() {
        #expect(NoteTitle.derive(fromPrefix: Array("\n \t\n  Groceries  \nmilk".utf8)) == "Groceries")
        #expect(NoteTitle.derive(fromPrefix: Array(" \r\n\u{2028} ".utf8)) == "")
        #expect(NoteTitle.derive(fromPrefix: Array(String(repeating: "é", count: 150).utf8)) == String(repeating: "é", count: 100))
    }

    @Test func agreesWithSplittingEveryLine() {
        var rng = SplitMix64(seed: 0x717E)
        let pieces = ["\n", "\r\n", "\r", " ", "\t", "\u{2028}", "\u{00A0}", "a", "é", "e\u{301}", "🍎", "word", "\u{85}"]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 40) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
            #expect(NoteTitle.derive(fromPrefix: Array(text.utf8)) == Self.reference(text), "\(text.debugDescription)")
        }
    }
}
