import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteSupport
import CRDTNoteTestSupport

/// The reproductions of issue 11, at library level: whole-text updates merged.
@Suite struct WholeTextMergeRegressionTests {
    static func merge(_ ancestor: String, _ textA: String, _ textB: String) throws -> (a: NoteText, b: NoteText, merged: String) {
        let base = try NoteText(ancestor, replica: .test(1))
        var a = base.forked(as: .test(2)), b = base.forked(as: .test(3))
        try a.setText(textA)
        try b.setText(textB)
        let merged = try a.merging(b).string
        #expect(try b.merging(a).string == merged)
        return (a, b, merged)
    }

    static func occurrences(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// 70,000 characters `w00000 … w09999`; A replaces the first and last 100 words, B
    /// prefixes 100 words in the middle with `B`.
    @Test func scatteredEditsStayInTheirWords() throws {
        let words = (0..<10_000).map { String(format: "w%05d", $0) }
        var wordsA = words, wordsB = words
        for i in Array(0..<100) + Array(9_900..<10_000) { wordsA[i] = String(format: "Yy%05d", i) }
        for i in 5_000..<5_100 { wordsB[i] = "B" + words[i] }
        let ancestor = words.joined(separator: " ")
        #expect(ancestor.count == 69_999)
        let (a, b, merged) = try Self.merge(ancestor, wordsA.joined(separator: " "), wordsB.joined(separator: " "))
        var expected = wordsA
        for i in 5_000..<5_100 { expected[i] = "B" + words[i] }
        #expect(merged == expected.joined(separator: " "))
        #expect(a.version[.test(2)] <= 3_000) // 200 words of 7 characters: never the whole note
        #expect(b.version[.test(3)] == 100)
    }

    /// A 3,000-character note, 700 random word edits per side: no duplicated characters,
    /// no deletion undone.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func manyRandomEditsOnASmallNote(seed: UInt64) throws {
        let problems = try WholeTextMergePropertyTests.check(words: 430, editsA: 700, editsB: 700, seed: seed)
        #expect(problems == [])
    }

    /// Find-and-replace of "item" with "task" over 90 lines; the other device's " (urgent)"
    /// stays on its line.
    @Test func findAndReplaceKeepsTheOtherDevicesLine() throws {
        let lines = (0..<90).map { "- item \($0): buy the item number \($0)" }
        let replaced = lines.map { $0.replacingOccurrences(of: "item", with: "task") }
        var urgent = lines
        urgent[41] += " (urgent)"
        let (_, _, merged) = try Self.merge(lines.joined(separator: "\n") + "\n", replaced.joined(separator: "\n") + "\n",
                                        urgent.joined(separator: "\n") + "\n")
        var expected = replaced
        expected[41] += " (urgent)"
        #expect(merged == expected.joined(separator: "\n") + "\n")
    }

    /// One device types `<C7x11>` where the other types `<S7x14>🇫🇷`, both over `w0011`:
    /// each new word arrives whole, nothing spliced inside the other.
    @Test func newWordsAreNotSplicedIntoEachOther() throws {
        let ancestor = (1...20).map { String(format: "w%04d", $0) }.joined(separator: " ")
        let (_, _, merged) = try Self.merge(ancestor,
                                        ancestor.replacingOccurrences(of: "w0011", with: "<C7x11>"),
                                        ancestor.replacingOccurrences(of: "w0011", with: "<S7x14>🇫🇷"))
        #expect(Self.occurrences("<C7x11>", in: merged) == 1)
        #expect(Self.occurrences("<S7x14>🇫🇷", in: merged) == 1)
        #expect(!merged.contains("w0011"))
        #expect(merged.unicodeScalars.count == ancestor.unicodeScalars.count - 5 + 7 + 9)
        // And the deleted word's letters do not survive inside a new one.
        let (_, _, other) = try Self.merge(ancestor, ancestor.replacingOccurrences(of: "w0005", with: "<C7x5>"),
                                       ancestor.replacingOccurrences(of: "w0005 ", with: ""))
        #expect(other.contains("<C7x5>"))
    }

    /// `- apples` on one side and `- eggs` on the other do not splice into `- appleggs`.
    @Test func listItemsDoNotSplice() throws {
        let ancestor = "Weekend groceries\n- milk\n- bread\n"
        let (_, _, merged) = try Self.merge(ancestor, "Weekend groceries\n- milk\n- apples\n",
                                        "Weekend groceries\n- milk\n- eggs\n")
        #expect(!merged.contains("appleggs") && !merged.contains("eggsapples"))
        #expect(merged.contains("apples") && merged.contains("eggs"))
    }
}
