import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteSupport

/// CloudKit's real failure modes, each injected by `InMemoryCloudDatabase`, and what the sync
/// engine does with them (Docs/CloudKit.md, "Errors").
@Suite struct CloudKitFaultTests {
    let zone = NoteSyncConfiguration().zone

    func makeDevice(_ store: any RecordStore, _ replica: UInt64, limits: NoteLimits = .default) throws -> TestDevice {
        try TestDevice(store, replica: replica, configuration: NoteSyncConfiguration(maxAttempts: 6, recordLimits: limits))
    }

    @Test func zoneErrorsWrappedInPartialFailureAreOneRecoveryPerBatch() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try makeDevice(store, 1)
        let b = try makeDevice(store, 2)
        for i in 0..<5 { try a.create("n\(i)", text: "note \(i)") }
        try await a.engine.sync()
        try await b.engine.sync()
        await db.setFaultPlan(FaultPlan(rate: 0, kinds: [], seed: 0, wrapsZoneErrors: true))
        try await store.deleteZone(zone) // a server reset; every error about it arrives wrapped
        for i in 0..<5 { try a.setText("note \(i) edited", of: "n\(i)") }
        // Saving first: 5 items each report zoneNotFound, and the zone is recovered once.
        try await a.engine.pushLocalChanges()
        #expect(await a.engine.statistics.zoneRecoveries == 1)
        #expect(await db.allRecords(in: zone).notes.count == 5)
        #expect(try a.unsavedNoteNames().isEmpty)
        // b's fetch meets a partial failure keyed by the zone: expired token, full refetch.
        try await b.engine.sync()
        #expect(try b.text(of: "n3") == "note 3 edited")
        #expect(await b.engine.statistics.fullRefetches + b.engine.statistics.zoneRecoveries == 1)
    }

    @Test func wrappedZoneErrorsHaveTheirZoneCode() async throws {
        let db = InMemoryCloudDatabase(faults: FaultPlan(rate: 0, kinds: [], seed: 0, wrapsZoneErrors: true))
        let store = CloudKitStyleRecordStore(database: db)
        let save = try #require(await StoreFixtures.storeError { try await store.saveRecords([StoreFixtures.note("x"), StoreFixtures.note("y")], in: zone) })
        #expect(save.code == .partialFailure && save.itemErrors.count == 2 && save.zoneErrorCode == .zoneNotFound)
        let fetch = try #require(await StoreFixtures.storeError { try await store.fetchChanges(in: zone, since: nil, limit: 5) })
        #expect(fetch.code == .partialFailure && fetch.zoneErrors[zone.zoneName]?.code == .zoneNotFound)
    }

    @Test func serverResponseLostAndCancelledOperationsAreRetried() async throws {
        let db = InMemoryCloudDatabase()
        let scripted = ScriptedCloudKitDatabase(backing: db, failing: [
            CloudKitFailure(.serverResponseLost, "response lost"), CloudKitFailure(.operationCancelled, "cancelled"),
        ])
        let device = try makeDevice(CloudKitStyleRecordStore(database: scripted), 1)
        try device.create("n", text: "kept")
        try await device.engine.sync()
        #expect(await device.engine.statistics.retries == 2)
        #expect(try device.unsavedNoteNames().isEmpty)
        // Injected: applied, then the response lost; the retry meets its own version and merges.
        try device.setText("kept, twice", of: "n")
        await db.setFaultPlan(FaultPlan(rate: 0.6, kinds: [.serverResponseLost, .operationCancelled], seed: 11))
        for _ in 0..<4 where try !device.unsavedNoteNames().isEmpty { _ = try? await device.engine.sync() }
        let counts = await db.faultCounts
        #expect(counts.serverResponseLost + counts.operationCancelled > 0)
        await db.setFaultPlan(.none)
        try await device.engine.sync()
        #expect(StoreFixtures.text(await db.allRecords(in: zone).notes.first) == "kept, twice")
    }

    @Test func aCancelledTaskStopsWithCancelledAndKeepsEdits() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let device = try makeDevice(store, 1)
        try device.create("n", text: "typed")
        let task = Task { () async -> NoteSyncError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(NoteSyncError) { try await device.engine.sync(); return nil } catch { return error }
        }
        #expect(await task.value?.code == .cancelled)
        #expect(try device.unsavedNoteNames() == ["n"])
        try await device.engine.sync()
        #expect(try device.unsavedNoteNames().isEmpty)
    }

    @Test(arguments: [(FaultPlan.Kinds.unreadableRecord, NoteSyncError.Code.recordUnreadable),
                      (.newerRecord, .newerVersionAvailable)])
    func aRecordThatCannotBeReadDoesNotBlockTheFeed(kind: FaultPlan.Kinds, code: NoteSyncError.Code) async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try makeDevice(store, 1)
        let b = try makeDevice(store, 2)
        try a.create("first", text: "one")
        try a.create("second", text: "two")
        try await a.engine.sync()
        try await b.engine.sync()
        try await b.engine.sync() // takes in the echo of its own device record
        try a.setText("one!", of: "first")
        try await a.engine.sync()
        try a.setText("two!", of: "second")
        try await a.engine.sync()
        let server = await db.allRecords(in: zone).notes
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: kind, seed: 3))
        let report = try await b.engine.sync() // the first changed record ("first") is delivered bad
        #expect(report.failedNotes == ["first"])
        #expect(report.failures["first"]?.code == code)
        #expect(report.changes == ["second": .textChanged]) // the feed went past it
        #expect(try b.text(of: "first") == "one") // untouched
        #expect(try b.unsavedNoteNames().isEmpty) // nothing to overwrite the server with
        #expect(await db.allRecords(in: zone).notes == server)
        await db.setFaultPlan(.none)
        #expect(try await b.engine.sync().isQuiet) // the token moved past it
    }

    @Test func aRecordRefusedAsTooLargeIsReportedWhileTheOthersSave() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let device = try makeDevice(store, 1)
        try await device.engine.sync() // announces the device before the faults
        try device.create("a", text: "a")
        try device.create("b", text: "b")
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .recordTooLarge, seed: 5))
        let report = try await device.engine.pushLocalChangesReport()
        #expect(report.failures.count == 1)
        #expect(report.failures.values.first?.code == .recordTooLarge)
        #expect(try device.unsavedNoteNames().count == 1)
        #expect(await db.allRecords(in: zone).notes.count == 1)
    }

    @Test func aForeignOrDamagedTokenMeansAFullRefetch() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let other = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        let a = try makeDevice(store, 1)
        try a.create("n", text: "hello")
        try await a.engine.sync()
        try await other.createZone(zone)
        let foreign = try await other.fetchChanges(in: zone, since: nil, limit: 10).token
        let saved = try a.transport()
        #expect(saved.token != nil)
        for token in [foreign, ChangeToken(bytes: [0xDE, 0xAD])] {
            var state = saved
            state.token = token
            try a.saveTransport(state)
            try a.restart() // the app starts again with that token in its library
            let report = try await a.engine.sync()
            #expect(await a.engine.statistics.fullRefetches == 1)
            #expect(report.failures.isEmpty && report.changes.isEmpty)
            #expect(try a.text(of: "n") == "hello")
            #expect(try a.transport().token != token) // the refetch saved the server's token
        }
    }

    @Test func expiredTokensAreInjectedAndRecoveredFrom() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try makeDevice(store, 1)
        let b = try makeDevice(store, 2)
        try a.create("n", text: "v1")
        try await a.engine.sync()
        try await b.engine.sync()
        try a.setText("v2", of: "n")
        try await a.engine.sync()
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .changeTokenExpired, seed: 1))
        _ = try? await b.engine.fetchRemoteChanges()
        await db.setFaultPlan(.none)
        try await b.engine.sync()
        #expect(await b.engine.statistics.fullRefetches >= 1)
        #expect(try b.text(of: "n") == "v2")
        #expect(await db.faultCounts.changeTokenExpired >= 1)
    }

    @Test func savedRecordsWithOnlySomeKeysAreCompleted() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try makeDevice(store, 1)
        let b = try makeDevice(store, 2)
        try await a.engine.sync() // announces the device before the faults
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .partialSavedRecords, seed: 2))
        try a.create("n", text: "base")
        try await a.engine.sync()
        #expect(await a.engine.statistics.savedRecordsCompleted == 1)
        await db.setFaultPlan(.none)
        try await b.engine.sync()
        try b.setText("base + b", of: "n")
        try await b.engine.sync()
        try a.setText("a + base", of: "n") // merged against the completed base record
        let report = try await a.engine.sync()
        #expect(report.failures.isEmpty)
        try await b.engine.sync()
        #expect(try a.text(of: "n") == "a + base + b")
        #expect(try b.text(of: "n") == "a + base + b")
    }

    @Test func aConflictWhoseServerAssetWasNotDownloadedFetchesIt() async throws {
        let small = NoteLimits(maxInlinePayload: 8, maxInlineText: 8) // payloads go to assets
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try makeDevice(store, 1, limits: small)
        let b = try makeDevice(store, 2, limits: small)
        try a.create("n", text: "shared text")
        try await a.engine.sync()
        try await b.engine.sync()
        try a.setText("shared text from a", of: "n")
        try await a.engine.sync()
        try b.setText("b: shared text", of: "n")
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .assetNotDownloaded, seed: 4))
        try await b.engine.pushLocalChanges() // conflict without the server's asset: fetched, merged, saved
        #expect(await b.engine.statistics.recordsRefetched >= 1)
        #expect(try b.unsavedNoteNames().isEmpty)
        await db.setFaultPlan(.none)
        try await a.engine.sync()
        #expect(try a.text(of: "n") == "b: shared text from a")
        #expect(try b.text(of: "n") == "b: shared text from a")
    }

    @Test func aFeedWithoutAssetBytesFetchesTheRecords() async throws {
        let small = NoteLimits(maxInlinePayload: 8, maxInlineText: 8)
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try makeDevice(store, 1, limits: small)
        let b = try makeDevice(store, 2, limits: small)
        try a.create("n", text: "in an asset")
        try await a.engine.sync()
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .assetNotDownloaded, seed: 4))
        let report = try await b.engine.sync()
        #expect(report.failures.isEmpty)
        #expect(report.changes == ["n": .added])
        #expect(try b.text(of: "n") == "in an asset")
    }

    @Test func theReportNamesEveryVisibleChange() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try makeDevice(store, 1)
        let b = try makeDevice(store, 2)
        try a.create("kept", text: "x")
        try a.create("edited", text: "x")
        try a.create("gone", text: "x")
        try await a.engine.sync()
        #expect(try await b.engine.sync().changes == ["kept": .added, "edited": .added, "gone": .added])
        try a.setText("y", of: "edited")
        try a.delete("gone")
        try a.create("new", text: "z")
        try await a.engine.sync()
        let report = try await b.engine.sync()
        #expect(report.changes == ["edited": .textChanged, "gone": .removed, "new": .added])
        #expect(report.changedNotes == ["edited", "gone", "new"])
        #expect(try await b.engine.sync().changes.isEmpty)
    }
}


