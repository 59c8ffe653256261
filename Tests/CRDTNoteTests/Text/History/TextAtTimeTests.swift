import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// `text(at:)` (Docs/FORMAT.md §11.4): the text at past times, against what was typed.
@Suite struct TextAtTimeTests {
    static func date(_ ms: UInt64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    @Test func textsThroughEditsAtKnownTimes() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = NoteText(replica: ReplicaID(rawValue: 7), clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = .default
        var typed: [(UInt64, String)] = [(1_699_999_999_000, "")]
        func step(_ edit: (inout NoteText) throws -> Void) throws {
            time.advance(by: 60_000)
            try edit(&note)
            typed.append((time.milliseconds, note.string))
        }
        try step { try $0.insert("Groceries: milk", atScalarOffset: 0) }
        try step { try $0.insert(", eggs", atScalarOffset: 15) }
        try step { try $0.deleteScalars(in: 11..<17) }            // "milk, " gone
        try step { try $0.setText("Groceries: eggs and bread") }
        try step { try $0.deleteScalars(in: 0..<11) }
        try step { try $0.insert("🙂 ", atScalarOffset: 0) }
        #expect(note.string == "🙂 eggs and bread")
        for (i, (at, text)) in typed.enumerated() {
            #expect(try note.text(at: Self.date(at)) == text)
            // Half-way to the next edit nothing has changed yet.
            #expect(try note.text(at: Self.date(at + 30_000)) == text, "after step \(i)")
        }
        #expect(note.string == (try note.text(at: Date.distantFuture)))
    }

    @Test func deletionsOfUnknownTimeAreNotCoveredBeforeTheHistory() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = try NoteText("old text", replica: ReplicaID(rawValue: 7), clock: HybridLogicalClock(physicalClock: time.clock))
        time.advance(by: 10_000)
        try note.deleteScalars(in: 0..<4)         // not logged: no retention policy yet
        note.historyRetention = .default
        time.advance(by: 10_000)
        try note.deleteScalars(in: 0..<1)         // logged
        // Before the oldest logged deletion: not covered (the unlogged one's time is unknown).
        for at: UInt64 in [1_700_000_005_000, 1_700_000_015_000, 1_700_000_019_999] {
            #expect { try note.text(at: Self.date(at)) } throws: { ($0 as? NoteHistoryError)?.code == .notCovered }
        }
        // From it on, the unlogged deletion shows as made.
        #expect(try note.text(at: Self.date(1_700_000_020_000)) == "ext")
        #expect(try note.text(at: Self.date(1_700_000_030_000)) == "ext")
    }

