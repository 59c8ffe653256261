import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteDurableFiles
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
import CRDTNoteToolSupport

/// A library note keeps its history (Docs/LIBRARY.md, "History"): deletions made through the
/// library are journaled, survive reopening, compaction and another process, and sync; a
/// device that keeps none, or a history a newer release wrote, never loses another device's.
/// The oracle is the text the test saw after each edit, at the (manual) time of the edit.
@Suite struct LibraryHistoryTests {
    static let start: UInt64 = 1_700_000_000_000
    static func date(_ ms: UInt64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    static func library(_ fileSystem: FaultInjectingFileSystem, replica: UInt64, time: ManualPhysicalClock, create: Bool = false,
                        retention: HistoryRetention? = .default) throws -> NoteLibrary {
        var options = NoteLibrary.Options()
        options.historyRetention = retention
        let library = create
            ? try NoteLibrary.create(folder: "/library", replica: .test(replica), options: options, fileSystem: fileSystem)
            : try NoteLibrary(folder: "/library", replica: .test(replica), options: options, fileSystem: fileSystem)
        library.physicalClock = time.clock
        return library
    }

    /// Every (time, text) of `seen` as `note.text(at:)` gives it, with the half-way times.
    static func expectPast(_ note: NoteText, _ seen: [(UInt64, String)], _ context: String) {
        for (at, text) in seen {
            for t in [at, at + 30_000] {
                do {
                    #expect(try note.text(at: date(t)) == text, "\(context) at \(t)")
                } catch {
                    Issue.record("\(context) at \(t): \(error)")
                }
            }
        }
    }

    /// Whether some deleted element of `note` has no deletion event (a change kept without
    /// its history).
    static func hasUnloggedDeletions(_ note: NoteText) throws -> Bool {
        let events = note.history.readable().history.deletions
        return try note.loadedSequence().text(atMilliseconds: .max, deletions: TextSequence.DeletionTimes(events)).unknownDeletions
    }

    @Test func historySurvivesReopeningCompactionAndAnotherProcess() throws {
        let fileSystem = FaultInjectingFileSystem()
        let time = ManualPhysicalClock(milliseconds: Self.start)
        var library = try Self.library(fileSystem, replica: 1, time: time, create: true)
        var seen: [(UInt64, String)] = []
        func step(_ body: (NoteLibrary) throws -> Void) throws {
            time.advance(by: 60_000)
            try body(library)
            seen.append((time.milliseconds, try library.text(of: "n")))
        }
        try step { try $0.create("n", text: "Groceries: milk, eggs") }
        try step { try $0.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.deleteScalars(in: 11..<17) } }
        try step { try $0.setText("Groceries: eggs and bread", of: "n") }
        Self.expectPast(try library.note("n"), seen, "in memory")
        library = try Self.library(fileSystem, replica: 1, time: time)  // from the journal's frames
        Self.expectPast(try library.note("n"), seen, "reopened")
        try library.compact()
        library = try Self.library(fileSystem, replica: 1, time: time)  // from the pack's blob
        Self.expectPast(try library.note("n"), seen, "compacted")
        // Another process deletes; this one reads its frames at its next call.
        let other = try Self.library(fileSystem, replica: 2, time: time)
        _ = try library.note("n")  // cached here
        try step { _ in try other.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.deleteScalars(in: 0..<11) } }
        Self.expectPast(try library.note("n"), seen, "other process")
        try library.compact()
        Self.expectPast(try Self.library(fileSystem, replica: 3, time: time).note("n"), seen, "blob and frames united")
        #expect(try library.verify().isEmpty)
    }

    @Test func aLibraryWithoutHistoryLogsNothingButKeepsWhatArrives() throws {
        let fileSystem = FaultInjectingFileSystem()
        let time = ManualPhysicalClock(milliseconds: Self.start)
        let library = try Self.library(fileSystem, replica: 1, time: time, create: true, retention: nil)
        try library.create("n", text: "one two")
        time.advance(by: 60_000)
        try library.setText("one", of: "n")  // " two" deleted at an unknown time
        #expect(throws: NoteHistoryError.self) { try library.note("n").text(at: Self.date(Self.start + 1_000)) }
        // A copy that logged deletions is saved: its history is kept and survives reopening.
        var copy = try library.note("n")
        copy.historyRetention = .default
        time.advance(by: 60_000)
        try copy.insert(" three", atScalarOffset: 3)
        time.advance(by: 60_000)
        try copy.deleteScalars(in: 0..<4)
        try library.save(copy, as: "n")
        try library.compact()
        let reopened = try Self.library(fileSystem, replica: 1, time: time, retention: nil)
        // Covered from the copy's deletion on (the unlogged one shows as made).
        #expect(try reopened.note("n").text(at: Self.date(Self.start + 180_000)) == "three")
        #expect(throws: NoteHistoryError.self) { try reopened.note("n").text(at: Self.date(Self.start + 150_000)) }
        let kept = try reopened.note("n").history.readable().history.deletions.map { String(decoding: $0.text, as: UTF8.self) }
        #expect(kept.joined() == "one ")  // one event per stretch of one replica's ids
    }

    /// Random edits (deletions among them), flushes, compactions and reopenings, with the power
    /// cut at a random moment: after the crash no note holds a deletion without its event.
    @Test(arguments: 0..<4 as Range<UInt64>)
    func noChangeSurvivesACrashWithoutItsHistory(batch: UInt64) throws {
        for seed in batch * 25..<batch * 25 + 25 {
            var rng = SplitMix64(seed: 0x4157_0000 &+ seed)
            let fileSystem = FaultInjectingFileSystem()
            let time = ManualPhysicalClock(milliseconds: Self.start)
            var library = try Self.library(fileSystem, replica: 7, time: time, create: true)
            var model: [String: String] = [:]
            fileSystem.inject(.powerLoss, onOperation: 1 + Int(rng.next() % 120))
            for _ in 0..<40 {
                time.advance(by: 1_000 + rng.next() % 60_000)
                let step = NoteLibraryPowerLossTests.step(&rng, model: model)
                do {
                    if case .reopen = step {
                        fileSystem.crashProcess()
                        library = try Self.library(fileSystem, replica: 7, time: time)
                    } else {
                        _ = try NoteLibraryPowerLossTests.run(step, on: &library, fileSystem: fileSystem, model: model)
                    }
                    NoteLibraryPowerLossTests.apply(step, to: &model)
                } catch {
                    break
                }
            }
            fileSystem.crash(using: &rng)
            let recovered = try Self.library(fileSystem, replica: 8, time: time)
            for summary in try recovered.list() {
                #expect(try !Self.hasUnloggedDeletions(recovered.note(summary.name)), "seed \(seed), note \(summary.name)")
            }
        }
    }

    // MARK: Sync

    struct Device {
        let disk = FaultInjectingFileSystem()
        let library: NoteLibrary
        let engine: NoteSyncEngine

        init(_ store: any RecordStore, replica: UInt64, time: ManualPhysicalClock, retention: HistoryRetention? = .default,
             reads: UInt16 = NoteFormat.readerVersion) throws {
            library = try LibraryHistoryTests.library(disk, replica: replica, time: time, create: true, retention: retention)
            var configuration = NoteSyncConfiguration()
            configuration.readerVersion = reads
            engine = NoteSyncEngine(library: library, store: store, configuration: configuration, retryClock: RecordingClock())
        }
    }

    @Test func historySyncsBothWaysAndAcrossRestarts() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: Self.start)
        let a = try Device(store, replica: 1, time: time)
        let b = try Device(store, replica: 2, time: time)
        var seen: [(UInt64, String)] = []
        func step(_ device: Device, _ body: (NoteLibrary) throws -> Void) async throws {
            time.advance(by: 60_000)
            try body(device.library)
            seen.append((time.milliseconds, try device.library.text(of: "n")))
            try await device.engine.sync()
        }
        try await step(a) { try $0.create("n", text: "Dear Anna, the meeting is on Monday.") }
        try await step(a) { try $0.setText("Dear Anna, the meeting is on Tuesday.", of: "n") }
        try await b.engine.sync()
        try await step(b) { try $0.setText("Dear Anna, the meeting moved.", of: "n") }
        try await a.engine.sync()
        Self.expectPast(try a.library.note("n"), seen, "a")
        Self.expectPast(try b.library.note("n"), seen, "b")
        try a.library.compact()
        let reopened = try Self.library(a.disk, replica: 1, time: time)
        Self.expectPast(try reopened.note("n"), seen, "a reopened")
        // The server's record carries both devices' deletions.
        let stored = try #require(await db.allRecords(in: NoteSyncConfiguration().zone).notes.first)
        Self.expectPast(try NoteRecord(stored).read(as: .test(9)).note, seen, "record")
    }

    @Test func aDeviceKeepingNoHistoryDoesNotDropAnothersHistory() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: Self.start)
        let a = try Device(store, replica: 1, time: time)
        let off = try Device(store, replica: 2, time: time, retention: nil)
        try a.library.create("n", text: "alpha beta gamma")
        time.advance(by: 60_000)
        try a.library.setText("alpha gamma", of: "n")
        try await a.engine.sync()
        try await off.engine.sync()
        time.advance(by: 60_000)
        try off.library.setText("alpha gamma delta", of: "n")
        try await off.engine.sync()
        time.advance(by: 60_000)
        try off.library.setText("gamma delta", of: "n")
        try await off.engine.sync()
        let stored = try #require(await db.allRecords(in: NoteSyncConfiguration().zone).notes.first)
        let note = try NoteRecord(stored).read(as: .test(9)).note
        #expect(note.string == "gamma delta")
        // a's deletion is still there; the other device's is of unknown time (shown as made).
        let events = note.history.readable().history.deletions
        #expect(events.map(\.deleter) == [.test(1)])
        #expect(events.map { String(decoding: $0.text, as: UTF8.self) }.joined().contains("beta"))
        #expect(try note.text(at: Self.date(Self.start + 90_000)) == "gamma")
        #expect(throws: NoteHistoryError.self) { try note.text(at: Self.date(Self.start + 30_000)) }
    }

    @Test func aHistoryFromANewerReleaseIsKeptAndTheTextStillSyncs() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: Self.start)
        let a = try Device(store, replica: 1, time: time)
        try a.library.create("n", text: "one two")
        try await a.engine.sync()
        // A newer release writes a history payload this one cannot read.
        let zone = NoteSyncConfiguration().zone
        var stored = try #require(await db.allRecords(in: zone).notes.first)
        var newer = NoteHistory(deletions: []).encoded(format: .version1)
        newer[6] = 9  // minimum reader version 9 (header bytes 6-7, little-endian)
        newer[4] = 9
        stored[field: NoteSchema.Field.history] = .bytes(newer)
        _ = try #require(try await db.modifyRecords(saving: [stored], deleting: [], in: zone).saveResults[stored.recordName]).get()
        try await a.engine.sync()
        time.advance(by: 60_000)
        try a.library.setText("one", of: "n")  // a deletion this device logs
        try await a.engine.sync()
        let after = try #require(await db.allRecords(in: zone).notes.first)
        #expect(try NoteRecord(after).read(as: .test(9)).note.string == "one")
        #expect(after[field: NoteSchema.Field.history] == .bytes(newer))
        #expect(try a.library.list().allSatisfy { !$0.unsaved })
    }

    /// Three devices take turns (each fetches, edits, sends, so the note's past is one line of
    /// texts): lines typed at random places and deleted whole. Returns the devices, the database
    /// and every (time, text) after an edit.
    static func takeTurns(reads: UInt16, seed: UInt64) async throws -> ([Device], InMemoryCloudDatabase, [(UInt64, String)]) {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: Self.start)
        let devices = try (1...3).map { try Device(store, replica: $0, time: time, reads: reads) }
        for _ in 0..<2 { for device in devices { try await device.engine.sync() } }
        var seen: [(UInt64, String)] = []
        var random = SplitMix64(seed: seed)
        try devices[0].library.create("n", text: "")
        try await devices[0].engine.sync()
        for turn in 0..<60 {
            let device = devices[random.below(devices.count)]
            try await device.engine.sync()
            time.advance(by: 60_000)
            let lines = try device.library.text(of: "n").split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let starts = lines.reduce(into: [0]) { $0.append($0.last! + $1.unicodeScalars.count + 1) }
            if lines.count > 4 && random.below(3) > 0 {
                let line = random.below(lines.count)
                try device.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in
                    try note.deleteScalars(in: starts[line]..<starts[line + 1])
                }
            } else {
                let at = starts[random.below(starts.count)]
                try device.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in
                    try note.insert("line \(turn)\n", atScalarOffset: at)
                }
            }
            seen.append((time.milliseconds, try device.library.text(of: "n")))
            try await device.engine.sync()
        }
        for _ in 0..<4 { for device in devices { try await device.engine.sync() } }
        return (devices, db, seen)
    }

    /// Notes that keep history compact like any other once the fleet reads history version 2:
    /// what goes leaves shadows, so the past reads on every device, after reopening (the
    /// journal's frames), after the library's compaction (its pack) and from the server's record.
    @Test func notesWithHistoryCompactAndTheirPastStillReads() async throws {
        let (devices, db, seen) = try await Self.takeTurns(reads: NoteFormat.readerVersion, seed: 5)
        let texts = try Set(devices.map { try $0.library.text(of: "n") })
        #expect(texts == [seen.last?.1 ?? ""])
        for device in devices {
            let note = try device.library.note("n")
            #expect(note.isCompacted, "device \(device.library.replica) did not compact")
            #expect(!note.history.shadows.isEmpty, "device \(device.library.replica) kept no shadows")
            Self.expectPast(note, seen, "device \(device.library.replica)")
            let time = ManualPhysicalClock(milliseconds: Self.start)
            let reopened = try Self.library(device.disk, replica: UInt64(device.library.replica.rawValue), time: time)
            Self.expectPast(try reopened.note("n"), seen, "device \(device.library.replica) reopened")
            try reopened.compact()
            let packed = try Self.library(device.disk, replica: UInt64(device.library.replica.rawValue), time: time)
            Self.expectPast(try packed.note("n"), seen, "device \(device.library.replica) from its pack")
            #expect(try packed.verify().isEmpty)
        }
        let stored = try #require(await db.allRecords(in: NoteSyncConfiguration().zone).notes.first)
        let record = try NoteRecord(stored).read(as: .test(9)).note
        #expect(record.isCompacted)
        Self.expectPast(record, seen, "record")
    }

    /// A fleet with a device that reads history version 1 only gets records whose history
    /// cannot carry shadows: its notes with history are not compacted, and their past reads.
    @Test func notesWithHistoryWaitWhileTheFleetReadsHistoryVersionOne() async throws {
        let (devices, db, seen) = try await Self.takeTurns(reads: 3, seed: 5)
        for device in devices {
            let note = try device.library.note("n")
            #expect(!note.isCompacted, "device \(device.library.replica) compacted")
            Self.expectPast(note, seen, "device \(device.library.replica)")
        }
        let stored = try #require(await db.allRecords(in: NoteSyncConfiguration().zone).notes.first)
        Self.expectPast(try NoteRecord(stored).read(as: .test(9)).note, seen, "record")
    }
}
