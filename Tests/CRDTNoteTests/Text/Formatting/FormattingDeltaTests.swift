import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Formatting in ``NoteChanges`` (Docs/FORMAT.md §5, "Formatting in changes"): what a delta
/// carries, how it is written for each reader, and what a receiver refuses.
@Suite struct FormattingDeltaTests {
    /// A note typed by replica 1 at a fixed time, and a copy of it as replica 2.
    static func pair() throws -> (NoteText, NoteText) {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        let a = try NoteText("Hello world", replica: .test(1), clock: HybridLogicalClock(physicalClock: time.clock))
        return (a, a.forked(as: .test(2)))
    }

    @Test func aPlainDeltaIsWrittenAsBeforeFormattingTravelled() throws {
        let (a, b) = try Self.pair()
        var typed = a
        try typed.insert("!", atScalarOffset: 11)
        let bytes = typed.changes(since: b.version).encoded()
        // Format 1, minimum reader 1, kind 2: byte for byte what releases before format 5 wrote.
        #expect(Array(bytes[0..<10]) == [0x43, 0x52, 0x4E, 0x54, 1, 0, 1, 0, 2, 0])
        // Replica table (replica 1, its latest stamp, one clock entry), content "!", one insert
        // (flags: right none; replica 0, id 11, length 1, left origin 0.10), no deletions.
        #expect(Array(bytes[18...]) == [1, 1, 0, 0, 0, 0, 0, 0, 0, 129, 128, 128, 192, 214, 252, 243, 197, 1,
                                         1, 0, 128, 128, 128, 128, 173, 249, 231, 139, 3, 1, 33, 1, 8, 0, 11, 0, 0, 10, 0])
    }

    @Test func aFormattedNotesDeltaWithoutNewFormattingIsWrittenInFormat1() throws {
        var (a, b) = try Self.pair()
        try a.setMark(.bold, utf16Range: 0..<5)
        try b.apply(a.changes(since: b.version))
        try a.insert("!", atScalarOffset: 11)
        let changes = a.changes(since: b.version)
        #expect(changes.formattingOperationCount == 0)
        #expect(changes.encoded()[6] == 1)
        try b.apply(NoteChanges(encoded: changes.encoded()))
        #expect(try b.formattedSpans() == a.formattedSpans())
    }

    @Test func formattingTravelsInFormat5AndOlderReadersStopAtTheHeader() throws {
        var (a, b) = try Self.pair()
        try a.setMark(.link("https://example.com"), utf16Range: 6..<11)
        try a.setParagraphAttribute(.heading(1), utf16Range: 0..<0)
        let bytes = a.changes(since: b.version).encoded()
        #expect(bytes[4] == 5 && bytes[6] == 5 && bytes[8] == 2)
        #expect {
            _ = try PayloadHeader.read(bytes, supportedReader: 4)
        } throws: { error in
            (error as? PayloadError).map { $0.code == .newerFormat && $0.requiredReader == 5 } ?? false
        }
        let decoded = try NoteChanges(encoded: bytes)
        #expect(decoded == a.changes(since: b.version))
        let patch = try b.apply(decoded)
        #expect(try b.formattedSpans() == a.formattedSpans())
        #expect(b.version == a.version)
        // Only formatting arrived: the patch carries attribute changes and no replacement.
        #expect(patch.replacements.isEmpty && !patch.attributeChanges.isEmpty)
    }

    @Test func aDeltaMadeForACopyWithMoreFormattingIsRefusedAndChangesNothing() throws {
        var (a, b) = try Self.pair()
        var c = a.forked(as: .test(3))
        try a.setMark(.bold, utf16Range: 0..<5)
        try c.apply(a.changes(since: c.version))   // c holds a's bold, b does not
        try a.setMark(.italic, utf16Range: 6..<11)
        let forC = a.changes(since: c.version)     // the italic alone, based on the bold
        #expect(forC.formattingOperationCount == 1)
        let before = (b.string, b.version, try b.formattedSpans())
        #expect(throws: ChangeSetError.self) { try b.apply(NoteChanges(encoded: forC.encoded())) }
        do {
            try b.apply(forC)
        } catch {
            #expect(error.code == .missingDependency)
        }
        let spansAfter = try b.formattedSpans()
        #expect(b.string == before.0 && b.version == before.1 && spansAfter == before.2)
        // With the bold first (either delta, in any order after it), b catches up.
        try b.apply(a.changes(since: b.version))
        try b.apply(forC)
        #expect(try b.formattedSpans() == a.formattedSpans())
    }

    @Test func versionsCompareFormatting() throws {
        var (a, b) = try Self.pair()
        #expect(a.version == b.version)
        try a.setMark(.bold, utf16Range: 0..<5)
        #expect(a.version.includes(b.version) && !b.version.includes(a.version))
        #expect(a.version.includesCharacters(of: b.version) && b.version.includesCharacters(of: a.version))
        #expect(a.version.formattingStamps.keys.sorted() == [ReplicaID.test(1)])
        #expect("\(a.version)".hasPrefix("[1: 11] formatting [1: "))
        #expect("\(b.version)" == "[1: 11]")
    }

    @Test func damagedFormattingInChangesIsReportedWithItsOffset() throws {
        var (a, b) = try Self.pair()
        try a.setMark(.bold, utf16Range: 0..<5)
        var changes = a.changes(since: b.version)
        changes.formattingBase = [.test(1): HLCTimestamp(rawValue: 5), .test(8): HLCTimestamp(rawValue: 6)]
        var bytes = changes.encoded()
        // Replica 8 authors none of the operations: its entry is left out.
        #expect(try NoteChanges(encoded: bytes).formattingBase == [.test(1): HLCTimestamp(rawValue: 5)])
        // The base's second id (the last 10 bytes: id, stamp) made smaller than the first.
        let second = bytes.count - 9
        bytes.replaceSubrange(second..<second + 8, with: [1, 0, 0, 0, 0, 0, 0, 0])
        bytes.replaceSubrange(14..<18, with: Self.crc(bytes))
        #expect {
            try NoteChanges(encoded: bytes)
        } throws: { error in
            guard let error = error as? PayloadError, let decoding = error.decodingError else { return false }
            return decoding.code == .invalidValue && decoding.offset == second
        }
        // Cut inside the formatting: corrupt, not a trap.
        var cut = changes.encoded()
        cut.removeLast(12)
        cut.replaceSubrange(10..<14, with: Self.le32(UInt32(cut.count - 18)))
        cut.replaceSubrange(14..<18, with: Self.crc(cut))
        #expect(throws: PayloadError.self) { try NoteChanges(encoded: cut) }
    }

    static func crc(_ payload: [UInt8]) -> [UInt8] { le32(CRC32C.checksum(payload[18...])) }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
}
