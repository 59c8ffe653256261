import Testing
@testable import CRDTNote
import CRDTNoteToolSupport
import CRDTNoteTestSupport

/// The three-way text merge (`ThreeWayTextMerge`, Docs/RECORD-FORMAT.md "Three-way text merge
/// (fallback after compaction)") against an oracle that knows what each side typed and deleted:
/// texts are made of unique tokens (`a00017`: ancestor, `m…`: mine, `t…`: theirs), so which
/// tokens must survive, once and in which order, is known without any diff.
@Suite struct ThreeWayTextMergePropertyTests {
    /// One piece of a text: an optional filler word, a token, and what follows it.
    struct Item { var filler: String; var token: String; var separator: String }

    /// Repeated text around the tokens, some of it clusters of several scalars.
    static let fillers = ["the", "and", "中", "👍🏽", "e\u{301}", "🇫🇷", "👩‍👩‍👧", "ok", "-"]
    static let separators = [" ", " ", " ", " ", "\n", ", ", "\r\n", "\t"]

    static func token(_ letter: Character, _ n: Int) -> String {
        let digits = String(n)
        return String(letter) + String(repeating: "0", count: 5 - digits.count) + digits
    }

    static func text(_ items: [Item]) -> String {
        items.map { ($0.filler.isEmpty ? "" : $0.filler + " ") + $0.token + $0.separator }.joined()
    }

    static func item(_ letter: Character, _ n: Int, rng: inout SplitMix64, fillerOdds: Int) -> Item {
        Item(filler: rng.below(fillerOdds) == 0 ? fillers[rng.below(fillers.count)] : "",
             token: token(letter, n), separator: separators[rng.below(separators.count)])
    }

    /// Random insertions of fresh tokens and deletions of stretches of 1–4 items. With `near`,
    /// half the edits land next to (or on) an item the other side edited beside.
    static func edit(_ base: [Item], letter: Character, operations: Int, near: [String], touched: inout [String],
                     rng: inout SplitMix64, fillerOdds: Int) -> [Item] {
        var items = base
        for n in 0..<operations {
            var at = rng.below(items.count + 1)
            if !near.isEmpty && rng.below(2) == 0,
               let found = items.firstIndex(where: { $0.token == near[rng.below(near.count)] }) {
                at = max(0, min(items.count, found + rng.below(3) - 1))
            }
            if at > 0 { touched.append(items[at - 1].token) }
            if at < items.count { touched.append(items[at].token) }
            if items.isEmpty || rng.below(2) == 0 {
                items.insert(item(letter, n, rng: &rng, fillerOdds: fillerOdds), at: at)
            } else {
                let start = min(at, items.count - 1)
                items.removeSubrange(start..<min(items.count, start + 1 + rng.below(4)))
            }
        }
        return items
    }

