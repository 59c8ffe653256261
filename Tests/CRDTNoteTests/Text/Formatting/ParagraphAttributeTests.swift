import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Paragraph attributes: keys on the newline before each paragraph, split and join, the last
/// paragraph and the empty note (Docs/FORMAT.md §10.5).
@Suite struct ParagraphAttributeTests {
    func heading(_ level: Int) -> ParagraphAttributes {
        var attributes = ParagraphAttributes()
        attributes.heading = level
        return attributes
    }

    func list(_ kind: ParagraphList) -> ParagraphAttributes {
        var attributes = ParagraphAttributes()
        attributes.list = kind
        return attributes
    }

    @Test func splittingAParagraphKeepsItsAttributesOnBothHalves() throws {
        var device = FormattingDevice(try NoteText("Title\nbody", replica: .test(1)))
        try device.setParagraph(.heading(1), 0..<0)
        try device.splitParagraph(at: 2)
        #expect(device.note.string == "Ti\ntle\nbody")
        #expect(try device.paragraphs() == Array(repeating: heading(1), count: 7) + Array(repeating: ParagraphAttributes(), count: 4))
    }

    @Test func joiningTwoParagraphsKeepsTheFirstsAttributes() throws {
        var device = FormattingDevice(try NoteText("One\nTwo", replica: .test(1)))
        try device.setParagraph(.heading(2), 0..<1)
        try device.setParagraph(.list(.bullet), 5..<5)
        #expect(try device.paragraphs() == Array(repeating: heading(2), count: 4) + Array(repeating: list(.bullet), count: 3))
        try device.note.deleteScalars(in: 3..<4)
        #expect(try device.paragraphs() == Array(repeating: heading(2), count: 6))
    }

    @Test func aJoinMergedWithAConcurrentChangeOfTheSecondParagraphKeepsTheFirsts() throws {
        var (a, b) = try devicePair("One\nTwo")
        try a.note.deleteScalars(in: 3..<4)
        try b.setParagraph(.quote(true), 4..<7)
        try b.setParagraph(.list(.check), 0..<0)
        let (ab, ba) = try bothOrders(a, b)
        #expect(try ab.paragraphs() == Array(repeating: list(.check), count: 6))
        #expect(try ba.paragraphs() == Array(repeating: list(.check), count: 6))
    }

    @Test func theLastParagraphHasItsOwnKey() throws {
        var device = FormattingDevice(try NoteText("a\nb", replica: .test(1)))
        try device.setParagraph(.codeBlock(true), 2..<3)
        var code = ParagraphAttributes()
        code.codeBlock = true
        #expect(try device.paragraphs() == [ParagraphAttributes(), ParagraphAttributes(), code])
        // Typed at the end, still the last paragraph.
        try device.note.insert("c", atScalarOffset: 3)
        #expect(try device.paragraphs() == [ParagraphAttributes(), ParagraphAttributes(), code, code])
    }

    @Test func anEmptyNoteHasAParagraphAndTypedTextTakesItsAttributes() throws {
        var device = FormattingDevice(NoteText(replica: .test(1)))
        try device.setParagraph(.list(.number), 0..<0)
        #expect(try device.formatting.attributes(of: device.note) == [])
        try device.note.insert("first", atScalarOffset: 0)
        #expect(try device.paragraphs() == Array(repeating: list(.number), count: 5))
    }

    @Test func aRangeSetsEveryParagraphItTouchesAndLatestWinsPerAttribute() throws {
        var device = FormattingDevice(try NoteText("a\nb\nc", replica: .test(1)))
        try device.setParagraph(.heading(3), 0..<3)      // "a\nb": paragraphs 1 and 2
        try device.setParagraph(.heading(0), 2..<5)      // later: paragraphs 2 and 3 back to body
        try device.setParagraph(.checked(true), 2..<3)
        var checked = ParagraphAttributes()
        checked.checked = true
        #expect(try device.paragraphs() == [heading(3), heading(3), checked, checked, ParagraphAttributes()])
    }

    @Test func badInputIsRefusedWithATypedError() throws {
        let device = FormattingDevice(try NoteText("abc", replica: .test(1)))
        let stamp = HLCTimestamp(rawValue: 1)
        #expect(throws: NoteTextError.self) {
            try NoteFormatting.setParagraph(.heading(7), scalars: 0..<1, in: device.note, stamp: stamp, replica: .test(1))
        }
        #expect(throws: NoteTextError.self) {
            try NoteFormatting.mark(.bold, MarkKind.on, scalars: 2..<4, in: device.note, stamp: stamp, replica: .test(1))
        }
        #expect(throws: NoteTextError.self) {
            try device.formatting.splitParagraph(atNewline: 1, in: device.note, stamp: stamp, replica: .test(1))
        }
        #expect(try NoteFormatting.mark(.bold, MarkKind.on, scalars: 1..<1, in: device.note, stamp: stamp, replica: .test(1)) == nil)
    }
}
