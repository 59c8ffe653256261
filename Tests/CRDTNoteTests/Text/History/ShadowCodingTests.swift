import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// The shadow section of a version 2 history payload (Docs/FORMAT.md §11.6).
@Suite struct ShadowCodingTests {
    /// A history of random events, shadows and dropped clock entries over 1–4 replicas.
    static func randomHistory(seed: UInt64) -> NoteHistory {
        var random = SplitMix64(seed: 0x5C0D_0000 &+ seed)
        let replicas = (0..<Int.random(in: 1...4, using: &random)).map { _ in ReplicaID(rawValue: UInt64.random(in: 1...UInt64.max, using: &random)) }
        func origin() -> ShadowRun.Origin? {
            Int.random(in: 0..<4, using: &random) == 0 ? nil
                : ShadowRun.Origin(replica: replicas.randomElement(using: &random)!, seq: UInt32.random(in: 0..<5_000, using: &random))
        }
        var events: [DeletionEvent] = []
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            let seq = UInt32.random(in: 0..<5_000, using: &random)
            events.append(DeletionEvent(inserter: replicas.randomElement(using: &random)!, seqs: seq..<seq + 2, deleter: replicas[0],
                                        stamp: HLCTimestamp(rawValue: UInt64.random(in: 0..<(1 << 50), using: &random)), text: Array("é".utf8) + [0x61]))
        }
        var shadows: [ShadowRun] = []
        for _ in 0..<Int.random(in: 0...25, using: &random) {
            let seq = UInt32.random(in: 0..<5_000, using: &random)
            shadows.append(ShadowRun(inserter: replicas.randomElement(using: &random)!, seqs: seq..<seq + UInt32.random(in: 1...40, using: &random),
                                     left: origin(), right: origin()))
        }
        var stamps: [ReplicaID: [ClockLogEntry]] = [:]
        for replica in replicas where Bool.random(using: &random) {
            stamps[replica] = (0..<Int.random(in: 1...12, using: &random)).map { _ in
                ClockLogEntry(seq: UInt32.random(in: 0..<5_000, using: &random), stamp: HLCTimestamp(rawValue: UInt64.random(in: 0..<(1 << 50), using: &random)))
            }
        }
        return NoteHistory(deletions: events, shadows: shadows, shadowStamps: stamps)
    }

    /// Version 2 carries the shadows and entries: decoding gives the same history, and equal
    /// histories (shadows given in another order, repeated) encode to equal bytes.
    @Test(arguments: 0..<24 as Range<UInt64>)
    func shadowsRoundTripInVersion2(seed: UInt64) throws {
        let history = Self.randomHistory(seed: seed)
        let bytes = history.encoded(format: .version2)
        let decoded = try NoteHistory(encoded: bytes)
        #expect(decoded == history)
        #expect(decoded.shadows == history.shadows)
        #expect(decoded.shadowStamps == history.shadowStamps)
        let shuffled = NoteHistory(deletions: history.deletions.reversed(), shadows: history.shadows.reversed() + history.shadows.prefix(3),
                                   shadowStamps: history.shadowStamps)
        #expect(shuffled.encoded(format: .version2) == bytes)
        // Version 1 has no room for them: the events alone, byte for byte as before.
        #expect(try NoteHistory(encoded: history.encoded(format: .version1)) == NoteHistory(deletions: history.deletions))
        #expect(history.encoded(format: .version1) == NoteHistory(deletions: history.deletions).encoded(format: .version1))
    }

    /// A history without shadows encodes as before (no section).
    @Test func noShadowsNoSection() throws {
        let history = Self.randomHistory(seed: 99)
        let plain = NoteHistory(deletions: history.deletions)
        #expect(plain.encoded(format: .version2).count < history.encoded(format: .version2).count || history.shadows.isEmpty)
        #expect(try NoteHistory(encoded: plain.encoded(format: .version2)).shadows.isEmpty)
    }

    /// Every truncation of the body, and every byte of it changed, is a typed error or a
    /// history that encodes and reads back; never a trap.
    @Test(arguments: 0..<6 as Range<UInt64>)
    func damagedBodiesAreTypedErrors(seed: UInt64) throws {
        let body = Array(Self.randomHistory(seed: seed).encoded(format: .version2)[18...])
        var random = SplitMix64(seed: seed)
        for cut in 0..<body.count {
            Self.expectTypedOrReadable(PayloadHeader.wrap(Array(body[..<cut]), kind: .history, version: HistoryFormat.version2.minimumReader))
        }
        for i in body.indices {
            var damaged = body
            damaged[i] = UInt8.random(in: 0...255, using: &random)
            Self.expectTypedOrReadable(PayloadHeader.wrap(damaged, kind: .history, version: HistoryFormat.version2.minimumReader))
        }
    }

    static func expectTypedOrReadable(_ bytes: [UInt8]) {
        let read: NoteHistory
        do throws(PayloadError) {
            read = try NoteHistory(encoded: bytes)
        } catch {
            #expect(error.code == .corrupt)
            return
        }
        #expect((try? NoteHistory(encoded: read.encoded(format: .version2))) == read)
    }

    /// A compacted note's history through a record in version 2: the copy read back places the
    /// past as the note does.
    @Test func theRecordKeepsThePastOfACompactedNote() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = NoteText(replica: ReplicaID(rawValue: 7), clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = .default
        note.undoLimit = 0
        var typed: [(UInt64, String)] = []
        for edit in [{ (n: inout NoteText) throws in try n.insert("shopping: milk", atScalarOffset: 0) },
                     { try $0.insert(", eggs", atScalarOffset: 14) },
                     { try $0.deleteScalars(in: 14..<20) },
                     { try $0.insert(" and bread", atScalarOffset: 14) }] {
            time.advance(by: 60_000)
            try edit(&note)
            typed.append((time.milliseconds, note.string))
        }
        try note.compact(settled: nil)
        #expect(!note.history.shadows.isEmpty)
        var record = NoteRecord(recordName: "n")
        try record.write(note, limits: .default, mirror: .off, format: .version2, history: .version2, layout: nil)
        let read = try record.read(as: ReplicaID(rawValue: 8), clock: HybridLogicalClock(physicalClock: time.clock)).note
        for (at, text) in typed { #expect(try read.text(at: PastTextFleet.date(at)) == text) }
        // In version 1 the shadows do not travel: the same times are not covered.
        var old = NoteRecord(recordName: "n")
        try old.write(note, limits: .default, mirror: .off, format: .version2, history: .version1, layout: nil)
        let oldRead = try old.read(as: ReplicaID(rawValue: 8)).note
        #expect { try oldRead.text(at: PastTextFleet.date(typed[1].0)) } throws: { ($0 as? NoteHistoryError)?.code == .notCovered }
    }
}
