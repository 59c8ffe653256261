import Foundation
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// 2–4 devices editing one note at known times, for tests of the past (Docs/FORMAT.md §11), and
/// an oracle that knows nothing of ids: how many edits each device made and how many of each
/// device's edits each holds, logging the text a device shows whenever it holds every edit
/// made so far. Tests pick the steps; this keeps the bookkeeping.
struct PastTextFleet {
    let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
    var notes: [NoteText]
    private var made: [Int]
    private var holds: [[Int]]
    /// (Unix milliseconds, the text a device holding every edit showed then).
    private(set) var seen: [(UInt64, String)]
    private static let alphabet = Array("abcé🙂 \n")

    /// `count` devices (replicas `firstReplica`, `firstReplica + 1`, ...) keeping history by `retention`.
    init(count: Int, firstReplica: UInt64, retention: HistoryRetention, undoLimit: Int) {
        let clock = time.clock
        notes = (0..<count).map { i in
            var note = NoteText(replica: ReplicaID(rawValue: firstReplica + UInt64(i)), clock: HybridLogicalClock(physicalClock: clock))
            note.historyRetention = retention
            note.undoLimit = undoLimit
            return note
        }
        made = Array(repeating: 0, count: count)
        holds = Array(repeating: Array(repeating: 0, count: count), count: count)
        seen = [(time.milliseconds, "")]
    }

    var count: Int { notes.count }

    /// Device `i` takes in `note`, a copy of device `j`'s (itself, or one through a record).
    mutating func merge(_ i: Int, _ note: NoteText, of j: Int) throws {
        try notes[i].merge(note)
        for k in 0..<count { holds[i][k] = max(holds[i][k], holds[j][k]) }
    }

    /// Device `i` merges device `j`'s copy.
    mutating func merge(_ i: Int, from j: Int) throws { try merge(i, notes[j], of: j) }

    /// Device `i` merges everyone else's copy.
    mutating func catchUp(_ i: Int) throws {
        for j in 0..<count where j != i { try merge(i, from: j) }
    }

    /// Device `i` types 1–5 random scalars at a random place (a `draw` below 4), or deletes 1–6
    /// at a random place (4 to 6, when it shows text). Returns whether it edited.
    mutating func typeOrDelete(_ i: Int, draw: Int, using random: inout SplitMix64) throws -> Bool {
        let scalars = notes[i].scalarCount
        switch draw {
        case 0..<4:
            let text = String((0..<Int.random(in: 1...5, using: &random)).map { _ in Self.alphabet.randomElement(using: &random)! })
            try notes[i].insert(text, atScalarOffset: Int.random(in: 0...scalars, using: &random))
        case 4..<7 where scalars > 0:
            let start = Int.random(in: 0..<scalars, using: &random)
            try notes[i].deleteScalars(in: start..<min(scalars, start + Int.random(in: 1...6, using: &random)))
        default:
            return false
        }
        edited(i)
        return true
    }

    /// Device `i` made an edit by other means (undo, redo).
    mutating func edited(_ i: Int) {
        made[i] += 1
        holds[i][i] += 1
    }

    /// Logs device `i`'s text when it holds every edit made so far.
    mutating func logIfCurrent(_ i: Int) {
        if holds[i] == made { seen.append((time.milliseconds, notes[i].string)) }
    }

    /// Everyone merges everyone, twice.
    mutating func mergeAll() throws {
        for _ in 0..<2 { for i in 0..<count { for j in 0..<count { try notes[i].merge(notes[j]) } } }
    }

    static func date(_ ms: UInt64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
}
