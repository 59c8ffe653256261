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
    @Test(arguments: 0..<16 as Range<UInt64>)
    func pastTextsSurviveCompactions(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x5AD0_0000 &+ seed)
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        let count = Int.random(in: 2...4, using: &random)
        var notes = (0..<count).map { i in
            var note = NoteText(replica: ReplicaID(rawValue: UInt64(0x20 + i)), clock: HybridLogicalClock(physicalClock: time.clock))
            note.historyRetention = .default
            note.undoLimit = 0
            return note
        }
        var made = Array(repeating: 0, count: count)
        var holds = Array(repeating: Array(repeating: 0, count: count), count: count)
        var seen: [(UInt64, String)] = [(time.milliseconds, "")]
        var compactions = 0
        let alphabet = Array("abcé🙂 \n")
        for _ in 0..<90 {
            time.advance(by: UInt64.random(in: 1_001...9_000, using: &random))
            let i = Int.random(in: 0..<count, using: &random)
            if Bool.random(using: &random) {
                for j in 0..<count where j != i {
                    try notes[i].merge(notes[j])
                    for k in 0..<count { holds[i][k] = max(holds[i][k], holds[j][k]) }
                }
            }
            let scalars = notes[i].scalarCount
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let text = String((0..<Int.random(in: 1...5, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                try notes[i].insert(text, atScalarOffset: Int.random(in: 0...scalars, using: &random))
                made[i] += 1; holds[i][i] += 1
            case 4..<7 where scalars > 0:
                let start = Int.random(in: 0..<scalars, using: &random)
                try notes[i].deleteScalars(in: start..<min(scalars, start + Int.random(in: 1...6, using: &random)))
                made[i] += 1; holds[i][i] += 1
            case 7, 8:
                let before = notes[i].string
                try notes[i].compact(settled: nil)
                #expect(notes[i].string == before)
                if notes[i].sequence.hasCompactedIDs { compactions += 1 }
            default:
                let j = Int.random(in: 0..<count, using: &random)
                try notes[i].merge(notes[j])
                for k in 0..<count { holds[i][k] = max(holds[i][k], holds[j][k]) }
            }
            if holds[i] == made { seen.append((time.milliseconds, notes[i].string)) }
        }
        for _ in 0..<2 { for i in 0..<count { for j in 0..<count { try notes[i].merge(notes[j]) } } }
        #expect(compactions > 0, "seed \(seed): no compaction dropped anything")
        for i in 0..<count {
            #expect(notes[i].string == notes[0].string)
            for (at, text) in seen {
                let past = try notes[i].text(at: Self.date(at))
                #expect(past == text, "seed \(seed) device \(i) at \(at): \(past.debugDescription) expected \(text.debugDescription)")
            }
        }
        #expect(seen.count > 20)
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