    /// Random edits, deletions, undos and redos, and merges between 2–4 devices, some synced
    /// through records (which trims to the window and cap); an oracle that knows nothing of ids logs the text a
    /// device showed whenever it held every edit made so far. At the end, after everyone merged,
    /// `text(at:)` of those times equals the logged text, or (only where the window or cap
    /// dropped history) says the time is not covered.
    @Test(arguments: 0..<16 as Range<UInt64>)
    func pastTextsMatchWhatDevicesSaw(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x7E47_0000 &+ seed)
        let trims = seed % 4 == 3
        let retention = trims ? HistoryRetention(window: 60_000, minimumBytes: 8, visibleTextMultiple: 0) : HistoryRetention.default
        var fleet = PastTextFleet(count: Int.random(in: 2...4, using: &random), firstReplica: 0x10, retention: retention, undoLimit: 20)
        for _ in 0..<80 {
            fleet.time.advance(by: UInt64.random(in: 1_001...9_000, using: &random))
            let i = Int.random(in: 0..<fleet.count, using: &random)
            // Half the time the device is online and catches up with everyone first.
            if Bool.random(using: &random) { try fleet.catchUp(i) }
            let draw = Int.random(in: 0..<10, using: &random)
            if try fleet.typeOrDelete(i, draw: draw, using: &random) {
                // typed or deleted
            } else if draw == 7, Bool.random(using: &random), fleet.notes[i].canUndo || fleet.notes[i].canRedo {
                // Undo or redo: brings deleted text back as new characters, or deletes what an
                // earlier step typed or restored (a character may be deleted, restored, deleted again).
                if fleet.notes[i].canRedo && (Bool.random(using: &random) || !fleet.notes[i].canUndo) {
                    _ = try fleet.notes[i].redo()
                } else {
                    _ = try fleet.notes[i].undo()
                }
                fleet.edited(i)
            } else if draw == 7 {
                // Through the record: the history goes out trimmed and comes back unparsed.
                let j = Int.random(in: 0..<fleet.count, using: &random)
                var received = try NoteRecord(recordName: "n", note: fleet.notes[j])
                    .read(as: ReplicaID(rawValue: 0xFF), clock: HybridLogicalClock(physicalClock: fleet.time.clock)).note
                received.historyRetention = retention
                try fleet.merge(i, received, of: j)
            } else {
                try fleet.merge(i, from: Int.random(in: 0..<fleet.count, using: &random))
            }
            fleet.logIfCurrent(i)
        }
        try fleet.mergeAll()
        var covered = 0
        for (at, text) in fleet.seen {
            do {
                #expect(try fleet.notes[0].text(at: Self.date(at)) == text, "seed \(seed) at \(at)")
                covered += 1
            } catch {
                #expect(trims, "only trimmed histories may leave times uncovered: \(error)")
                #expect(error.code == .notCovered)
            }
        }
        if !trims { #expect(covered == fleet.seen.count) }
        #expect(fleet.seen.count > 20)
    }

    /// The index of deletion events by id takes, for every id, the earliest event naming it (ties:
    /// the first in order), checked against a per-id scan of random overlapping events.
    @Test(arguments: 0..<8 as Range<UInt64>)
    func deletionIndexTakesTheEarliestEventPerID(seed: UInt64) {
        var random = SplitMix64(seed: 0xDE1E_0000 &+ seed)
        let replicas = [ReplicaID(rawValue: 3), ReplicaID(rawValue: 9)]
        var events: [DeletionEvent] = []
        for _ in 0..<Int.random(in: 1...40, using: &random) {
            let start = UInt32.random(in: 0..<60, using: &random)
            let length = UInt32.random(in: 1...(seed % 2 == 0 ? 3 : 12), using: &random)
            events.append(DeletionEvent(inserter: replicas.randomElement(using: &random)!, seqs: start..<start + length,
                                        deleter: replicas[0], stamp: HLCTimestamp(rawValue: UInt64.random(in: 0..<8, using: &random)),
                                        text: Array(repeating: UInt8(ascii: "a") + UInt8(events.count % 26), count: Int(length))))
        }
        let index = TextSequence.DeletionTimes(events)
        for replica in replicas {
            let (list, first) = index.stretches(replica, from: 0)
            #expect(first == 0)
            // Stretches sorted, not overlapping, not empty.
            for (a, b) in zip(list, list.dropFirst()) { #expect(a.seqs.upperBound <= b.seqs.lowerBound) }
            for seq in UInt32(0)..<80 {
                var expected: Int?
                for (e, event) in events.enumerated() where event.inserter == replica && event.seqs.contains(seq) {
                    if expected.map({ event.stamp < events[$0].stamp }) ?? true { expected = e }
                }
                let found = list.first { $0.seqs.contains(seq) }
                #expect(found.map { Int($0.event) } == expected, "seed \(seed) replica \(replica.rawValue) seq \(seq)")
                if let found, let expected {
                    #expect(found.stamp == events[expected].stamp)
                    #expect(Array(index.bytes(of: seq..<seq + 1, in: found)) == [events[expected].text[0]])
                }
                let (_, from) = index.stretches(replica, from: seq)
                #expect(list[from...].first.map { $0.seqs.upperBound > seq } ?? true)
                #expect(list[..<from].allSatisfy { $0.seqs.upperBound <= seq })
            }
        }
    }
}
