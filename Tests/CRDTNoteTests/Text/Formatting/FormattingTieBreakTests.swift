import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Equal stamps from two devices: the greater replica id, compared unsigned, wins (§10).
@Suite struct FormattingTieBreakTests {
    static let low = ReplicaID(rawValue: 0x7FFF_FFFF_FFFF_FFFF)
    static let high = ReplicaID(rawValue: 0x8000_0000_0000_0000)   // negative as a signed integer

    @Test func equalStampsGoToTheGreaterUnsignedReplicaID() throws {
        let note = try NoteText("ab\ncd", replica: .test(99))
        let stamp = HLCTimestamp(rawValue: 5 << 16)
        for (boldBy, unboldBy) in [(Self.low, Self.high), (Self.high, Self.low)] {
            var formatting = NoteFormatting()
            formatting.add(try #require(try NoteFormatting.mark(.bold, MarkKind.on, scalars: 0..<5, in: note, stamp: stamp, replica: boldBy)))
            formatting.add(try #require(try NoteFormatting.mark(.bold, nil, scalars: 0..<5, in: note, stamp: stamp, replica: unboldBy)))
            formatting.add(try NoteFormatting.setParagraph(.heading(boldBy == Self.high ? 2 : 3), scalars: 0..<0, in: note, stamp: stamp, replica: Self.high))
            formatting.add(try NoteFormatting.setParagraph(.heading(boldBy == Self.high ? 3 : 2), scalars: 0..<0, in: note, stamp: stamp, replica: Self.low))
            let runs = try formatting.attributes(of: note)
            // Two runs: the first paragraph (a heading) and the second.
            #expect(runs.map(\.marks) == Array(repeating: boldBy == Self.high ? ["bold": MarkKind.on] : [:], count: 2))
            #expect(runs.first?.paragraph.heading == (boldBy == Self.high ? 2 : 3))
        }
    }
}
