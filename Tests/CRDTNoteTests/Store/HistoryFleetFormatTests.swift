import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteDurableFiles
import CRDTNoteTestSupport
@testable import CRDTNoteTesting

/// Which history payload version the sync engine writes (Docs/FORMAT.md §11.2 and "Mixed
/// fleets"): version 1 while an active device reads only up to payload version 3, version 2 once
/// every one reads 4, never back; the library's own journal and blobs hold version 2. Every
/// device reads every deletion either way (the oracle: the texts the test saw, at their times).
@Suite struct HistoryFleetFormatTests {
    static let start: UInt64 = 1_800_000_000_000
    static let zone = NoteSyncConfiguration().zone

    struct Device {
        let disk = FaultInjectingFileSystem()
        let library: NoteLibrary
        var engine: NoteSyncEngine
        let store: any RecordStore
        let time: ManualPhysicalClock

        init(_ store: any RecordStore, replica: UInt64, time: ManualPhysicalClock, reads: UInt16) throws {
            self.store = store
            self.time = time
            library = try LibraryHistoryTests.library(disk, replica: replica, time: time, create: true)
            engine = NoteSyncEngine(library: library, store: store, configuration: Self.configuration(reads), retryClock: RecordingClock(),
                                    wallClock: time.clock)
        }

        static func configuration(_ reads: UInt16) -> NoteSyncConfiguration {
            var configuration = NoteSyncConfiguration()
            configuration.readerVersion = reads
            return configuration
        }

        /// The app updated to a release reading `reads`.
        mutating func relaunch(reads: UInt16) {
            engine = NoteSyncEngine(library: library, store: store, configuration: Self.configuration(reads), retryClock: RecordingClock(),
                                    wallClock: time.clock)
        }
    }

    /// The minimum reader version of the server record's history field.
    static func serverHistoryVersion(_ db: InMemoryCloudDatabase) async throws -> UInt16? {
        let record = try #require(await db.allRecords(in: zone).notes.first)
        return NoteRecord(record).historyReaderVersion
    }

    @Test func versionTwoWaitsForTheWholeFleet() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: Self.start)
        let a = try Device(store, replica: 1, time: time, reads: NoteFormat.readerVersion)
        var b = try Device(store, replica: 2, time: time, reads: 3)
        for device in [a, b, a, b] { try await device.engine.sync() }
        var seen: [(UInt64, String)] = []
        func step(_ device: Device, _ text: String) async throws {
            time.advance(by: 60_000)
            if try device.library.list().contains(where: { $0.name == "n" }) {
                try device.library.setText(text, of: "n")
            } else {
                try device.library.create("n", text: text)
            }
            seen.append((time.milliseconds, text))
            try await device.engine.sync()
        }
        try await step(a, "Dear Anna, the meeting is on Monday.")
        try await step(a, "Dear Anna, the meeting is on Tuesday.")
        // b reads up to 3: the record's history is version 1, which it reads.
        #expect(try await Self.serverHistoryVersion(db) == 1)
        #expect(try await a.engine.fleet().heldBackBy.map(\.replicas) == [[.test(2)]])
        try await b.engine.sync()
        try await step(b, "Dear Anna, the meeting moved.")
        #expect(try await Self.serverHistoryVersion(db) == 1)
        // The library's own journal frames hold version 2 all along.
        let own = a.library.locked {
            a.library.state.numbers["n"].flatMap { a.library.state.notes[$0] }.map { $0.historyJournal.map { Array(a.library.state.journal[$0]) } } ?? []
        }
        #expect(!own.isEmpty && own.allSatisfy { PayloadHeader.requiredReaderVersion(of: $0) == 4 })

        // Compaction writes them into one history blob, in version 2.
        try a.library.compact()
        let entry = try #require(a.library.locked { a.library.state.numbers["n"].flatMap { a.library.state.notes[$0] } })
        let ref = try #require(entry.history)
        let blob = try HistoryBlob.payloads(in: try a.library.locked { () throws(NoteLibraryError) in try a.library.blob(ref, of: entry, "history") })
        #expect(!blob.isEmpty && blob.allSatisfy { PayloadHeader.requiredReaderVersion(of: $0) == 4 })

        // b updates: the fleet reads 4, and the next write is version 2.
        b.relaunch(reads: NoteFormat.readerVersion)
        try await b.engine.sync()
        try await a.engine.sync()
        try await step(a, "Dear Anna, the meeting moved to Friday.")
        #expect(try await Self.serverHistoryVersion(db) == 4)
        try await b.engine.sync()
        for device in [a, b] {
            LibraryHistoryTests.expectPast(try device.library.note("n"), seen, "device")
        }
        let stored = try #require(await db.allRecords(in: Self.zone).notes.first)
        LibraryHistoryTests.expectPast(try NoteRecord(stored).read(as: .test(9)).note, seen, "record")

        // Never back: b relaunched reading 3 again (a downgrade) does not make a write version 1.
        b.relaunch(reads: 3)
        try await b.engine.sync()
        try await a.engine.sync()
        try await step(a, "Dear Anna, Friday it is.")
        #expect(try await Self.serverHistoryVersion(db) == 4)
    }

    /// A pinned format says nothing of history readers: version 1.
    @Test func aPinnedFormatWritesVersionOne() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let time = ManualPhysicalClock(milliseconds: Self.start)
        let disk = FaultInjectingFileSystem()
        let library = try LibraryHistoryTests.library(disk, replica: 1, time: time, create: true)
        var configuration = NoteSyncConfiguration()
        configuration.payloadFormat = .pinned(.version3)
        let engine = NoteSyncEngine(library: library, store: store, configuration: configuration, retryClock: RecordingClock(),
                                    wallClock: time.clock)
        for _ in 0..<2 { try await engine.sync() }
        try library.create("n", text: "one two")
        time.advance(by: 60_000)
        try library.setText("one", of: "n")
        try await engine.sync()
        #expect(try await Self.serverHistoryVersion(db) == 1)
    }
}
