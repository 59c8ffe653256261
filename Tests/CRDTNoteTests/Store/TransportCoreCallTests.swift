import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteToolSupport
import CRDTNoteDurableFiles

/// The core calls a transport with its own queue (`CKSyncEngine`) makes, driven by hand here
/// against the in-memory database: late records, deletes against concurrent edits, and
/// failures that must reach the report.
@Suite struct TransportCoreCallTests {
    let zone = NoteSyncConfiguration().zone

    func library(_ replica: UInt64) throws -> NoteLibrary {
        try NoteLibrary.create(folder: "/notes", replica: .test(replica), fileSystem: FaultInjectingFileSystem())
    }

    /// The change tag of the base record the library keeps for note `name`.
    func baseTag(_ library: NoteLibrary, _ name: String) throws -> String? {
        try library.withSyncAccess({ (error: NoteLibraryError) -> NoteLibraryError in error }) {
            (access: LibrarySyncAccess) throws(NoteLibraryError) -> String? in access.state(of: name)?.serverTag
        }
    }

    /// Every change of the zone from the start, each record handed to `core.receive` and each
    /// deletion to `receiveDeletion`, as `CKSyncEngine` delivers a fetch.
    func fetchAll(into core: inout NoteSyncCore, from store: CloudKitStyleRecordStore<InMemoryCloudDatabase>) async throws {
        let changes = try await store.fetchAllChanges(in: zone, since: nil)
        for record in changes.changed { try core.receive(record) }
        for name in changes.deletedRecordNames { try core.receiveDeletion(of: name) }
    }

    // MARK: Late records

