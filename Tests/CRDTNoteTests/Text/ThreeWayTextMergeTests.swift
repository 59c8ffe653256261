import Testing
@testable import CRDTNote

/// Examples of the three-way text merge (`ThreeWayTextMerge`): the documented result of each
/// rule, edge cases, and text that must not be split.
@Suite struct ThreeWayTextMergeTests {
    /// The merged text, checked like every property case (order, overlap, cluster boundaries).
    static func merged(_ ancestor: String, _ mine: String, _ theirs: String) -> String {
        var problems: [String] = []
        let text = ThreeWayTextMergePropertyTests.merge(ancestor, mine, theirs, problems: &problems)
        #expect(problems.isEmpty, "\(problems)")
        return text
    }

    static func edits(_ ancestor: String, _ mine: String, _ theirs: String) -> [TextDiff.Edit] {
        ThreeWayTextMerge.edits(ancestor: Array(ancestor.utf8), mine: Array(mine.utf8), theirs: Array(theirs.utf8))
    }

    @Test func changesOnDifferentLinesAreBothKept() {
        let ancestor = "Groceries\n- milk\n- eggs\n- bread\n"
        let mine = "Groceries\n- oat milk\n- eggs\n- bread\n- salt\n"
        let theirs = "Groceries\n- milk\n- bread\n- apples\n"
        #expect(Self.merged(ancestor, mine, theirs) == "Groceries\n- oat milk\n- bread\n- apples\n- salt\n")
    }

    @Test func bothDeletingTheSameLineDeletesItOnce() {
        let ancestor = "one\ntwo\nthree\nfour\n"
        #expect(Self.edits(ancestor, "one\nthree\nfour\n", "one\nthree\nfour\n").isEmpty)
        // Mine deleted more than theirs: only the rest goes.
        #expect(Self.merged(ancestor, "one\nfour\n", "one\nthree\nfour\n") == "one\nfour\n")
    }

    /// The merge cannot tell one word typed on two devices from the same word typed once: both stay.
    @Test func bothInsertingTheSameWordKeepsBoth() {
        #expect(Self.merged("buy milk\n", "buy oat milk\n", "buy oat milk\n") == "buy oat oat milk\n")
    }

    @Test func insertionsAtOneGapSortFirstAndStayWords() {
        // Both pure insertions: the one that sorts first goes first; a space keeps them apart.
        #expect(Self.merged("- \n", "- milk\n", "- eggs\n") == "- eggs milk\n")
        #expect(Self.merged("- \n", "- eggs\n", "- milk\n") == "- eggs milk\n")
        // A pure insertion goes before a replacement starting at the same place.
        #expect(Self.merged("a b\n", "a X b\n", "a Y\n") == "a X Y\n")
        #expect(Self.merged("a b\n", "a Y\n", "a X b\n") == "a X Y\n")
        // Two replacements of one emoji: the sorted-first first, neither cluster cut.
        #expect(Self.merged("👍 ok", "👍🏽 ok", "👍🏿 ok") == "👍🏽👍🏿 ok")
    }

    @Test func mineInsideAStretchTheirsDeleted() {
        let ancestor = "- apples\n- bread\n- cheese\n"
        let theirs = "- apples\n- cheese\n"
        // Mine's insertion is kept, where the deleted line was; theirs' deletion stands.
        #expect(Self.merged(ancestor, "- apples\n- rye bread\n- cheese\n", theirs) == "- apples\nrye - cheese\n")
        // Mine's deletion inside theirs' deletes nothing more.
        #expect(Self.edits(ancestor, "- apples\n- \n- cheese\n", theirs).isEmpty)
        // Mine deleting across theirs' insertion never deletes it.
        #expect(Self.merged("a b c d\n", "a d\n", "a b X c d\n") == "a X d\n")
        // Words are kept apart only at a shared gap: here the insertion joins a word
        // (Docs/RECORD-FORMAT.md documents this).
        #expect(Self.merged("one two three", "one two 2 three", "one") == "one2 ")
    }

    @Test func emptyTexts() {
        #expect(Self.merged("", "milk\n", "eggs\n") == "eggs\nmilk\n")
        #expect(Self.merged("", "", "eggs\n") == "eggs\n")
        #expect(Self.merged("a b c", "", "a X b c") == "X ")
        #expect(Self.merged("a b c", "", "") == "")
        #expect(Self.merged("", "milk", "") == "milk")
    }

    @Test func unchangedSides() {
        let ancestor = "one two\nthree\n"
        #expect(Self.edits(ancestor, ancestor, "something else\n").isEmpty)
        let mine = "one 2\nthree four\n"
        #expect(Self.merged(ancestor, mine, ancestor) == mine)
        #expect(Self.edits(ancestor, mine, ancestor) == TextDiff.edits(from: Array(ancestor.utf8), to: Array(mine.utf8)))
    }

    /// Emoji with skin tones and ZWJ, flags, combining marks and CJK: every edit starts and ends
    /// between Swift `Character`s of theirs (`merged` checks it).
    @Test func clustersAreNeverSplit() {
        let ancestor = "👩‍👩‍👧 家族 e\u{301}te 🇫🇷\n"
        let mine = "👩‍👩‍👧‍👦 家族 e\u{301}te 🇫🇷🇩🇪\n"
        let theirs = "👩‍👩‍👧 家族写真 été 🇫🇷\n"
        #expect(Self.merged(ancestor, mine, theirs) == "👩‍👩‍👧‍👦 家族写真 été 🇫🇷🇩🇪\n")
        #expect(Self.merged("e\u{301}\n", "e\u{301}\u{302}\n", "xe\u{301}\n") == "xe\u{301}\u{302}\n")
        #expect(Self.merged("👍 中\n", "👍🏽 中\n", "👍 中文\n") == "👍🏽 中文\n")
    }
}
