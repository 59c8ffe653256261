import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteDurableFiles
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// A deletion that continues the last one (a backspace or delete-key run) less than a second
/// after that event's stamp joins it (Docs/FORMAT.md §11.1): one event, the first deletion's
/// stamp, the text in id order; copies that took the event in before it grew keep one event.
@Suite struct DeletionCoalescingTests {
    let phoneID = ReplicaID(rawValue: 0xA1)
    let laptopID = ReplicaID(rawValue: 0xB2)
    static let start: UInt64 = 1_700_000_000_000

    func note(_ text: String, _ time: ManualPhysicalClock, replica: ReplicaID? = nil) throws -> NoteText {
        var note = try NoteText(text, replica: replica ?? phoneID, clock: HybridLogicalClock(physicalClock: time.clock))
        note.historyRetention = .default
        return note
    }

    @Test func backspacesWithinASecondAreOneEvent() throws {
        let time = ManualPhysicalClock(milliseconds: Self.start)
        var note = try note("hello world", time)
        time.advance(by: 60_000)
        let first = time.milliseconds
        for k in 0..<5 {
            if k > 0 { time.advance(by: 199) }
            try note.deleteScalars(in: (10 - k)..<(11 - k))
        }
        #expect(note.string == "hello ")
        #expect(note.history.deletions.count == 1)
        let event = try #require(note.history.deletions.first)
        #expect(event.seqs == 6..<11 && event.text == Array("world".utf8) && event.stamp.milliseconds == first)
        // A second after the event's stamp, the next backspace starts a new event.
        time.advance(by: 1_000 - 4 * 199)
        try note.deleteScalars(in: 5..<6)
        #expect(note.history.deletions.map(\.seqs) == [6..<11, 5..<6])
        #expect(note.history.deletions.last?.stamp.milliseconds == first + 1_000)
    }

    @Test func theDeleteKeyJoinsForward() throws {
        let time = ManualPhysicalClock(milliseconds: Self.start)
        var note = try note("hello brave world", time)
        time.advance(by: 60_000)
        for _ in 0..<6 {
            try note.deleteScalars(in: 6..<7)
            time.advance(by: 150)
        }
        #expect(note.string == "hello world")
        #expect(note.history.deletions.map(\.seqs) == [6..<12])
        #expect(note.history.deletions.first?.text == Array("brave ".utf8))
    }

    /// Deletions that do not continue the last event stay apart: elsewhere in the text, of
    /// another replica's characters, or in one edit that removed several stretches.
    @Test func otherDeletionsStayApart() throws {
        let time = ManualPhysicalClock(milliseconds: Self.start)
        var phone = try note("abcdef", time)
        var laptop = phone.forked(as: laptopID)
        time.advance(by: 60_000)
        try laptop.insert("XY", atScalarOffset: 3)
        try phone.merge(laptop)  // "abcXYdef"
        try phone.deleteScalars(in: 7..<8)  // f
        time.advance(by: 100)
        try phone.deleteScalars(in: 4..<5)  // Y: another inserter
        time.advance(by: 100)
        try phone.deleteScalars(in: 0..<1)  // a: not next to the last event
        #expect(phone.string == "bcXde")
        #expect(phone.history.deletions.count == 3)
        #expect(phone.history.deletions.map { String(decoding: $0.text, as: UTF8.self) } == ["f", "Y", "a"])
    }

    /// A copy that took the event in before later backspaces joined it, united with the later
    /// copy (both merge orders, and through history payloads), holds each deleted id once.
    @Test func anEarlierCopyOfAJoinedEventIsDroppedOnUnion() throws {
        let time = ManualPhysicalClock(milliseconds: Self.start)
        var phone = try note("hello world", time)
        time.advance(by: 60_000)
        try phone.deleteScalars(in: 10..<11)
        let early = phone
        time.advance(by: 100)
        try phone.deleteScalars(in: 9..<10)
        time.advance(by: 100)
        try phone.deleteScalars(in: 8..<9)
        var laptop = early.forked(as: laptopID)
        try laptop.merge(phone)
        var back = phone
        try back.merge(early)
        for united in [laptop.history.normalized, back.history.normalized] {
            #expect(united.deletions.map(\.seqs) == [8..<11])
            #expect(united.deletions.first?.text == Array("rld".utf8))
        }
        for format in [HistoryFormat.version1, .version2] {
            var read = try NoteHistory(encoded: early.history.encoded(format: format))
            read.formUnion(try NoteHistory(encoded: phone.history.encoded(format: format)))
            #expect(read.deletions.map(\.seqs) == [8..<11])
        }
    }