/// `NoteSyncState`, what apps persisted before the note library: it still decodes and encodes
/// (apps read it once to import it), and a newer layout is refused, never taken as empty.
@Suite struct NoteSyncStateCodingTests {
    /// A state the release before the library saved (`NoteSyncStateImportTests`): "groceries"
    /// and "trip" synced (base records with their text in an asset), "groceries" edited since,
    /// "old" deleted after its sync (pending), "draft" never synced.
    static func savedState() throws -> NoteSyncState {
        try JSONDecoder().decode(NoteSyncState.self, from: Data(contentsOf: URL(fileURLWithPath: NoteSyncStateImportTests.fixture)))
    }

    @Test func aStateRoundTripsThroughJSON() async throws {
        var state = try Self.savedState()
        state.pendingDeletes["never-saved"] = NoteSyncState.PendingDelete(changeTag: nil)
        #expect(state.pendingDeletes["old"]?.changeTag != nil)
        #expect(state.notes["groceries"]?.base?.systemFields == nil)
        #expect(state.notes["draft"]?.base == nil)
        state.notes["groceries"]?.base?.systemFields = [1, 2, 3]
        state.token = ChangeToken(bytes: [1, 2, 0xFF])
        state.subscriptionID = "notes-changes"
        let data = try JSONEncoder().encode(state)
        let decoded = try JSONDecoder().decode(NoteSyncState.self, from: data)
        #expect(decoded == state)
        #expect(decoded.version == NoteSyncState.currentVersion)

        // Brought into a library: every note unsaved, the deletes pending, the texts as saved.
        let db = InMemoryCloudDatabase()
        let device = try TestDevice(CloudKitStyleRecordStore(database: db), replica: 1)
        #expect(try device.library.importNotes(from: decoded) == 3)
        try device.restart()
        #expect(try device.unsavedNoteNames() == ["draft", "groceries", "trip"])
        #expect(try device.pendingDeleteNames() == ["never-saved", "old"])
        #expect(try device.text(of: "groceries") == "Groceries\nmilk\neggs\n")
        // The state's token and subscription are not carried over: the feed is read from the start.
        #expect(try device.transport() == EngineTransportState())
        // Synced to an empty server: the notes saved, the deletes of records it never had done.
        let report = try await device.engine.sync()
        #expect(report.failures.isEmpty)
        #expect(try device.unsavedNoteNames().isEmpty && device.pendingDeleteNames().isEmpty)
        #expect(await db.allRecords(in: NoteSyncConfiguration().zone).notes.map(\.recordName).sorted() == ["draft", "groceries", "trip"])
        let other = try TestDevice(CloudKitStyleRecordStore(database: db), replica: 2)
        try await other.engine.sync()
        for name in ["draft", "groceries", "trip"] {
            #expect(try other.text(of: name) == device.text(of: name))
        }
    }

    @Test func aNewerStateIsRefusedNotDropped() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(NoteSyncState())) as? [String: Any])
        object["version"] = NoteSyncState.currentVersion + 1
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: NoteSyncStateDecodingError.self) { try JSONDecoder().decode(NoteSyncState.self, from: data) }
        // A newer state in memory is refused by the import, which brings nothing in.
        var state = try Self.savedState()
        state.version = NoteSyncState.currentVersion + 1
        let device = try TestDevice(CloudKitStyleRecordStore(database: InMemoryCloudDatabase()), replica: 1)
        let error = #expect(throws: NoteLibraryError.self) { try device.library.importNotes(from: state) }
        #expect(error?.code == .newerFormat)
        #expect(try device.library.list().isEmpty)
        #expect(try device.library.pendingDeletes.isEmpty)
    }
}
