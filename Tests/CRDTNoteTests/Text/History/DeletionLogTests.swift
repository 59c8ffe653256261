import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteSupport
import CRDTNoteToolSupport

/// Local deletions are logged with their stamp, deleter and text (Docs/FORMAT.md §11), and
/// merges unite what the copies logged.
@Suite struct DeletionLogTests {
    let phoneID = ReplicaID(rawValue: 0xA1)
    let laptopID = ReplicaID(rawValue: 0xB2)

    @Test func aDeletionIsLoggedWithItsStampAndText() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = try NoteText("hello brave world", replica: phoneID, clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = .default
        time.advance(by: 60_000)
        try note.deleteScalars(in: 6..<12)
        #expect(note.string == "hello world")
        let events = note.history.deletions
        #expect(events.count == 1)
        #expect(events.first?.text == Array("brave ".utf8))
        #expect(events.first?.seqs == 6..<12)
        #expect(events.first?.inserter == phoneID)
        #expect(events.first?.deleter == phoneID)
        #expect(events.first?.stamp.milliseconds == 1_700_000_060_000)
    }

    /// A merge that brings no text (the copies hold the same characters) still unites the
    /// histories, through either merge (with a patch for a view, or without), formatted or not.
    @Test(arguments: [true, false], [true, false])
    func aMergeBringingOnlyHistoryKeepsIt(recordingPatch: Bool, formatted: Bool) throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var phone = try NoteText("hello brave world", replica: phoneID, clock: HybridLogicalClock(physicalClock: time.clock))
        phone.historyRetention = .default
        if formatted { try phone.setMark(.bold, utf16Range: 0..<5) }
        time.advance(by: 60_000)
        try phone.deleteScalars(in: 6..<12)
        var laptop = phone
        laptop.history = NoteHistory()
        try laptop.merge(phone, recordingPatch: recordingPatch)
        #expect(laptop.string == "hello world")
        #expect(laptop.history.deletions == phone.history.deletions)
        #expect(laptop.history.deletions.count == 1)
    }

    @Test func nothingIsLoggedWithoutARetentionPolicy() throws {
        var note = try NoteText("hello brave world", replica: phoneID)
        try note.deleteScalars(in: 6..<12)
        try note.setText("hello")
        #expect(note.history.isEmpty)
    }

    @Test func setTextUndoAndUndoOfTypingAreLogged() throws {
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        var note = try NoteText("one two three", replica: phoneID, clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = .default
        note.undoLimit = 10
        time.advance(by: 1_000)
        try note.setText("one three")
        time.advance(by: 1_000)
        try note.insert("!", atScalarOffset: 9)
        time.advance(by: 1_000)
        try note.undo()                    // deletes the "!" again
        #expect(note.string == "one three")
        let texts = note.history.deletions.map { String(decoding: $0.text, as: UTF8.self) }
        #expect(texts.sorted() == ["!", "two "].sorted() || texts.sorted() == ["!", " two"].sorted())
        #expect(note.history.deletions.map(\.stamp.milliseconds) == [1_700_000_001_000, 1_700_000_003_000])
    }

    /// Random edits and merges between three devices; once everything is merged, the logged
    /// deletions cover every deleted character, each id once, with the character typed there:
    /// the characters typed minus those visible, counted by an oracle that never sees ids.
    @Test(arguments: 0..<12 as Range<UInt64>)
    func mergedLogsCoverEveryDeletedCharacter(seed: UInt64) throws {
        var random = SplitMix64(seed: 0xDE1E_0000 &+ seed)
        let ids = (1...3).map { ReplicaID(rawValue: 0x100 + UInt64($0)) }
        var notes = ids.map { id in
            var note = NoteText(replica: id)
            note.historyRetention = .default
            return note
        }
        // Odd seeds let devices undo (which brings text back as new characters the oracle does not count).
        if seed % 2 == 1 { for i in notes.indices { notes[i].undoLimit = 20 } }
        var typed: [Character: Int] = [:]
        let alphabet = Array("abcdefgh é🙂\n")
        for _ in 0..<150 {
            let i = Int.random(in: 0..<notes.count, using: &random)
            let count = notes[i].scalarCount
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let text = String((0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                try notes[i].insert(text, atScalarOffset: Int.random(in: 0...count, using: &random))
                for c in text.unicodeScalars { typed[Character(c), default: 0] += 1 }
            case 4..<7 where count > 0:
                let start = Int.random(in: 0..<count, using: &random)
                try notes[i].deleteScalars(in: start..<min(count, start + Int.random(in: 1...5, using: &random)))
            case 7 where notes[i].undoLimit > 0:
                try notes[i].undo()
            default:
                let j = Int.random(in: 0..<notes.count, using: &random)
                try notes[i].merge(notes[j])
            }
        }
        for _ in 0..<2 { for i in notes.indices { for j in notes.indices { try notes[i].merge(notes[j]) } } }
        let merged = notes[0]
        #expect(notes.allSatisfy { $0.string == merged.string && $0.history == merged.history })
        var deletedIDs: [ReplicaID: [UInt32: Character]] = [:]
        for event in merged.history.deletions {
            let scalars = Array(String(decoding: event.text, as: UTF8.self).unicodeScalars)
            #expect(scalars.count == event.seqs.count)
            for (k, seq) in event.seqs.enumerated() where k < scalars.count {
                let previous = deletedIDs[event.inserter, default: [:]].updateValue(Character(scalars[k]), forKey: seq)
                #expect(previous == nil || previous == Character(scalars[k]))
            }
        }
        var deleted: [Character: Int] = [:]
        for (_, byID) in deletedIDs { for (_, c) in byID { deleted[c, default: 0] += 1 } }
        var visible: [Character: Int] = [:]
        for c in merged.string.unicodeScalars { visible[Character(c), default: 0] += 1 }
        // Every inserted character is visible or logged as deleted, never both.
        var accounted = visible
        for (c, n) in deleted { accounted[c, default: 0] += n }
        if seed % 2 == 0 { #expect(accounted == typed) }
    }
}