    /// A note's versions reach a device in a random order, some twice: the base it keeps is
    /// always the newest received (by the server's modification time), its text that version's
    /// (each version extends the one before), and its next save needs no conflict round.
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func anOlderRecordDeliveredLateDoesNotMoveTheBaseBack(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let time = ManualPhysicalClock(milliseconds: 1_700_000_000_000)
        let db = InMemoryCloudDatabase()
        await db.setModificationClock(time.clock)
        let store = CloudKitStyleRecordStore(database: db)
        let writer = try NoteLibrary.create(folder: "/writer", replica: .test(1), fileSystem: FaultInjectingFileSystem())
        let writerEngine = NoteSyncEngine(library: writer, store: store, retryClock: RecordingClock())
        var versions: [CloudRecord] = []
        var text = "v0"
        try writer.create("n", text: text)
        for i in 0..<Int.random(in: 3...7, using: &random) {
            if i > 0 {
                text += " v\(i)"
                try writer.setText(text, of: "n")
            }
            try await writerEngine.sync()
            versions.append(try #require(await db.allRecords(in: zone).notes.first))
            time.advance(by: UInt64.random(in: 1...5_000, using: &random))
        }
        var deliveries = versions + (0..<3).compactMap { _ in versions.randomElement(using: &random) }
        deliveries.shuffle(using: &random)

        let reader = try library(2)
        var core = NoteSyncCore(library: reader)
        var newest: CloudRecord?
        for record in deliveries {
            try core.receive(record)
            if newest.map({ ($0.modified?.timestamp ?? 0) < (record.modified?.timestamp ?? 0) }) ?? true { newest = record }
            #expect(try baseTag(reader, "n") == newest?.recordChangeTag)
            #expect(try reader.text(of: "n") == NoteSyncCore.text(from: try #require(newest), replica: .test(9)).string)
        }
        #expect(try reader.text(of: "n") == text)
        try reader.setText(text + " read", of: "n")
        let record = try #require(try core.recordToSend(for: "n"))
        try core.recordWasSaved(try await store.save(record, in: zone)) // no serverRecordChanged
        #expect(core.statistics.conflictsMerged == 0)
    }

    // MARK: Deletes

    /// Device A (driven through the core calls, as a `CKSyncEngine` adapter drives it) deletes
    /// some notes while device B edits some of them. Whether A hears of B's edits through a
    /// fetch first (`receive`, then `deleteToSend(for:)` drops the delete) or checks each
    /// delete against the server's record (`deleteToSend(for:afterFetching:)`), every note B
    /// edited survives with B's text, on the server and on both devices; the rest of A's
    /// deletes go through.
    @Test(arguments: 1...24 as ClosedRange<UInt64>)
    func aDeleteNeverRemovesAnEditItHasNotSeen(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let libraryB = try NoteLibrary.create(folder: "/b", replica: .test(2), fileSystem: FaultInjectingFileSystem())
        let engineB = NoteSyncEngine(library: libraryB, store: store, retryClock: RecordingClock())
        let names = (0..<Int.random(in: 4...9, using: &random)).map { "n\($0)" }
        for name in names { try libraryB.create(name, text: "first \(name)") }
        try await engineB.sync()

        let libraryA = try library(1)
        var a = NoteSyncCore(library: libraryA)
        try await fetchAll(into: &a, from: store)
        let deleted = Set(names.filter { _ in Bool.random(using: &random) })
        let edited = Set(names.filter { _ in Bool.random(using: &random) })
        for name in deleted.sorted() { try libraryA.delete(name) }
        for name in edited.sorted() { try libraryB.setText("edited by B \(name)", of: name) }
        try await engineB.sync()

        let fetchFirst = Bool.random(using: &random)
        _ = a.takeReport()
        if fetchFirst {
            try await fetchAll(into: &a, from: store)
            #expect(a.takeReport().droppedDeletes == deleted.intersection(edited))
            for name in deleted.intersection(edited).sorted() { #expect(try a.deleteToSend(for: name) == false) }
        }
        #expect(Set(try a.pendingChanges().recordsToDelete) == (fetchFirst ? deleted.subtracting(edited) : deleted))
        for name in try a.pendingChanges().recordsToDelete {
            let go = fetchFirst ? try a.deleteToSend(for: name)
                : try a.deleteToSend(for: name, afterFetching: try await store.fetchRecord(named: name, in: zone))
            #expect(go == !edited.contains(name))
            guard go else { continue }
            try await store.deleteRecords(named: [name], in: zone)
            try a.deleteWasSent(name)
        }
        #expect(try a.pendingChanges().recordsToDelete.isEmpty)
        try await engineB.sync()
        try await fetchAll(into: &a, from: store)

        let survivors = Set(names).subtracting(deleted.subtracting(edited))
        #expect(Set(await db.allRecords(in: zone).notes.map(\.recordName)) == survivors)
        #expect(Set(try libraryA.list().map(\.name)) == survivors)
        #expect(Set(try libraryB.list().map(\.name)) == survivors)
        for name in edited {
            #expect(try libraryA.text(of: name) == "edited by B \(name)")
            #expect(try libraryB.text(of: name) == "edited by B \(name)")
        }
    }

    /// A failed delete: a record already gone confirms it; a zone error asks for the zone's
    /// recovery; anything else stops, named in the report.
    @Test func aFailedDeleteIsDecided() throws {
        let libraryA = try library(1)
        var core = NoteSyncCore(library: libraryA)
        try libraryA.create("x", text: "x")
        try libraryA.create("y", text: "y")
        try libraryA.delete("x")
        try libraryA.delete("y")
        #expect(core.deleteFailed("x", error: RecordStoreError(.unknownItem, recordName: "x", "gone")) == .done)
        #expect(try core.pendingChanges().recordsToDelete == ["y"])
        #expect(core.deleteFailed("y", error: RecordStoreError(.zoneNotFound, "no zone")) == .recreateZone)
        let quota = core.deleteFailed("y", error: RecordStoreError(.quotaExceeded, recordName: "y", "full"))
        guard case .stop(let error) = quota else {
            Issue.record("a full quota must stop, got \(quota)")
            return
        }
        #expect(error.code == .storeFailure)
        #expect(core.takeReport().errors == [error])
        #expect(try core.pendingChanges().recordsToDelete == ["y"])
    }

    // MARK: Errors reported

    /// A record `receive` cannot read, a deletion it cannot apply, and a save that stops: each
    /// is thrown or returned as before and also named in the report.
    @Test func failuresReachTheReport() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let writer = try NoteLibrary.create(folder: "/w", replica: .test(1), fileSystem: FaultInjectingFileSystem())
        try writer.create("n", text: "text")
        try await NoteSyncEngine(library: writer, store: store, retryClock: RecordingClock()).sync()
        let good = try #require(await db.allRecords(in: zone).notes.first)

        var core = NoteSyncCore(library: try library(2))
        let damaged = InMemoryCloudDatabase.damaged(good)
        let thrown = #expect(throws: NoteSyncError.self) { try core.receive(damaged) }
        let report = core.takeReport()
        #expect(report.failedNotes == ["n"])
        #expect(report.failures["n"]?.code == thrown?.code)

        let stop = core.recordSaveFailed("n", error: RecordStoreError(.quotaExceeded, "the user's iCloud is full"))
        guard case .stop(let error) = stop else {
            Issue.record("a full quota must stop, got \(stop)")
            return
        }
        #expect(core.takeReport().errors == [error])
        #expect(try core.receive(good) == .added)
        #expect(core.takeReport().failures.isEmpty)
    }
}
