import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport

/// Issue 12, items 2 and 7: one set of limits for readers and writers, and `modified` under the
/// clock's drift rule.
@Suite struct NoteLimitsTests {
    static let clock = HybridLogicalClock(physicalClock: .fixed(1_780_000_000_000))

    @Test func theBombIsOneRangeNotMillionsOfEntries() throws {
        let bomb = PayloadBomb.snapshot()
        #expect(bomb.count == 47)
        let note = try NoteText(snapshot: bomb, replica: .test(9), clock: Self.clock)
        #expect(note.elementCount == 1 << 26)
        #expect(note.string.isEmpty)
        #expect(note.index.leafOf.map(\.segmentCount) == [1])
        // One id more than the limit is refused before anything is allocated for it.
        #expect(throws: PayloadError.self) { try NoteText(snapshot: PayloadBomb.snapshot(ids: (1 << 26) + 1), replica: .test(9)) }
    }

    @Test func aNoteAtTheLimitsIsReadEditedAndRefusedBeyond() throws {
        let limits = NoteLimits.default
        // At the limits: 2^26 elements, 16 MiB of text, as a record that reads back.
        let text = String(repeating: "a", count: limits.maximumTextBytes)
        var note = try NoteText(snapshot: PayloadBomb.snapshot(ids: UInt64(limits.maximumElements - limits.maximumTextBytes)),
                                replica: .test(5), clock: Self.clock)
        try note.insert(text, atScalarOffset: 0)
        #expect(note.elementCount == limits.maximumElements)
        try note.checkLimits()
        let record = try NoteRecord(recordName: "largest", note: note)
        #expect(record.record[field: NoteSchema.Field.payloadAsset] != nil)
        var back = try record.read(as: .test(6), clock: Self.clock).note
        #expect(back.elementCount == limits.maximumElements)
        #expect(back.utf8.count == limits.maximumTextBytes)
        // Still editable while the result fits: deleting adds no element.
        try back.deleteScalars(in: 0..<10)
        let edited = try record.writing(back)
        #expect(try edited.read(as: .test(7), clock: Self.clock).note.scalarCount == limits.maximumTextBytes - 10)
        // One more element is refused by the edit, and by the writer when it comes from a merge.
        #expect(throws: NoteTextError.self) { try back.insert("b", atScalarOffset: 0) }
        var other = NoteText(replica: .test(8), clock: Self.clock)
        try other.insert("b", atScalarOffset: 0)
        let otherRecord = try NoteRecord(recordName: "largest", note: other)
        do {
            _ = try RecordMerger().merge(records: [record, otherRecord])
            Issue.record("a merge beyond the limits was written")
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(error.recordName == "largest")
            #expect(error.message.contains("largest"))
        }
    }

    @Test func writersRefuseWhatReadersRefuse() throws {
        let small = NoteLimits(maximumElements: 10, maximumRuns: 4, maximumTextBytes: 8)
        let note = try NoteText("0123456789", replica: .test(1), clock: Self.clock)
        var record = NoteRecord(recordName: "small")
        #expect(throws: NoteRecordError.self) { try record.write(note, limits: small) }
        #expect(record.record.fields.isEmpty)
        let bigText = try NoteText(String(repeating: "x", count: NoteLimits.default.maximumTextBytes + 1), replica: .test(1), clock: Self.clock)
        do {
            try record.write(bigText)
            Issue.record("text over the limit was written")
        } catch {
            #expect(error.code == .limitExceeded)
        }
        #expect(record.record.fields.isEmpty)
        // A reader refuses a text field over the limit, by its size.
        var v1 = CloudRecord(recordName: "v1", recordType: NoteSchema.recordType)
        v1[field: NoteSchema.Field.text] = .asset(AssetReference(bytes: [UInt8](repeating: 0x61, count: NoteLimits.default.maximumTextBytes + 1)))
        #expect { try NoteRecord(v1).read(as: .test(3)) } throws: { ($0 as? NoteRecordError)?.code == .limitExceeded }
    }

    @Test func modifiedIgnoresStampsBeyondTheDriftBound() throws {
        let now: UInt64 = 1_780_000_000_000                     // 2026
        let future: UInt64 = now + 10 * 365 * 86_400_000        // ten years fast
        var fast = try NoteText("from the future", replica: .test(1), clock: HybridLogicalClock(physicalClock: .fixed(future)))
        try fast.insert("!", atScalarOffset: 0)
        let fastRecord = try NoteRecord(recordName: "n", note: fast)
        #expect(fastRecord.modifiedMilliseconds == Int64(future))   // its own writer's clock
        let present = try NoteRecord(recordName: "n", note: NoteText("today", replica: .test(2), clock: Self.clock))
        let merged = try RecordMerger().merge(records: [present, fastRecord]).record
        // A present-day device reads the merge, edits, writes.
        var note = try merged.read(as: .test(3), clock: HybridLogicalClock(physicalClock: .fixed(now))).note
        #expect(note.string.contains("from the future"))            // the data is kept
        try note.insert("x", atScalarOffset: 0)
        let written = try merged.writing(note)
        let modified = try #require(written.modifiedMilliseconds)
        #expect(modified <= Int64(now + HybridLogicalClock.defaultMaximumForwardDrift))
        #expect(modified >= Int64(now))
        #expect(NoteRecord.modifiedMilliseconds(for: note) == modified)
    }
}
