import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// Shadows (Docs/FORMAT.md §11.6): a note keeping history keeps the place of the tombstones a
/// compaction drops, so its past still reads after compactions.
@Suite struct ShadowRunTests {
    static func date(_ ms: UInt64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    @Test func thePastReadsAfterACompaction() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = NoteText(replica: ReplicaID(rawValue: 7), clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = .default
        note.undoLimit = 0                       // a note with undo steps does not compact
        var typed: [(UInt64, String)] = []
        func step(_ edit: (inout NoteText) throws -> Void) throws {
            time.advance(by: 60_000)
            try edit(&note)
            typed.append((time.milliseconds, note.string))
        }
        try step { try $0.insert("shopping: milk", atScalarOffset: 0) }
        try step { try $0.insert(", eggs", atScalarOffset: 14) }
        try step { try $0.deleteScalars(in: 14..<20) }               // ", eggs" goes; nothing names it
        try step { try $0.insert(" and bread", atScalarOffset: 14) }
        try step { try $0.deleteScalars(in: 0..<10) }                // named by "milk": stays a tombstone
        #expect(note.string == "milk and bread")
        try note.compact(settled: nil)
        #expect(note.sequence.hasCompactedIDs)
        #expect(!note.history.shadows.isEmpty)
        for (at, text) in typed { #expect(try note.text(at: Self.date(at)) == text) }
        // Without the shadows, the same note could only say the past is not covered.
        var forgetful = note
        forgetful.history = NoteHistory(deletions: note.history.deletions)
        #expect { try forgetful.text(at: Self.date(typed[0].0)) } throws: { ($0 as? NoteHistoryError)?.code == .notCovered }
    }

    /// Random edits, merges and compactions (dropping every tombstone the compacting copy holds,
    /// whether or not others saw it: whole-state merges stay exact) on 2–4 devices keeping
    /// history; an oracle that knows nothing of ids logs the text a device showed whenever it
    /// held every edit made so far. After everyone merged, `text(at:)` at each logged time on
    /// every device equals what was shown then.
    /// Retention drops the oldest events and the shadows only they need: the past still reads
    /// from the oldest kept event on, and before it is not covered; versions count the
    /// insertions of compacted text in their own sessions (their clock entries are in the
    /// shadows), as they did before the compaction.
    @Test func thePastReadsFromTheOldestKeptEventAfterRetentionTrims() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = NoteText(replica: ReplicaID(rawValue: 7), clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = HistoryRetention(minimumBytes: 40, visibleTextMultiple: 0)
        note.undoLimit = 0
        var typed: [(UInt64, String)] = []
        for i in 0..<14 {
            time.advance(by: 600_000)                                    // a session every 10 minutes
            try note.insert("line \(i)\n", atScalarOffset: 0)
            typed.append((time.milliseconds, note.string))
            if i >= 3 {
                time.advance(by: 60_000)
                let lines = note.string.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                let last = lines[lines.count - 2].count + 1
                try note.deleteScalars(in: (note.scalarCount - last)..<note.scalarCount)
                typed.append((time.milliseconds, note.string))
            }
        }
        let before = try note.versions(pause: 120)
        try note.compact(settled: nil)
        #expect(note.isCompacted)
        #expect(try note.versions(pause: 120) == before)
        var record = NoteRecord(recordName: "n")
        try record.write(note, limits: .default, mirror: .off, format: .version3, history: .version2, layout: nil)
        let read = try record.read(as: ReplicaID(rawValue: 9)).note
        let events = read.history.readable().history.deletions
        #expect(events.count < 11, "retention kept \(events.count) of 11 deletions")
        let horizon = try #require(events.first).stamp.milliseconds
        #expect(typed.contains { $0.0 < horizon } && typed.contains { $0.0 >= horizon })
        for (at, text) in typed {
            if at >= horizon {
                #expect(try read.text(at: Self.date(at)) == text, "at \(at)")
            } else {
                #expect(throws: NoteHistoryError.self, "at \(at)") { try read.text(at: Self.date(at)) }
            }
        }
    }

    @Test(arguments: 0..<16 as Range<UInt64>)
    func pastTextsSurviveCompactions(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x5AD0_0000 &+ seed)
        var fleet = PastTextFleet(count: Int.random(in: 2...4, using: &random), firstReplica: 0x20, retention: .default, undoLimit: 0)
        var compactions = 0
        for _ in 0..<90 {
            fleet.time.advance(by: UInt64.random(in: 1_001...9_000, using: &random))
            let i = Int.random(in: 0..<fleet.count, using: &random)
            if Bool.random(using: &random) { try fleet.catchUp(i) }
            let draw = Int.random(in: 0..<10, using: &random)
            if try fleet.typeOrDelete(i, draw: draw, using: &random) {
                // typed or deleted
            } else if draw == 7 || draw == 8 {
                let before = fleet.notes[i].string
                try fleet.notes[i].compact(settled: nil)
                #expect(fleet.notes[i].string == before)
                if fleet.notes[i].sequence.hasCompactedIDs { compactions += 1 }
            } else {
                try fleet.merge(i, from: Int.random(in: 0..<fleet.count, using: &random))
            }
            fleet.logIfCurrent(i)
        }
        try fleet.mergeAll()
        #expect(compactions > 0, "seed \(seed): no compaction dropped anything")
        for (i, note) in fleet.notes.enumerated() {
            #expect(note.string == fleet.notes[0].string)
            for (at, text) in fleet.seen {
                let past = try note.text(at: Self.date(at))
                #expect(past == text, "seed \(seed) device \(i) at \(at): \(past.debugDescription) expected \(text.debugDescription)")
            }
        }
        #expect(fleet.seen.count > 20)
    }

    /// Shadows of overlapping stretches (two copies dropped parts of one run) normalize to
    /// stretches that do not overlap, with each id's origins as before.
    @Test func overlappingShadowsNormalize() {
        let r = ReplicaID(rawValue: 5)
        let a = ShadowRun(inserter: r, seqs: 10..<20, left: .init(replica: r, seq: 3), right: nil)
        let b = ShadowRun(inserter: r, seqs: 15..<25, left: .init(replica: r, seq: 14), right: .init(replica: r, seq: 2))
        let normalized = ShadowRun.normalized([b, a, a])
        #expect(normalized.map(\.seqs) == [10..<20, 20..<25])
        #expect(normalized[1].left == .init(replica: r, seq: 19))
        #expect(normalized[1].right == .init(replica: r, seq: 2))
        #expect(ShadowRun.normalized([a, b]) == normalized)
    }
}
