import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteSupport
import CRDTNoteToolSupport
import CRDTNoteTestSupport

/// Whole-text updates (`setText`) from two devices merge keeping each device's intent:
/// inserted tokens intact and once, deletions not undone, nothing duplicated, both merge
/// orders equal. Set CRDTNOTE_BIG_TESTS=1 to add the large cases (20,000 words, 2,000 edits
/// per side); they are meant for `swift test -c release --filter WholeTextMergePropertyTests`.
@Suite struct WholeTextMergePropertyTests {
    /// One word of a device's text and what follows it.
    struct Item: Equatable { var token: String; var separator: String }

    static let pieces = ["x", "ab", "e\u{301}", "🇫🇷", "👩‍👩‍👧", "😀", "\r\n", "中", "👍🏽", "Ω"]

    static func ancestor(words: Int, rng: inout SplitMix64) -> [Item] {
        (0..<words).map { Item(token: String(format: "w%05d", $0), separator: rng.below(8) == 0 ? "\n" : " ") }
    }

    static func text(_ items: [Item]) -> String { items.map { $0.token + $0.separator }.joined() }

    /// Random word-level edits: insert a new unique token, delete a word, replace a word.
    static func edit(_ items: [Item], device: String, edits: Int, rng: inout SplitMix64) -> [Item] {
        var items = items
        for n in 0..<edits {
            var token = "<\(device)\(n)"
            for _ in 0..<1 + rng.below(3) { token += pieces[rng.below(pieces.count)] }
            token += ">"
            let operation = items.isEmpty ? 0 : rng.below(3)
            switch operation {
            case 0: items.insert(Item(token: token, separator: rng.below(6) == 0 ? "\n" : " "), at: rng.below(items.count + 1))
            case 1: items.remove(at: rng.below(items.count))
            default: items[rng.below(items.count)].token = token
            }
        }
        return items
    }

    /// Every `<…>` token and `w…` word in a text, with counts (a garbled token shows up as
    /// a string no device wrote).
    static func inventory(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        let s = Array(text.unicodeScalars)
        var i = 0
        while i < s.count {
            if s[i] == "<" {
                var j = i + 1
                while j < s.count && s[j] != ">" && s[j] != "<" { j += 1 }
                let end = j < s.count && s[j] == ">" ? j + 1 : j
                var view = String.UnicodeScalarView(); view.append(contentsOf: s[i..<end])
                counts[String(view), default: 0] += 1
                i = end
            } else if s[i] == "w" && i + 6 <= s.count {
                var view = String.UnicodeScalarView(); view.append(contentsOf: s[i..<i + 6])
                counts[String(view), default: 0] += 1
                i += 6
            } else {
                i += 1
            }
        }
        return counts
    }

    /// Runs one case; returns the problems found (empty when the merge kept every intent).
    static func check(words: Int, editsA: Int, editsB: Int, seed: UInt64) throws -> [String] {
        var rng = SplitMix64(seed: seed)
        let base = ancestor(words: words, rng: &rng)
        let finalA = edit(base, device: "A", edits: editsA, rng: &rng)
        let finalB = edit(base, device: "B", edits: editsB, rng: &rng)
        let ancestorNote = try NoteText(text(base), replica: .test(1))
        var a = ancestorNote.forked(as: .test(2)), b = ancestorNote.forked(as: .test(3))
        try a.setText(text(finalA))
        try b.setText(text(finalB))
        var problems: [String] = []
        if a.string != text(finalA) || b.string != text(finalB) { problems.append("setText did not reach the text") }
        let merged = try a.merging(b), other = try b.merging(a)
        if merged.string != other.string { problems.append("merge orders differ") }
        var expected: [String: Int] = [:]
        let tokensA = Set(finalA.map(\.token)), tokensB = Set(finalB.map(\.token)), tokensBase = Set(base.map(\.token))
        for t in tokensA.union(tokensB) {
            let isNew = !tokensBase.contains(t)
            expected[t] = isNew || (tokensA.contains(t) && tokensB.contains(t)) ? 1 : 0
        }
        let found = inventory(merged.string)
        for (t, n) in found where expected[t, default: 0] != n {
            problems.append("\(t): \(n) in the merge, expected \(expected[t, default: 0])")
        }
        for (t, n) in expected where n > 0 && found[t] == nil { problems.append("\(t): missing") }
        for (name, note) in [("A", a), ("B", b), ("A+B", merged), ("B+A", other)] where !note.invariantViolations.isEmpty {
            problems.append("\(name) breaks invariants: \(note.invariantViolations.prefix(2))")
        }
        // Recorded insertions stay proportional to what each device typed.
        for (note, final, replica) in [(a, finalA, ReplicaID.test(2)), (b, finalB, ReplicaID.test(3))] {
            let typed = final.filter { !tokensBase.contains($0.token) }.reduce(0) { $0 + $1.token.unicodeScalars.count + 1 }
            let recorded = Int(note.version[replica])
            if recorded > 2 * typed + 64 { problems.append("replica \(replica) inserted \(recorded) for \(typed) typed") }
        }
        return Array(problems.prefix(8))
    }

    @Test(arguments: 0..<240 as Range<UInt64>)
    func smallNotes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 7919)
        let words = 5 + rng.below(300)
        let problems = try Self.check(words: words, editsA: 1 + rng.below(words), editsB: 1 + rng.below(words), seed: seed)
        #expect(problems == [], "seed \(seed), \(words) words")
    }

    @Test(arguments: 0..<12 as Range<UInt64>)
    func largerNotes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 1_000)
        let words = 1_000 + rng.below(3_000)
        let problems = try Self.check(words: words, editsA: 1 + rng.below(300), editsB: 1 + rng.below(300), seed: seed &+ 1_000)
        #expect(problems == [], "seed \(seed), \(words) words")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CRDTNOTE_BIG_TESTS"] != nil),
          arguments: 0..<8 as Range<UInt64>)
    func bigNotes(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 9_000)
        let problems = try Self.check(words: 20_000, editsA: 1 + rng.below(2_000), editsB: 1 + rng.below(2_000), seed: seed &+ 9_000)
        #expect(problems == [], "seed \(seed)")
    }

    /// Moving a line is a delete plus an insert; everything around it stays as both wrote it.
    @Test func movingALineBreaksNothingAround() throws {
        let lines = (0..<40).map { "line \($0)\n" }
        var moved = lines
        moved.insert(moved.remove(at: 5), at: 30)
        var edited = lines
        edited[6] = "line 6 edited\n"
        edited[29] = "line 29 (b)\n"
        let base = try NoteText(lines.joined(), replica: .test(1))
        var a = base.forked(as: .test(2)), b = base.forked(as: .test(3))
        try a.setText(moved.joined())
        try b.setText(edited.joined())
        var expected = moved
        expected[expected.firstIndex(of: "line 6\n")!] = "line 6 edited\n"
        expected[expected.firstIndex(of: "line 29\n")!] = "line 29 (b)\n"
        #expect(try a.merging(b).string == expected.joined())
        #expect(try b.merging(a).string == expected.joined())
    }
}
