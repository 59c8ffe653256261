import Testing
@testable import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport
import CRDTNoteTestSupport

/// The whole-text diff (Docs/RECORD-FORMAT.md, "Folding plain text: the diff, version 2"): exact results, edit placement, bounded cost.
@Suite struct TextDiffTests {
    /// Applies edits to an array of scalars, independently of NoteText.
    static func apply(_ edits: [TextDiff.Edit], to old: String) -> String {
        var scalars = Array(old.unicodeScalars)
        var previous = Int.max
        for edit in edits {
            precondition(edit.offset + edit.deleteCount <= previous, "edits must run from the end backwards, not overlapping")
            previous = edit.offset
            let inserted = String(decoding: edit.insert, as: UTF8.self)
            #expect(inserted.unicodeScalars.count == edit.insertScalars)
            #expect(inserted.utf16.count == edit.insertUTF16)
            scalars.replaceSubrange(edit.offset..<edit.offset + edit.deleteCount, with: inserted.unicodeScalars)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    static func edits(_ old: String, _ new: String) -> [TextDiff.Edit] {
        TextDiff.edits(from: Array(old.utf8), to: Array(new.utf8))
    }

    /// (deleted text, inserted text) of each edit, start of the text first.
    static func changes(_ old: String, _ new: String) -> [(String, String)] {
        let scalars = Array(old.unicodeScalars)
        return edits(old, new).reversed().map { e in
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[e.offset..<e.offset + e.deleteCount])
            return (String(view), String(decoding: e.insert, as: UTF8.self))
        }
    }

    static func isSpace(_ s: Unicode.Scalar?) -> Bool {
        guard let s else { return true }
        return s == " " || s == "\n" || s == "\r" || s == "\t"
    }

    @Test(arguments: 0..<60 as Range<UInt64>)
    func editsTurnOldIntoNew(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var text = (0..<Int.random(in: 0...40, using: &rng)).map { _ in RandomText.make(&rng) }.joined()
        for _ in 0..<30 {
            var scalars = Array(text.unicodeScalars)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                if scalars.isEmpty || Bool.random(using: &rng) {
                    scalars.insert(contentsOf: RandomText.make(&rng).unicodeScalars, at: Int.random(in: 0...scalars.count, using: &rng))
                } else {
                    let lo = Int.random(in: 0..<scalars.count, using: &rng)
                    scalars.removeSubrange(lo..<min(scalars.count, lo + Int.random(in: 1...6, using: &rng)))
                }
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            let new = String(view)
            #expect(Self.apply(Self.edits(text, new), to: text) == new)
            text = new
        }
    }

    /// Replacements cover whole words: no letter of a deleted word is kept between what was
    /// deleted and what was typed (only pure insertions or deletions may fall inside a word).
    @Test(arguments: 0..<40 as Range<UInt64>)
    func replacementsNeverKeepStrayLetters(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("abcdeé12")
        func word() -> String { String((0..<Int.random(in: 1...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }) }
        var words = (0..<Int.random(in: 1...60, using: &rng)).map { _ in word() }
        let old = words.joined(separator: " ")
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let i = Int.random(in: 0..<words.count, using: &rng)
            switch rng.below(3) {
            case 0: words[i] = word()
            case 1: words.insert(word(), at: i)
            default: if words.count > 1 { words.remove(at: i) }
            }
        }
        let new = words.joined(separator: " ")
        let edits = Self.edits(old, new)
        #expect(Self.apply(edits, to: old) == new)
        let oldScalars = Array(old.unicodeScalars), newScalars = Array(new.unicodeScalars)
        var shift = 0 // edits front to back: an edit's offset in `new` is its old offset plus this
        for e in edits.reversed() {
            defer { shift += e.insertScalars - e.deleteCount }
            guard e.deleteCount > 0 && e.insertScalars > 0 else { continue }
            let newStart = e.offset + shift, oldEnd = e.offset + e.deleteCount, newEnd = newStart + e.insertScalars
            #expect(Self.isSpace(e.offset > 0 ? oldScalars[e.offset - 1] : nil) || Self.isSpace(oldScalars[e.offset]))
            #expect(Self.isSpace(oldEnd < oldScalars.count ? oldScalars[oldEnd] : nil) || Self.isSpace(oldScalars[oldEnd - 1]))
            #expect(Self.isSpace(newStart > 0 ? newScalars[newStart - 1] : nil) || Self.isSpace(newScalars[newStart]))
            #expect(Self.isSpace(newEnd < newScalars.count ? newScalars[newEnd] : nil) || Self.isSpace(newScalars[newEnd - 1]))
        }
    }

    @Test func wordsAreReplacedWhole() {
        #expect(Self.changes("w0003 w0005 w0007", "w0003 <C7x5> w0007").map { $0.0 + "→" + $0.1 } == ["w0005→<C7x5>"])
        #expect(Self.changes("- milk\n- eggs\n", "- milk\n- apples\n").map { $0.0 + "→" + $0.1 } == ["eggs→apples"])
        #expect(Self.changes("one w00500 two", "one Bw00500 two").map { $0.0 + "→" + $0.1 } == ["→B"])
        #expect(Self.changes("colour me", "color me").map { $0.0 + "→" + $0.1 } == ["u→"])
        #expect(Self.changes("the cat sat", "the dog sat").map { $0.0 + "→" + $0.1 } == ["cat→dog"])
        #expect(Self.changes("a b c", "a b X c").map { $0.0 + "→" + $0.1 } == ["→X "])
    }

    @Test func editsKeepGraphemeClustersWhole() {
        // A flag's second regional indicator, a ZWJ sequence and a combining mark stay attached.
        #expect(Self.changes("x 🇫🇷 y", "x 🇫🇷🇩🇪 y").map { $0.1 } == ["🇩🇪"])
        #expect(Self.changes("x 🇫🇷 y", "x 🇫🇪 y").map { $0.0 + "→" + $0.1 } == ["🇫🇷→🇫🇪"])
        #expect(Self.changes("x 👨‍👩 y", "x 👨‍👩‍👧 y").map { $0.0 + "→" + $0.1 } == ["👨‍👩→👨‍👩‍👧"])
        #expect(Self.changes("cafe", "cafe\u{301}").map { $0.0 + "→" + $0.1 } == ["cafe→cafe\u{301}"])
        #expect(Self.changes("a\r\nb", "a\rb").count == 1)
        for (old, new) in [("x 🇫🇷 y", "x 🇫🇷🇩🇪 y"), ("ab\r\ncd", "ab\r\n\r\ncd"), ("e\u{301}e", "e\u{301}\u{302}e")] {
            let oldCharacters = old.unicodeScalars.count
            for e in Self.edits(old, new) {
                // Offsets land on Character boundaries of the old text.
                let index = old.unicodeScalars.index(old.unicodeScalars.startIndex, offsetBy: e.offset)
                #expect(e.offset == oldCharacters || index.samePosition(in: old) != nil)
            }
        }
    }

    @Test func linesAnchorAndMovesAreDeleteThenInsert() {
        let lines = (0..<50).map { "line \($0) of the note\n" }
        var moved = lines
        let line = moved.remove(at: 10)
        moved.insert(line, at: 40)
        let changes = Self.changes(lines.joined(), moved.joined())
        #expect(changes.map { $0.0 + "→" + $0.1 } == ["line 10 of the note\n→", "→line 10 of the note\n"])
    }

    @Test func aOneCharacterChangeInALargeNoteIsOneEdit() {
        let big = String(repeating: "The quick brown fox jumps over the lazy dog.\n", count: 25_000)
        var changed = Array(big.unicodeScalars)
        changed[500_000] = "!"
        var view = String.UnicodeScalarView()
        view.append(contentsOf: changed)
        let edits = Self.edits(big, String(view))
        #expect(edits.count == 1)
        #expect(Self.apply(edits, to: big) == String(view))
    }

    @Test func degenerateInputsStayExactAndLocal() {
        // Thousands of identical blank lines with edits among them.
        let blank = String(repeating: "\n", count: 3_000)
        var lines = Array(repeating: "", count: 3_000)
        for i in stride(from: 7, to: 3_000, by: 97) { lines[i] = "note \(i)" }
        let edited = lines.joined(separator: "\n") + "\n"
        let e1 = Self.edits(blank, edited)
        #expect(Self.apply(e1, to: blank) == edited)
        #expect(e1.reduce(0) { $0 + $1.insertScalars } < 400)
        // One long line without spaces: content-defined chunks keep edits local.
        var rng = SplitMix64(seed: 7)
        let blob = String((0..<200_000).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.below(26)))) })
        var changed = Array(blob)
        for i in stride(from: 1_000, to: 200_000, by: 20_000) { changed[i] = "#" }
        let e2 = Self.edits(blob, String(changed))
        #expect(Self.apply(e2, to: blob) == String(changed))
        #expect(e2.reduce(0) { $0 + $1.insertScalars } < 10 * 600)
    }

    @Test func wholeRewriteIsExact() {
        var rng = SplitMix64(seed: 3)
        let vocabulary = ["the", "a", "note", "cloud", "sync", "and", "of", "text", "🇫🇷", "é"]
        func text(_ n: Int) -> String {
            (0..<n).map { i in vocabulary[rng.below(vocabulary.count)] + (i % 12 == 11 ? "\n" : " ") }.joined()
        }
        let old = text(3_000), new = text(3_000)
        #expect(Self.apply(Self.edits(old, new), to: old) == new)
    }
}
