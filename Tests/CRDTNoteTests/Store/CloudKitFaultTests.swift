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

    func engine(_ store: any RecordStore, _ replica: UInt64, limits: NoteLimits = .standard,
                state: NoteSyncState? = nil) throws -> NoteSyncEngine {
        let config = NoteSyncConfiguration(maxAttempts: 6, recordLimits: limits)
        return try NoteSyncEngine(store: store, replica: ReplicaID(rawValue: replica), configuration: config, state: state,
                                  retryClock: RecordingClock())
    }

    @Test func zoneErrorsWrappedInPartialFailureAreOneRecoveryPerBatch() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, 1)
        let b = try engine(store, 2)
        for i in 0..<5 { try await a.createNote("n\(i)", text: "note \(i)") }
        try await a.sync()
        try await b.sync()
        await db.setFaultPlan(FaultPlan(rate: 0, kinds: [], seed: 0, wrapsZoneErrors: true))
        try await store.deleteZone(zone) // a server reset; every error about it arrives wrapped
        for i in 0..<5 { try await a.setText("note \(i) edited", of: "n\(i)") }
        // Saving first: 5 items each report zoneNotFound, and the zone is recovered once.
        try await a.pushLocalChanges()
        #expect(await a.statistics.zoneRecoveries == 1)
        #expect(await db.allRecords(in: zone).count == 5)
        #expect(await a.unsavedNoteNames.isEmpty)
        // b's fetch meets a partial failure keyed by the zone: expired token, full refetch.
        try await b.sync()
        #expect(await b.text(of: "n3") == "note 3 edited")
        #expect(await b.statistics.fullRefetches + b.statistics.zoneRecoveries == 1)
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
        let device = try engine(CloudKitStyleRecordStore(database: scripted), 1)
        try await device.createNote("n", text: "kept")
        try await device.sync()
        #expect(await device.statistics.retries == 2)
        #expect(await device.unsavedNoteNames.isEmpty)
        // Injected: applied, then the response lost; the retry meets its own version and merges.
        try await device.setText("kept, twice", of: "n")
        await db.setFaultPlan(FaultPlan(rate: 0.6, kinds: [.serverResponseLost, .operationCancelled], seed: 11))
        for _ in 0..<4 where await !device.unsavedNoteNames.isEmpty { _ = try? await device.sync() }
        let counts = await db.faultCounts
        #expect(counts.serverResponseLost + counts.operationCancelled > 0)
        await db.setFaultPlan(.none)
        try await device.sync()
        #expect(StoreFixtures.text(await db.allRecords(in: zone).first) == "kept, twice")
    }

    @Test func aCancelledTaskStopsWithCancelledAndKeepsEdits() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let device = try engine(store, 1)
        try await device.createNote("n", text: "typed")
        let task = Task { () async -> NoteSyncError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(NoteSyncError) { try await device.sync(); return nil } catch { return error }
        }
        #expect(await task.value?.code == .cancelled)
        #expect(await device.unsavedNoteNames == ["n"])
        try await device.sync()
        #expect(await device.unsavedNoteNames.isEmpty)
    }

    @Test(arguments: [(FaultPlan.Kinds.unreadableRecord, NoteSyncError.Code.recordUnreadable),
                      (.newerRecord, .newerVersionAvailable)])
    func aRecordThatCannotBeReadDoesNotBlockTheFeed(kind: FaultPlan.Kinds, code: NoteSyncError.Code) async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, 1)
        let b = try engine(store, 2)
        try await a.createNote("first", text: "one")
        try await a.createNote("second", text: "two")
        try await a.sync()
        try await b.sync()
        try await a.setText("one!", of: "first")
        try await a.sync()
        try await a.setText("two!", of: "second")
        try await a.sync()
        let server = await db.allRecords(in: zone)
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: kind, seed: 3))
        let report = try await b.sync() // the first changed record ("first") is delivered bad
        #expect(report.failedNotes == ["first"])
        #expect(report.failures["first"]?.code == code)
        #expect(report.changes == ["second": .textChanged]) // the feed went past it
        #expect(await b.text(of: "first") == "one") // untouched
        #expect(await b.unsavedNoteNames.isEmpty) // nothing to overwrite the server with
        #expect(await db.allRecords(in: zone) == server)
        await db.setFaultPlan(.none)
        #expect(try await b.sync().isQuiet) // the token moved past it
    }

    @Test func aRecordRefusedAsTooLargeIsReportedWhileTheOthersSave() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let device = try engine(store, 1)
        try await device.createNote("a", text: "a")
        try await device.createNote("b", text: "b")
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .recordTooLarge, seed: 5))
        let report = try await device.pushLocalChangesReport()
        #expect(report.failures.count == 1)
        #expect(report.failures.values.first?.code == .recordTooLarge)
        #expect(await device.unsavedNoteNames.count == 1)
        #expect(await db.allRecords(in: zone).count == 1)
    }

    @Test func aForeignOrDamagedTokenMeansAFullRefetch() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let other = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        let a = try engine(store, 1)
        try await a.createNote("n", text: "hello")
        try await a.sync()
        try await other.createZone(zone)
        let foreign = try await other.fetchChanges(in: zone, since: nil, limit: 10).token
        for token in [foreign, ChangeToken(bytes: [0xDE, 0xAD])] {
            var state = await a.savedState()
            state.token = token
            let restarted = try engine(store, 1, state: state)
            let report = try await restarted.sync()
            #expect(await restarted.statistics.fullRefetches == 1)
            #expect(report.failures.isEmpty && report.changes.isEmpty)
            #expect(await restarted.text(of: "n") == "hello")
        }
    }

    @Test func expiredTokensAreInjectedAndRecoveredFrom() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, 1)
        let b = try engine(store, 2)
        try await a.createNote("n", text: "v1")
        try await a.sync()
        try await b.sync()
        try await a.setText("v2", of: "n")
        try await a.sync()
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .changeTokenExpired, seed: 1))
        _ = try? await b.fetchRemoteChanges()
        await db.setFaultPlan(.none)
        try await b.sync()
        #expect(await b.statistics.fullRefetches >= 1)
        #expect(await b.text(of: "n") == "v2")
        #expect(await db.faultCounts.changeTokenExpired >= 1)
    }

    @Test func savedRecordsWithOnlySomeKeysAreCompleted() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, 1)
        let b = try engine(store, 2)
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .partialSavedRecords, seed: 2))
        try await a.createNote("n", text: "base")
        try await a.sync()
        #expect(await a.statistics.savedRecordsCompleted == 1)
        await db.setFaultPlan(.none)
        try await b.sync()
        try await b.setText("base + b", of: "n")
        try await b.sync()
        try await a.setText("a + base", of: "n") // merged against the completed base record
        let report = try await a.sync()
        #expect(report.failures.isEmpty)
        try await b.sync()
        #expect(await a.text(of: "n") == "a + base + b")
        #expect(await b.text(of: "n") == "a + base + b")
    }

    @Test func aConflictWhoseServerAssetWasNotDownloadedFetchesIt() async throws {
        let small = NoteLimits(maxInlinePayload: 8, maxInlineText: 8) // payloads go to assets
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, 1, limits: small)
        let b = try engine(store, 2, limits: small)
        try await a.createNote("n", text: "shared text")
        try await a.sync()
        try await b.sync()
        try await a.setText("shared text from a", of: "n")
        try await a.sync()
        try await b.setText("b: shared text", of: "n")
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .assetNotDownloaded, seed: 4))
        try await b.pushLocalChanges() // conflict without the server's asset: fetched, merged, saved
        #expect(await b.statistics.recordsRefetched >= 1)
        #expect(await b.unsavedNoteNames.isEmpty)
        await db.setFaultPlan(.none)
        try await a.sync()
        #expect(await a.text(of: "n") == "b: shared text from a")
        #expect(await b.text(of: "n") == "b: shared text from a")
    }

    @Test func aFeedWithoutAssetBytesFetchesTheRecords() async throws {
        let small = NoteLimits(maxInlinePayload: 8, maxInlineText: 8)
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, 1, limits: small)
        let b = try engine(store, 2, limits: small)
        try await a.createNote("n", text: "in an asset")
        try await a.sync()
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .assetNotDownloaded, seed: 4))
        let report = try await b.sync()
        #expect(report.failures.isEmpty)
        #expect(report.changes == ["n": .added])
        #expect(await b.text(of: "n") == "in an asset")
    }

    @Test func theReportNamesEveryVisibleChange() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, 1)
        let b = try engine(store, 2)
        try await a.createNote("kept", text: "x")
        try await a.createNote("edited", text: "x")
        try await a.createNote("gone", text: "x")
        try await a.sync()
        #expect(try await b.sync().changes == ["kept": .added, "edited": .added, "gone": .added])
        try await a.setText("y", of: "edited")
        await a.deleteNote("gone")
        try await a.createNote("new", text: "z")
        try await a.sync()
        let report = try await b.sync()
        #expect(report.changes == ["edited": .textChanged, "gone": .removed, "new": .added])
        #expect(report.changedNotes == ["edited", "gone", "new"])
        #expect(try await b.sync().changes.isEmpty)
    }
}