    /// The tokens of a text, in order (a letter `a`, `m` or `t` and five digits: found even
    /// when the merge joined them to a neighbour), and whether any digit is left outside them
    /// (a token cut apart).
    static func tokens(in text: String) -> (tokens: [String], strayDigit: Bool) {
        let s = Array(text.unicodeScalars)
        func isDigit(_ i: Int) -> Bool { i < s.count && s[i].value >= 0x30 && s[i].value <= 0x39 }
        var out: [String] = [], stray = false, i = 0
        while i < s.count {
            if "amt".unicodeScalars.contains(s[i]) && (1...5).allSatisfy({ isDigit(i + $0) }) && !isDigit(i + 6) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: s[i..<i + 6])
                out.append(String(view))
                i += 6
            } else {
                if isDigit(i) { stray = true }
                i += 1
            }
        }
        return (out, stray)
    }

    /// `edits` applied to `text` by scalar offsets, checking they run from the end backwards,
    /// do not overlap and start and end on grapheme-cluster boundaries (Swift's `Character`s).
    static func apply(_ edits: [TextDiff.Edit], to text: String, problems: inout [String]) -> String {
        var boundaries: Set<Int> = [0]
        var offset = 0
        for c in text { offset += c.unicodeScalars.count; boundaries.insert(offset) }
        var scalars = Array(text.unicodeScalars)
        var previous = Int.max
        for edit in edits {
            let end = edit.offset + edit.deleteCount
            guard edit.offset >= 0, end <= previous else {
                problems.append("edit \(edit.offset)+\(edit.deleteCount) is not before the previous one (\(previous))")
                return text
            }
            if !boundaries.contains(edit.offset) || !boundaries.contains(end) {
                problems.append("edit \(edit.offset)..<\(end) splits a grapheme cluster of theirs")
            }
            previous = edit.offset
            let inserted = String(decoding: edit.insert, as: UTF8.self)
            if inserted.unicodeScalars.count != edit.insertScalars || inserted.utf16.count != edit.insertUTF16 {
                problems.append("edit \(edit.offset): wrong insert counts")
            }
            scalars.replaceSubrange(edit.offset..<end, with: inserted.unicodeScalars)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    static func merge(_ ancestor: String, _ mine: String, _ theirs: String, problems: inout [String]) -> String {
        let edits = ThreeWayTextMerge.edits(ancestor: Array(ancestor.utf8), mine: Array(mine.utf8), theirs: Array(theirs.utf8))
        return apply(edits, to: theirs, problems: &problems)
    }

    /// One case: returns what went wrong (nothing when the merge kept every intent).
    /// `exact`: unique tokens only, checked exactly; otherwise a text full of repeated fillers,
    /// checked for lost insertions and resurrected deletions.
    static func check(seed: UInt64, exact: Bool, coverage: inout Coverage) throws -> [String] {
        var rng = SplitMix64(seed: seed)
        let fillerOdds = exact ? 4 : 1
        var base = (0..<(rng.below(60) + (exact ? 1 : 20))).map { item("a", $0, rng: &rng, fillerOdds: fillerOdds) }
        if rng.below(20) == 0 { base = [] }
        if !exact {
            // Tokens only here and there: most of the text is repeated words and line breaks.
            for k in base.indices where rng.below(3) != 0 { base[k].token = ""; base[k].separator = rng.below(3) == 0 ? "\n" : " " }
            base.removeAll { $0.token.isEmpty && $0.filler.isEmpty }
        }
        var mineTouched: [String] = [], theirsTouched: [String] = []
        let mineItems = edit(base, letter: "m", operations: rng.below(9), near: [], touched: &mineTouched, rng: &rng, fillerOdds: fillerOdds)
        let theirItems = edit(base, letter: "t", operations: rng.below(9), near: mineTouched, touched: &theirsTouched, rng: &rng, fillerOdds: fillerOdds)
        let (ancestor, mine, theirs) = (text(base), text(mineItems), text(theirItems))
        var problems: [String] = []
        let merged = merge(ancestor, mine, theirs, problems: &problems)

        // The oracle: sets and orders of tokens, no diff involved.
        let a = tokens(in: ancestor).tokens, m = tokens(in: mine).tokens, t = tokens(in: theirs).tokens
        let (result, stray) = tokens(in: merged)
        if stray { problems.append("a token was cut apart") }
        let ancestorSet = Set(a), mineSet = Set(m), theirSet = Set(t), resultSet = Set(result)
        let inserted = mineSet.union(theirSet).subtracting(ancestorSet)
        let deleted = ancestorSet.subtracting(mineSet.intersection(theirSet))
        let mineDeleted = ancestorSet.subtracting(mineSet), theirDeleted = ancestorSet.subtracting(theirSet)
        if !mineDeleted.isDisjoint(with: theirDeleted) { coverage.bothDeleted += 1 }
        for (k, token) in m.enumerated() where !ancestorSet.contains(token) {
            if [k - 1, k + 1].contains(where: { m.indices.contains($0) && theirDeleted.contains(m[$0]) }) {
                coverage.insertedBesideTheirDeletion += 1
                break
            }
        }
        if result.count != resultSet.count { problems.append("a token appears twice") }
        if !inserted.isSubset(of: resultSet) { problems.append("inserted tokens lost: \(inserted.subtracting(resultSet).sorted())") }
        if !deleted.isDisjoint(with: resultSet) { problems.append("deleted tokens resurrected: \(deleted.intersection(resultSet).sorted())") }
        if exact {
            let kept = ancestorSet.intersection(mineSet).intersection(theirSet)
            if resultSet != kept.union(inserted) { problems.append("kept tokens lost: \(kept.subtracting(resultSet).sorted())") }
            // Each side's own tokens (its insertions and what it kept) in its order.
            for (name, side) in [("mine", m), ("theirs", t)] {
                let sideSet = Set(side)
                if result.filter(sideSet.contains) != side.filter(resultSet.contains) { problems.append("\(name)'s order is not kept") }
            }
            // Symmetric: theirs' changes merged into mine give the same text.
            var ignored: [String] = []
            if merge(ancestor, theirs, mine, problems: &ignored) != merged { problems.append("merging the other way differs") }
        }
        // The note-level entry makes the same text, as edits of the note's replica.
        var note = try NoteText(theirs, replica: .test(7))
        try note.applyChanges(from: ancestor, to: mine)
        if note.string != merged { problems.append("NoteText.applyChanges differs from the edits") }
        if !problems.isEmpty {
            problems.insert("seed \(seed)\nancestor \(ancestor.debugDescription)\nmine     \(mine.debugDescription)\n"
                            + "theirs   \(theirs.debugDescription)\nmerged   \(merged.debugDescription)", at: 0)
        }
        return problems
    }

    /// How many cases had the hard situations: a token both sides deleted, a token of mine
    /// typed beside one theirs deleted.
    struct Coverage { var bothDeleted = 0, insertedBesideTheirDeletion = 0 }

    /// Runs the cases of `seeds`, recording the first three that fail in full, and checks that
    /// at least `hardCases` of them had each hard situation.
    static func run(_ seeds: ClosedRange<UInt64>, exact: Bool, hardCases: Int) throws {
        var failures = 0
        var coverage = Coverage()
        defer {
            #expect(coverage.bothDeleted >= hardCases, "\(coverage)")
            #expect(coverage.insertedBesideTheirDeletion >= hardCases, "\(coverage)")
        }
        for seed in seeds {
            let problems = try check(seed: seed, exact: exact, coverage: &coverage)
            if !problems.isEmpty {
                failures += 1
                if failures <= 3 { Issue.record("\(problems.joined(separator: "\n"))") }
            }
        }
        #expect(failures == 0, "\(failures) of \(seeds.count) cases failed")
    }

    @Test func uniqueTokensMergeExactly() throws {
        try Self.run(1...300, exact: true, hardCases: 60)
    }

    @Test func repeatedTextLosesNoInsertionAndResurrectsNoDeletion() throws {
        try Self.run(1001...1100, exact: false, hardCases: 10)
    }

    /// The oracle can fail: a merge that drops a token, or keeps one theirs deleted, is caught.
    @Test func oracleCatchesWrongMerges() {
        let (t, stray) = Self.tokens(in: "a00001 m00002a00003 x4")
        #expect(t == ["a00001", "m00002", "a00003"])
        #expect(stray)
        var problems: [String] = []
        let text = Self.apply([TextDiff.edit(offset: 1, deleteCount: 1, inserting: [0x78])], to: "e\u{301}x", problems: &problems)
        #expect(text == "exx")
        #expect(problems.count == 1)
    }
}
