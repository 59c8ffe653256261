import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite struct SnapshotFormatTests {
    @Test(arguments: Array(1...20) as [UInt64])
    func snapshotsRoundTripAndKeepMerging(seed: UInt64) throws {
        let notes = FormatSamples.randomNotes(seed: seed)
        for note in notes {
            let bytes = note.encodedSnapshot()
            let loaded = try NoteText(snapshot: bytes, replica: note.replica)
            #expect(loaded.string == note.string)
            #expect(loaded.version == note.version)
            #expect(loaded.lastModified == note.lastModified)
            #expect(loaded.invariantViolations == [])
            #expect(loaded.encodedSnapshot() == bytes, "encoding is deterministic")
            // A loaded copy merges exactly like the original.
            for other in notes {
                #expect(try loaded.merging(other).string == note.merging(other).string)
                #expect(try other.merging(loaded).string == other.merging(note).string)
            }
        }
    }

    @Test(arguments: Array(41...52) as [UInt64])
    func encodedChangesApplyLikeAMerge(seed: UInt64) throws {
        let notes = FormatSamples.randomNotes(seed: seed)
        let (a, b) = (notes[0], notes[1])
        let changes = b.changes(since: a.version)
        let decoded = try NoteChanges(encoded: changes.encoded())
        #expect(decoded == changes)
        var viaBytes = a
        try viaBytes.apply(decoded)
        #expect(try viaBytes.string == a.merging(b).string)
        #expect(viaBytes.invariantViolations == [])
    }

    @Test func emptyNoteRoundTrips() throws {
        let empty = NoteText(replica: .test(5))
        let loaded = try NoteText(snapshot: empty.encodedSnapshot(), replica: .test(6))
        #expect(loaded.string == "")
        #expect(loaded.invariantViolations == [])
    }

    @Test func deletedTextIsNotStored() throws {
        var note = try NoteText(String(repeating: "secret ", count: 200), replica: .test(1))
        let before = note.encodedSnapshot().count
        try note.deleteScalars(in: 0..<note.scalarCount)
        let after = note.encodedSnapshot()
        #expect(after.count < before / 10)
        #expect(!String(decoding: after, as: UTF8.self).contains("secret"))
    }

    @Test func aNewerMinimumReaderIsRefusedBeforeAnythingElse() throws {
        var bytes = try NoteText("hello", replica: .test(1)).encodedSnapshot()
        bytes[6] = UInt8(NoteFormat.readerVersion + 1)   // minimum reader version, little endian
        bytes[bytes.count - 1] ^= 0xFF   // and a damaged body: the gate still answers first
        let newer = NoteFormat.readerVersion + 1
        #expect(throws: PayloadError.newerFormat(requiredReader: newer, supportedReader: NoteFormat.readerVersion)) {
            _ = try NoteText(snapshot: bytes, replica: .test(1))
        }
        #expect(throws: PayloadError.newerFormat(requiredReader: newer, supportedReader: NoteFormat.readerVersion)) {
            _ = try PayloadHeader.read(bytes)
        }
    }

    /// Found by the libFuzzer harness: runs whose origins form a cycle used to decode and then
    /// fail to merge. They must be refused as corrupt: the lazy load reads the text, and the
    /// first edit or merge decodes the runs and throws `corruptSnapshot`, changing nothing.
    @Test func cyclicOriginsAreRefused() throws {
        let hex = "43524e540100010001002e000000e811ae600101000000ffffff041100001168656c2c6c206f6465617220776f726c00030310000c0003000c17030405050000"
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[i..<j], radix: 16)))
            i = j
        }
        var note = try NoteText(snapshot: bytes, replica: .test(9))
        let text = note.string
        do throws(NoteTextError) {
            try note.insert("x", atScalarOffset: 0)
            Issue.record("a snapshot with cyclic origins was edited")
        } catch {
            #expect(error.code == .corruptSnapshot)
            #expect(error.decodingError?.message.contains("causally") == true)
        }
        var other = NoteText(replica: .test(10))
        do throws(ChangeSetError) {
            try other.merge(note)
            Issue.record("a snapshot with cyclic origins was merged")
        } catch {
            #expect(error.code == .corruptSnapshot)
            #expect(error.decodingError?.message.contains("causally") == true)
        }
        #expect(note.string == text)
        #expect(other.string.isEmpty && other.version == VersionVector())
        #expect(throws: BinaryDecodingError.self) { try note.checkLoadedSnapshot() }
    }

    /// A run whose id delta is the largest signed varint made `seq + length` overflow in the
    /// decoder: a trap on untrusted bytes. It must be refused as corrupt.
    @Test func aHugeRunIdDeltaIsRefusedNotATrap() throws {
        let clock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))
        let valid = try NoteText("hi", replica: .test(1), clock: clock).encodedSnapshot()
        var body = Array(valid[NoteFormat.headerSize...])
        // The worked example of Docs/FORMAT.md: the sequence column (`01 00`) is at payload byte 55.
        let seqColumn = 55 - NoteFormat.headerSize
        #expect(Array(body[seqColumn..<seqColumn + 2]) == [0x01, 0x00])
        body.replaceSubrange(seqColumn..<seqColumn + 2, with: [0x0A, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        var note = try NoteText(snapshot: PayloadHeader.wrap(body, kind: .snapshot), replica: .test(2))
        #expect(note.string == "hi")
        do throws(NoteTextError) {
            try note.deleteScalars(in: 0..<1)
            Issue.record("a run id of 2^63 - 1 was accepted")
        } catch {
            #expect(error.code == .corruptSnapshot)
            #expect(error.decodingError?.code == .invalidValue)
            #expect(error.decodingError?.offset == 56)   // the delta, after the column's length byte
        }
        #expect(note.string == "hi")
    }

    /// A second clock-log entry whose seq delta is 2^64 - 1 made `seq += delta` overflow: a trap.
    @Test func aHugeClockLogDeltaIsRefusedNotATrap() throws {
        let clock = HybridLogicalClock(physicalClock: .fixed(1_700_000_000_000))
        let valid = try NoteText("hi", replica: .test(1), clock: clock).encodedSnapshot()
        var body = Array(valid[NoteFormat.headerSize...])
        // Docs/FORMAT.md's worked example: the clock log (`01`: one entry, then `00` + stamp) is at payload byte 37.
        let log = 37 - NoteFormat.headerSize
        #expect(body[log] == 0x01)
        body[log] = 0x02
        body[log + 1] = 0x01   // the first entry at seq 1, so the second's delta overflows
        body.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00], at: log + 11)
        do throws(PayloadError) {
            _ = try NoteText(snapshot: PayloadHeader.wrap(body, kind: .snapshot), replica: .test(2))
            Issue.record("a clock log seq delta of 2^64 - 1 was accepted")
        } catch {
            #expect(error.code == .corrupt)
            #expect(error.decodingError?.code == .invalidValue)
            #expect(error.message.contains("clock log entries"))
        }
    }

    @Test func headerProblemsAreNamed() throws {
        let good = try NoteText("hello", replica: .test(1)).encodedSnapshot()
        func kind(_ bytes: [UInt8]) -> BinaryDecodingError.Code? {
            do { _ = try NoteText(snapshot: bytes, replica: .test(1)); return nil } catch {
                return error.decodingError?.code
            }
        }
        var badMagic = good; badMagic[0] = 0
        #expect(kind(badMagic) == .badMagic)
        var flipped = good; flipped[flipped.count - 2] ^= 1
        #expect(kind(flipped) == .checksumMismatch)
        #expect(kind(Array(good.dropLast())) == .truncated)
        #expect(kind(good + [0]) == .trailingBytes)
        let changes = try NoteText("x", replica: .test(1)).changes(since: VersionVector()).encoded()
        #expect(kind(changes) == .invalidValue, "a changes payload is not a snapshot")
    }
}