@Suite struct NoteSyncStateCodingTests {
    @Test func aStateRoundTripsThroughJSON() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let config = NoteSyncConfiguration(recordLimits: NoteLimits(maxInlinePayload: 8, maxInlineText: 8))
        let device = try NoteSyncEngine(store: store, replica: ReplicaID(rawValue: 1), configuration: config, retryClock: RecordingClock())
        try await device.createNote("saved", text: "in an asset, with ünïcödé")
        try await device.createNote("gone", text: "deleted")
        try await device.sync()
        try await device.setText("saved, then edited", of: "saved")
        await device.deleteNote("gone")
        try await device.createNote("fresh", text: "never saved")
        var state = await device.savedState()
        state.pendingDeletes["never-saved"] = NoteSyncState.PendingDelete(changeTag: nil)
        #expect(state.pendingDeletes["gone"]?.changeTag != nil)
        #expect(state.notes["saved"]?.base?.systemFields == nil)
        state.notes["saved"]?.base?.systemFields = [1, 2, 3]
        let data = try JSONEncoder().encode(state)
        let decoded = try JSONDecoder().decode(NoteSyncState.self, from: data)
        #expect(decoded == state)
        #expect(decoded.version == NoteSyncState.currentVersion)
        let restarted = try NoteSyncEngine(store: store, replica: ReplicaID(rawValue: 1), configuration: config, state: decoded,
                                           retryClock: RecordingClock())
        #expect(await restarted.unsavedNoteNames == ["fresh", "saved"])
        #expect(await restarted.text(of: "saved") == "saved, then edited")
    }

    @Test func aNewerStateIsRefusedNotDropped() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(NoteSyncState())) as? [String: Any])
        object["version"] = NoteSyncState.currentVersion + 1
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: NoteSyncStateDecodingError.self) { try JSONDecoder().decode(NoteSyncState.self, from: data) }
        var state = NoteSyncState()
        state.version = NoteSyncState.currentVersion + 1
        let error = #expect(throws: NoteSyncError.self) { try NoteSyncCore(replica: ReplicaID(rawValue: 1), state: state) }
        #expect(error?.code == .newerVersionAvailable)
    }
}

extension NoteSyncEngine {
    /// `pushLocalChanges` and the report of what it did.
    func pushLocalChangesReport() async throws -> NoteSyncReport {
        _ = core.takeReport()
        try await pushLocalChanges()
        return core.takeReport()
    }
}
