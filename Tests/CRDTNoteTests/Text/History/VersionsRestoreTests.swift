import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// Versions, blame and restore (Docs/FORMAT.md §11.5) against an oracle that knows no ids: a
/// log of what each replica typed and deleted at which time, and (devices synced before each
/// edit) the text as an array of (character, typist, time).
@Suite struct VersionsRestoreTests {
    static func date(_ ms: UInt64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    struct Typed: Equatable { var scalar: Unicode.Scalar; var replica: ReplicaID; var ms: UInt64 }

    /// Sessions as the oracle computes them from its log of edits.
    static func sessions(_ log: [(replica: ReplicaID, ms: UInt64, inserted: Int, deleted: Int)], pause: UInt64) -> [NoteVersion] {
        var out: [NoteVersion] = []
        for replica in Set(log.map(\.replica)) {
            var open: (start: UInt64, end: UInt64, ins: Int, del: Int)?
            for edit in log.filter({ $0.replica == replica }).sorted(by: { $0.ms < $1.ms }) {
                if let o = open, edit.ms - o.end <= pause {
                    open = (o.start, edit.ms, o.ins + edit.inserted, o.del + edit.deleted)
                } else {
                    if let o = open { out.append(NoteVersion(replica: replica, start: date(o.start), end: date(o.end), inserted: o.ins, deleted: o.del)) }
                    open = (edit.ms, edit.ms, edit.inserted, edit.deleted)
                }
            }
            if let o = open { out.append(NoteVersion(replica: replica, start: date(o.start), end: date(o.end), inserted: o.ins, deleted: o.del)) }
        }
        return out.sorted { $0.start != $1.start ? $0.start < $1.start : $0.replica < $1.replica }
    }

    /// Random edits by 2–3 devices, each catching up with the others first, at times 1 s to
    /// 15 min apart: versions equal the oracle's sessions, blame names each character's typist
    /// and time, and restoring any seen time (undone in one step) gives that time's text.
    @Test(arguments: 0..<12 as Range<UInt64>)
    func versionsBlameAndRestoreMatchTheLog(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x5E55_0000 &+ seed)
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        let count = Int.random(in: 2...3, using: &random)
        var notes = (0..<count).map { i in
            var note = NoteText(replica: ReplicaID(rawValue: UInt64(0x20 + i)), clock: HybridLogicalClock(physicalClock: time.clock))
            note.historyRetention = .default
            return note
        }
        var model: [Typed] = []
        var log: [(replica: ReplicaID, ms: UInt64, inserted: Int, deleted: Int)] = []
        var seen: [(UInt64, String)] = [(time.milliseconds, "")]
        let alphabet = Array("ab é🙂\n")
        for _ in 0..<60 {
            time.advance(by: Bool.random(using: &random) ? UInt64.random(in: 1_001...20_000, using: &random)
                                                          : UInt64.random(in: 200_000...900_000, using: &random))
            let i = Int.random(in: 0..<count, using: &random)
            for j in 0..<count where j != i { try notes[i].merge(notes[j]) }
            let scalars = model.count
            if scalars > 0 && Int.random(in: 0..<3, using: &random) == 0 {
                let start = Int.random(in: 0..<scalars, using: &random)
                let range = start..<min(scalars, start + Int.random(in: 1...5, using: &random))
                try notes[i].deleteScalars(in: range)
                model.removeSubrange(range)
                log.append((notes[i].replica, time.milliseconds, 0, range.count))
            } else {
                let text = String((0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                let at = Int.random(in: 0...scalars, using: &random)
                try notes[i].insert(text, atScalarOffset: at)
                model.insert(contentsOf: text.unicodeScalars.map { Typed(scalar: $0, replica: notes[i].replica, ms: time.milliseconds) }, at: at)
                log.append((notes[i].replica, time.milliseconds, text.unicodeScalars.count, 0))
            }
            #expect(notes[i].string == String(String.UnicodeScalarView(model.map(\.scalar))))
            seen.append((time.milliseconds, notes[i].string))
        }
        for i in 0..<count { for j in 0..<count { try notes[i].merge(notes[j]) } }
        let note = notes[0]

        #expect(try note.versions(pause: 300) == Self.sessions(log, pause: 300_000), "seed \(seed)")

        // Blame, unit by unit, against the model.
        var expected: [(ReplicaID, UInt64)] = []
        for typed in model { for _ in 0..<typed.scalar.utf16.count { expected.append((typed.replica, typed.ms)) } }
        var found: [(ReplicaID, UInt64)] = []
        for span in try note.blame(utf16Range: 0..<note.utf16Count) {
            let ms = UInt64(((span.inserted?.timeIntervalSince1970 ?? 0) * 1000).rounded())
            for _ in span.utf16Range { found.append((span.replica, ms)) }
        }
        #expect(found.map(\.0) == expected.map(\.0) && found.map(\.1) == expected.map(\.1), "seed \(seed)")
        if note.utf16Count > 2 {
            let part = try note.blame(utf16Range: 1..<note.utf16Count - 1)
            #expect(part.first?.utf16Range.lowerBound == 1 && part.last?.utf16Range.upperBound == note.utf16Count - 1)
        }

        // Restore to seen times: the text then, as one undo step.
        for _ in 0..<5 {
            let (at, text) = seen[Int.random(in: 0..<seen.count, using: &random)]
            var copy = note.forked(as: ReplicaID(rawValue: 0x99))
            copy.undoLimit = 10
            time.advance(by: 1_000)
            try copy.restore(to: Self.date(at))
            #expect(copy.string == text, "seed \(seed) restore to \(at)")
            if copy.string != note.string {
                #expect(copy.canUndo)
                try copy.undo()
                #expect(copy.string == note.string, "seed \(seed): undo of the restore")
            }
        }
    }

    /// A note of replica 1 on the test clock `time`, keeping history with the default retention.
    static func noteKeepingHistory(clock time: ManualPhysicalClock) -> NoteText {
        var note = NoteText(replica: ReplicaID(rawValue: 1), clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = .default
        return note
    }

    /// A deletion event whose change was lost (a crash between the history frame and the
    /// change's) names visible text: versions count none of it; the copy that kept the change
    /// counts all of it.
    @Test func anEventWithoutItsChangeCountsNothingDeleted() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var kept = Self.noteKeepingHistory(clock: time)
        try kept.insert("milk, eggs, bread", atScalarOffset: 0)
        var lost = kept
        time.advance(by: 60_000)
        try kept.deleteScalars(in: 4..<10)                          // ", eggs"
        lost.history = kept.history                                 // the event, not the change
        #expect(try kept.versions().reduce(0) { $0 + $1.deleted } == 6)
        #expect(try lost.versions().reduce(0) { $0 + $1.deleted } == 0)
        #expect(lost.string == "milk, eggs, bread")
    }

    /// Two devices delete overlapping text concurrently: each character counts once, for the
    /// earlier deletion ("lo wor" first: 6; "world" then adds "l" and "d").
    @Test func textDeletedOnTwoDevicesCountsOnce() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var a = Self.noteKeepingHistory(clock: time)
        try a.insert("hello world", atScalarOffset: 0)
        var b = a.forked(as: ReplicaID(rawValue: 2))
        time.advance(by: 60_000)
        try a.deleteScalars(in: 3..<9)
        time.advance(by: 60_000)
        try b.deleteScalars(in: 6..<11)
        try a.merge(b)
        try b.merge(a)
        #expect(a.string == "hel" && b.string == "hel")
        for note in [a, b] {
            let deleted = try note.versions().map { ($0.replica.rawValue, $0.deleted) }.filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
            #expect(deleted.map(\.0) == [1, 2] && deleted.map(\.1) == [6, 2], "\(deleted)")
        }
    }

    /// Three devices typing, deleting (often the same text, concurrently) and merging in random
    /// orders: the versions of every copy add up to what was typed and what is gone, counted by
    /// the test from its own log of insertions.
    @Test(arguments: 0..<8 as Range<UInt64>)
    func versionsAddUpToWhatWasTypedAndWhatIsGone(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var notes = (1...3).map { i -> NoteText in
            var note = NoteText(replica: ReplicaID(rawValue: UInt64(i)), clock: HybridLogicalClock(physicalClock: time.clock))
            note.historyRetention = HistoryRetention(window: UInt64(1) << 52, minimumBytes: Int.max)
            return note
        }
        var typed = 0
        for _ in 0..<200 {
            time.advance(by: UInt64(1 + rng.below(5_000)))
            let i = rng.below(3)
            let count = notes[i].scalarCount
            switch rng.below(10) {
            case 0..<4:
                let text = String(repeating: "abcdefg", count: 1 + rng.below(2)).prefix(1 + rng.below(10))
                try notes[i].insert(String(text), atScalarOffset: rng.below(count + 1))
                typed += text.count
            case 4..<7 where count > 0:
                // Often the same stretch on two copies that have not merged yet.
                let lo = rng.below(2) == 0 ? min(count - 1, 2) : rng.below(count)
                try notes[i].deleteScalars(in: lo..<min(count, lo + 1 + rng.below(6)))
            default:
                try notes[i].merge(notes[rng.below(3)])
            }
        }
        for i in 0..<3 { for j in 0..<3 { try notes[i].merge(notes[j]) } }
        for note in notes {
            let versions = try note.versions()
            #expect(versions.reduce(0) { $0 + $1.inserted } == typed, "seed \(seed): inserted")
            #expect(versions.reduce(0) { $0 + $1.deleted } == typed - note.scalarCount, "seed \(seed): deleted")
        }
    }

    @Test func aRestoreMergedWithAConcurrentEditKeepsBoth() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var a = Self.noteKeepingHistory(clock: time)
        try a.insert("Plan: fly to Rome on Friday.", atScalarOffset: 0)
        let before = time.milliseconds
        time.advance(by: 60_000)
        try a.setText("Plan: take the train.")
        var b = a.forked(as: ReplicaID(rawValue: 2))
        time.advance(by: 60_000)
        try a.restore(to: Self.date(before))
        #expect(a.string == "Plan: fly to Rome on Friday.")
        try b.insert("Plan", atScalarOffset: 0)  // concurrent, at the start: "PlanPlan: take the train."
        try a.merge(b)
        try b.merge(a)
        #expect(a.string == b.string)
        #expect(a.string == "PlanPlan: fly to Rome on Friday.")
    }

    @Test func aDeletedPassageComesBackWithoutTouchingTheRest() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = Self.noteKeepingHistory(clock: time)
        try note.insert("Intro.\nThe 🙂 paragraph.\nOutro.", atScalarOffset: 0)
        let then = time.milliseconds
        time.advance(by: 60_000)
        try note.deleteScalars(in: 7..<22)             // "The 🙂 paragraph" (newline kept)
        time.advance(by: 60_000)
        try note.insert(", longer", atScalarOffset: 5)  // edits around it
        try note.insert("!", atScalarOffset: note.scalarCount)
        let past = try note.text(at: Self.date(then))
        let passage = (past as NSString).range(of: "The 🙂 paragraph.")
        time.advance(by: 60_000)
        try note.restore(utf16Range: passage.location..<passage.location + passage.length, at: Self.date(then))
        #expect(note.string == "Intro, longer.\nThe 🙂 paragraph.\nOutro.!")
        #expect(throws: NoteHistoryError.self) { try note.restore(utf16Range: 0..<1_000, at: Self.date(then)) }
        #expect(throws: NoteHistoryError.self) { try note.blame(utf16Range: 0..<1_000) }
    }
}