    /// Random typing and deletions (backspace and delete-key runs, other places), 0–1,500 ms
    /// apart, with copies taken at random moments and united at the end: against a plain model
    /// of the text (each element's seq, character and the time it was deleted), every deleted
    /// element is covered by exactly one event with its character, and that event's stamp is
    /// at most its deletion time and less than a second before it.
    @Test(arguments: 0..<12 as Range<UInt64>)
    func eventsCoverEveryDeletionOnceToWithinASecond(seed: UInt64) throws {
        var random = SplitMix64(seed: 0xC0A1 &+ seed)
        let time = ManualPhysicalClock(milliseconds: Self.start)
        var note = try note("", time)
        var model: [(seq: UInt32, scalar: Unicode.Scalar)] = []
        var deletedAt: [UInt32: (scalar: Unicode.Scalar, ms: UInt64)] = [:]
        var nextSeq: UInt32 = 0
        var copies: [NoteText] = []
        var caret = 0
        for _ in 0..<400 {
            time.advance(by: UInt64(random.below(1_501)))
            switch random.below(10) {
            case 0...3:
                let scalar = Unicode.Scalar(UInt8(97 + random.below(26)))
                if random.below(4) == 0 { caret = random.below(model.count + 1) }
                try note.insert(String(scalar), atScalarOffset: caret)
                model.insert((nextSeq, scalar), at: caret)
                nextSeq += 1
                caret += 1
            default:
                guard !model.isEmpty else { continue }
                let at: Int
                switch random.below(3) {
                case 0: at = max(0, caret - 1)  // backspace
                case 1: at = min(caret, model.count - 1)  // delete key
                default: at = random.below(model.count)
                }
                try note.deleteScalars(in: at..<(at + 1))
                let gone = model.remove(at: at)
                deletedAt[gone.seq] = (gone.scalar, time.milliseconds)
                caret = min(at, model.count)
            }
            #expect(note.string == String(String.UnicodeScalarView(model.map(\.scalar))))
            if random.below(15) == 0 { copies.append(note) }
        }
        var united = note.history
        for copy in copies.shuffled(using: &random) {
            var other = NoteHistory()
            other.formUnion(copy.history)
            united.formUnion(other)
        }
        united.normalize()
        var covered: [UInt32: Int] = [:]
        for event in united.deletions {
            #expect(event.deleter == phoneID && event.inserter == phoneID)
            let scalars = Array(String(decoding: event.text, as: UTF8.self).unicodeScalars)
            #expect(scalars.count == event.seqs.count)
            for (k, seq) in event.seqs.enumerated() {
                covered[seq, default: 0] += 1
                guard let truth = deletedAt[seq] else { Issue.record("seq \(seq) was never deleted"); continue }
                #expect(k < scalars.count && scalars[k] == truth.scalar, "seq \(seq)")
                #expect(event.stamp.milliseconds <= truth.ms && truth.ms - event.stamp.milliseconds < 1_000, "seq \(seq)")
            }
        }
        #expect(covered.count == deletedAt.count && covered.values.allSatisfy { $0 == 1 }, "\(covered.filter { $0.value != 1 })")
    }

    /// An event covers another of its own stamp and replicas whose ids and text are a stretch
    /// of its own, wherever the stretch starts (multi-byte scalars included), compared one by
    /// one in order of their first id through one cursor, or each on its own.
    @Test func coveringComparesTheTextOfTheIdsInCommon() {
        let stamp = HLCTimestamp(rawValue: Self.start << 16)
        func event(_ seqs: Range<UInt32>, _ text: String) -> DeletionEvent {
            DeletionEvent(inserter: phoneID, seqs: seqs, deleter: phoneID, stamp: stamp, text: Array(text.utf8))
        }
        let whole = event(10..<21, "héllo wörld")
        let parts: [(DeletionEvent, Bool)] = [
            (event(10..<12, "hé"), true), (event(11..<14, "éll"), true), (event(13..<15, "lo"), true),
            (event(15..<18, " wö"), true), (event(17..<19, "ör"), true), (event(17..<19, "or"), false), (event(17..<20, "örl"), true),
            (event(20..<21, "d"), true), (event(20..<22, "d!"), false), (event(9..<11, "xh"), false),
        ]
        var cursor = DeletionEvent.TextCursor()
        for (part, expected) in parts {
            #expect(whole.holds(part, from: &cursor) == expected, "\(part.seqs)")
            #expect(whole.holds(part) == expected, "\(part.seqs) alone")
        }
        var other = event(12..<13, "l")
        other.stamp = HLCTimestamp(rawValue: (Self.start + 1) << 16)
        #expect(!whole.holds(other))
        other = event(12..<13, "l")
        other.deleter = laptopID
        #expect(!whole.holds(other))
    }

