import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// The Peritext paper's examples (Litt et al. 2022) through NoteText and NoteFormatting, each
/// merged in both orders; Docs/FORMAT.md §10 is the rule they check.
@Suite struct PeritextExampleTests {
    @Test func overlappingBoldAndItalicFromTwoDevicesCompose() throws {
        var (a, b) = try devicePair("The fox jumped.")
        try a.mark(.bold, 0..<7)       // "The fox"
        try b.mark(.italic, 4..<14)    // "fox jumped"
        let expected = [MarkSpan("The ", bold), MarkSpan("fox", bold.merging(italic) { $1 }), MarkSpan(" jumped", italic), MarkSpan(".")]
        try expectBothOrders(a, b, show: expected)
    }

    @Test func boldGrowsAtItsEndForAConcurrentInsertionButNotAtItsStart() throws {
        var (a, b) = try devicePair("abc def")
        try a.mark(.bold, 0..<3)
        try b.note.insert("X", atScalarOffset: 3)
        try b.note.insert("Y", atScalarOffset: 0)
        let expected = [MarkSpan("Y"), MarkSpan("abcX", bold), MarkSpan(" def")]
        try expectBothOrders(a, b, show: expected)
    }

    @Test func linkDoesNotGrowAtEitherEnd() throws {
        var (a, b) = try devicePair("abc def")
        try a.mark(.link, 0..<3, value: "https://example.com")
        try b.note.insert("X", atScalarOffset: 3)
        try b.note.insert("Y", atScalarOffset: 0)
        let expected = [MarkSpan("Y"), MarkSpan("abc", ["link": "https://example.com"]), MarkSpan("X def")]
        try expectBothOrders(a, b, show: expected)
    }

    @Test func laterUnboldInsideABoldRangeWinsThere() throws {
        var (a, b) = try devicePair("abcdef")
        try a.mark(.bold, 0..<6)
        try b.merge(a)
        try b.mark(.bold, 2..<4, value: nil)      // unbold "cd", after seeing the bold
        try a.note.insert("X", atScalarOffset: 6) // typed at the bold's end meanwhile
        var (c, _) = try expectBothOrders(a, b, show: [MarkSpan("ab", bold), MarkSpan("cd"), MarkSpan("efX", bold)])
        // Text typed at the end of the unbolded stretch joins the unbold, not the bold around it.
        try c.note.insert("Z", atScalarOffset: 4)
        #expect(try c.spans() == [MarkSpan("ab", bold), MarkSpan("cdZ"), MarkSpan("efX", bold)])
    }

    @Test func concurrentUnboldAndBoldResolvePerCharacterByStamp() throws {
        var (a, b) = try devicePair("abcdef")
        try a.mark(.bold, 0..<6)
        try b.merge(a)
        try b.mark(.bold, 1..<3, value: nil)
        try a.mark(.bold, 2..<5)                 // usually later than b's unbold: wins on "cd"
        // The two are concurrent: which is later depends on the clocks, so both outcomes are spelled out.
        let unbold = try #require(b.formatting.marks.first { $0.value == nil })
        let rebold = try #require(a.formatting.marks.max { $0.stamp < $1.stamp })
        let reboldIsLater = (rebold.stamp, rebold.replica.rawValue) > (unbold.stamp, unbold.replica.rawValue)
        let expected = reboldIsLater ? [MarkSpan("a", bold), MarkSpan("b"), MarkSpan("cdef", bold)]
                                     : [MarkSpan("a", bold), MarkSpan("bc"), MarkSpan("def", bold)]
        try expectBothOrders(a, b, show: expected)
    }

    @Test func aMarkAndAConcurrentDeletionOfItsWholeRangeLeaveNoMark() throws {
        var (a, b) = try devicePair("abc def ghi")
        try a.mark(.bold, 4..<7)
        try b.note.deleteScalars(in: 4..<7)
        let (ab, ba) = try expectBothOrders(a, b, show: [MarkSpan("abc  ghi")])
        // Text typed again where "def" was does not inherit the bold (the issue-604 case).
        for var device in [ab, ba] {
            try device.note.insert("XY", atScalarOffset: 4)
            #expect(try device.spans() == [MarkSpan("abc XY ghi")])
        }
    }
}
