import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// The history payload (kind 4, Docs/FORMAT.md §11.2) and the record's `history` field.
@Suite struct HistoryPayloadTests {
    /// Random events (several replicas, multi-byte text, repeats, any order) decode to the
    /// sorted set without repeats, and equal sets encode to equal bytes.
    @Test(arguments: 0..<20 as Range<UInt64>)
    func eventsRoundTrip(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x4157_0000 &+ seed)
        let replicas = (0..<Int.random(in: 1...4, using: &random)).map { _ in ReplicaID(rawValue: random.next()) }
        let alphabet = Array("ab é🙂\n".unicodeScalars)
        var events: [DeletionEvent] = []
        for _ in 0..<Int.random(in: 0...60, using: &random) {
            let length = Int.random(in: 1...8, using: &random)
            let text = String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
            let seq = UInt32.random(in: 0...1_000_000, using: &random)
            events.append(DeletionEvent(inserter: replicas.randomElement(using: &random)!, seqs: seq..<seq + UInt32(length),
                                        deleter: replicas.randomElement(using: &random)!,
                                        stamp: HLCTimestamp(rawValue: UInt64.random(in: 0...(1 << 60), using: &random)), text: Array(text.utf8)))
        }
        if let repeated = events.first { events.append(repeated) }
        let history = NoteHistory(deletions: events)
        let bytes = history.encoded(format: .version1)
        let decoded = try NoteHistory(encoded: bytes)
        #expect(decoded.deletions == history.deletions)
        #expect(NoteHistory(deletions: events.shuffled(using: &random)).encoded(format: .version1) == bytes)
        #expect(Set(decoded.deletions).count == decoded.deletions.count)
        #expect(Set(events) == Set(decoded.deletions))
    }

    /// Every truncation and every single-byte change of an encoded history is refused with a
    /// typed error or read as some history: never a trap.
    @Test func damagedBytesAreRefusedNeverTrap() throws {
        var events: [DeletionEvent] = []
        for i in 0..<30 {
            let seq = UInt32(i * 10)
            events.append(DeletionEvent(inserter: ReplicaID(rawValue: UInt64(i % 3 + 1)), seqs: seq..<seq + 3,
                                        deleter: ReplicaID(rawValue: 9), stamp: HLCTimestamp(rawValue: UInt64(i) << 20), text: Array("abc".utf8)))
        }
        let bytes = NoteHistory(deletions: events).encoded(format: .version1)
        var refused = 0
        for cut in 0..<bytes.count {
            #expect(throws: PayloadError.self) { try NoteHistory(encoded: Array(bytes[..<cut])) }
        }
        var random = SplitMix64(seed: 44)
        for _ in 0..<2_000 {
            var damaged = bytes
            let i = Int.random(in: 18..<damaged.count, using: &random)
            damaged[i] ^= UInt8.random(in: 1...255, using: &random)
            // Refresh the checksum so the body itself is read.
            let body = Array(damaged[18...])
            let crc = CRC32C.checksum(body)
            for k in 0..<4 { damaged[14 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
            do throws(PayloadError) {
                _ = try NoteHistory(encoded: damaged)
            } catch {
                refused += 1
                #expect(error.code == .corrupt)
            }
        }
        #expect(refused > 1_000)
    }

    @Test func limitsAreShared() throws {
        let events = (0..<5).map { i in
            DeletionEvent(inserter: ReplicaID(rawValue: 1), seqs: UInt32(i)..<UInt32(i + 1), deleter: ReplicaID(rawValue: 1),
                          stamp: HLCTimestamp(rawValue: UInt64(i)), text: [0x61])
        }
        let bytes = NoteHistory(deletions: events).encoded(format: .version1)
        var limits = NoteLimits.default
        limits.maximumHistoryEvents = 4
        #expect { try NoteHistory(encoded: bytes, limits: limits) } throws: { ($0 as? PayloadError)?.decodingError?.code == .lengthTooLarge }
        limits.maximumHistoryEvents = 5
        #expect(try NoteHistory(encoded: bytes, limits: limits).deletions.count == 5)
    }

    /// A note with history writes the `history` field; reading the record carries it unparsed
    /// (a corrupt field still loads the note); merging and writing again unites both copies'.
    @Test func recordFieldTravelsUnparsedAndUnites() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var phone = try NoteText("one two three", replica: ReplicaID(rawValue: 1), clock: HybridLogicalClock(physicalClock: time.clock))
        phone.historyRetention = .default
        var laptop = phone.forked(as: ReplicaID(rawValue: 2))
        time.advance(by: 5_000)
        try phone.deleteScalars(in: 0..<4)
        try laptop.deleteScalars(in: 8..<13)
        let phoneRecord = try NoteRecord(recordName: "n", note: phone)
        let laptopRecord = try NoteRecord(recordName: "n", note: laptop)
        guard case .bytes(let phoneBytes)? = phoneRecord.record[field: NoteSchema.Field.history] else {
            Issue.record("no history field"); return
        }
        var read = try phoneRecord.read(as: ReplicaID(rawValue: 3), clock: HybridLogicalClock(physicalClock: time.clock)).note
        #expect(read.history.deletions.isEmpty && read.history.pending == [phoneBytes])
        try read.merge(try laptopRecord.read(as: ReplicaID(rawValue: 4)).note)
        #expect(read.history.pending.count == 2)
        let merged = try NoteRecord(recordName: "n", note: read)
        guard case .bytes(let mergedBytes)? = merged.record[field: NoteSchema.Field.history] else {
            Issue.record("no merged history field"); return
        }
        let union = try NoteHistory(encoded: mergedBytes)
        #expect(union.deletions.map { String(decoding: $0.text, as: UTF8.self) }.sorted() == ["one ", "three"])
        // A corrupt history never stops the note from loading.
        var damaged = phoneRecord
        damaged.record[field: NoteSchema.Field.history] = .bytes([1, 2, 3])
        #expect(try damaged.read(as: ReplicaID(rawValue: 5)).note.string == "two three")
        #expect(throws: NoteHistoryError.self) { try damaged.read(as: ReplicaID(rawValue: 5)).note.text(at: Date()) }
        // A note without history writes no field.
        #expect(try NoteRecord(recordName: "p", note: NoteText("plain", replica: ReplicaID(rawValue: 1))).record[field: NoteSchema.Field.history] == nil)
    }

    /// Writing trims to the retention window and cap, on the writer's clock.
    @Test func windowAndCapApplyWhenWriting() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = try NoteText(String(repeating: "x", count: 100), replica: ReplicaID(rawValue: 1), clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = HistoryRetention(window: 10_000, minimumBytes: 3, visibleTextMultiple: 0)
        for _ in 0..<5 {
            time.advance(by: 4_000)
            try note.deleteScalars(in: 0..<1)
        }
        let record = try NoteRecord(recordName: "n", note: note)
        guard case .bytes(let bytes)? = record.record[field: NoteSchema.Field.history] else { Issue.record("no field"); return }
        let kept = try NoteHistory(encoded: bytes).deletions
        // Deleted at +4, +8, +12, +16, +20 s; written at +20 s: the window keeps +12..+20, the cap 3 bytes.
        #expect(kept.map(\.stamp.milliseconds) == [1_700_000_012_000, 1_700_000_016_000, 1_700_000_020_000])
        note.historyRetention = HistoryRetention(window: 10_000, minimumBytes: 2, visibleTextMultiple: 0)
        let capped = try NoteRecord(recordName: "n", note: note)
        guard case .bytes(let cappedBytes)? = capped.record[field: NoteSchema.Field.history] else { Issue.record("no field"); return }
        #expect(try NoteHistory(encoded: cappedBytes).deletions.map(\.stamp.milliseconds) == [1_700_000_016_000, 1_700_000_020_000])
    }
}