    /// `formUnion` (a walk, an append, a sort only when needed) against the plain union (both
    /// sets in one list, normalized): random sets like editing sessions make, with earlier states
    /// of joined events (same stamp, part of the ids and text) mixed in, split between two
    /// histories in random ways, united in both orders and with themselves.
    @Test(arguments: 0..<24 as Range<UInt64>)
    func unionEqualsTheNormalizedListOfBoth(seed: UInt64) {
        var random = SplitMix64(seed: 0x0C1A &+ seed)
        var events = HistoryColumnsTests.events(seed: 0x0C1B &+ seed, count: Int.random(in: 0...200, using: &random))
        // Earlier states of some events: a prefix or a suffix of their ids, with that text.
        for event in events.shuffled(using: &random).prefix(events.count / 4) where event.seqs.count > 1 {
            let scalars = Array(String(decoding: event.text, as: UTF8.self).unicodeScalars)
            guard scalars.count == event.seqs.count else { continue }
            let cut = Int.random(in: 1..<scalars.count, using: &random)
            var part = event
            if Bool.random(using: &random) {
                part.seqs = event.seqs.lowerBound..<(event.seqs.lowerBound + UInt32(cut))
                part.text = Array(String(String.UnicodeScalarView(scalars[..<cut])).utf8)
            } else {
                part.seqs = (event.seqs.lowerBound + UInt32(cut))..<event.seqs.upperBound
                part.text = Array(String(String.UnicodeScalarView(scalars[cut...])).utf8)
            }
            events.append(part)
        }
        // Two copies: a random split, a time-ordered split (one copy has the older events), or
        // one holding all.
        let sorted = events.sorted(by: DeletionEvent.precedes)
        let splits: [([DeletionEvent], [DeletionEvent])] = [
            events.reduce(into: ([], [])) { parts, event in
                switch random.below(3) {
                case 0: parts.0.append(event)
                case 1: parts.1.append(event)
                default: parts.0.append(event); parts.1.append(event)
                }
            },
            (Array(sorted.prefix(sorted.count / 2)), Array(sorted.dropFirst(sorted.count / 3))),
            (sorted, Array(sorted.prefix(sorted.count / 2))),
        ]
        for (a, b) in splits {
            let expected = NoteHistory(deletions: a + b).normalized.deletions
            for (x, y) in [(a, b), (b, a)] {
                var united = NoteHistory(deletions: x)
                united.formUnion(NoteHistory(deletions: y))
                #expect(united.normalized.deletions == expected)
                united.formUnion(united)
                #expect(united.normalized.deletions == expected)
            }
        }
    }

    /// A library journals an event again when a deletion joins it: reopened from its journal,
    /// the note's history holds the whole backspace run once.
    @Test func aLibraryKeepsAJoinedEventAcrossReopening() throws {
        let fileSystem = FaultInjectingFileSystem()
        let time = ManualPhysicalClock(milliseconds: Self.start)
        func open(create: Bool = false) throws -> NoteLibrary {
            let library = create
                ? try NoteLibrary.create(folder: "/library", replica: .test(1), fileSystem: fileSystem)
                : try NoteLibrary(folder: "/library", replica: .test(1), fileSystem: fileSystem)
            library.physicalClock = time.clock
            return library
        }
        var library = try open(create: true)
        try library.create("n", text: "hello world")
        time.advance(by: 60_000)
        for k in 0..<5 {
            try library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.deleteScalars(in: (10 - k)..<(11 - k)) }
            time.advance(by: 150)
        }
        #expect(try library.note("n").history.readable().history.deletions.map(\.seqs) == [6..<11])
        library = try open()
        let events = try library.note("n").history.readable().history.deletions
        #expect(events.map(\.seqs) == [6..<11] && events.first?.text == Array("world".utf8))
        try library.compact()
        #expect(try open().note("n").history.readable().history.deletions.map(\.seqs) == [6..<11])
    }
}
