import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite struct NoteSyncEngineTests {
    let config = NoteSyncConfiguration()

    func engine(_ store: any RecordStore, _ replica: ReplicaID, sleeper: SleepRecorder = SleepRecorder(),
                policy: NoteSyncConfiguration.DeleteConflictPolicy = .editResurrects) throws -> NoteSyncEngine {
        var config = NoteSyncConfiguration(deleteConflictPolicy: policy)
        config.maxAttempts = 6
        return try NoteSyncEngine(store: store, replica: replica, configuration: config, retryClock: sleeper)
    }

    @Test func offlineEditsOnTwoDevicesMerge() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let phone = try engine(store, .test(1))
        let laptop = try engine(store, .test(2))
        try await phone.createNote("n", text: "Groceries")
        try await phone.sync()
        try await laptop.sync()
        #expect(await laptop.text(of: "n") == "Groceries")
        // Both edit offline.
        try await phone.edit("n") { try $0.insert(": milk", atScalarOffset: 9) }
        try await laptop.setText("Groceries and eggs", of: "n")
        try await phone.sync()
        try await laptop.pushLocalChanges() // conflicts with the phone's save: merged, saved again
        #expect(await laptop.statistics.conflictsMerged == 1)
        try await laptop.sync()
        try await phone.sync()
        let a = await phone.text(of: "n")
        let b = await laptop.text(of: "n")
        #expect(a == b)
        #expect(a == "Groceries: milk and eggs")
        #expect(await phone.unsavedNoteNames.isEmpty)
        #expect(await laptop.unsavedNoteNames.isEmpty)
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).first) == a)
    }

    @Test func retryAfterIsHonouredThroughTheInjectedSleep() async throws {
        let db = ScriptedCloudKitDatabase(failing: [
            CloudKitFailure(.requestRateLimited, "slow down", retryAfterSeconds: 7),
            CloudKitFailure(.zoneBusy, "busy", retryAfterSeconds: 3),
        ])
        let sleeper = SleepRecorder()
        let device = try engine(CloudKitStyleRecordStore(database: db), .test(1), sleeper: sleeper)
        try await device.createNote("n", text: "hi")
        try await device.sync()
        #expect(sleeper.waits == [.seconds(7), .seconds(3)])
        #expect(await device.statistics.retries == 2)
        #expect(await device.unsavedNoteNames.isEmpty)
    }

    @Test func attemptsAreBoundedAndEditsSurviveTheFailure() async throws {
        let failures = (0..<50).map { _ in CloudKitFailure(.networkUnavailable, "offline") }
        let db = ScriptedCloudKitDatabase(failing: failures)
        let sleeper = SleepRecorder()
        let device = try engine(CloudKitStyleRecordStore(database: db), .test(1), sleeper: sleeper)
        try await device.createNote("n", text: "keep me")
        await #expect(throws: NoteSyncError.self) { try await device.sync() }
        #expect(await db.failuresServed == 6)
        #expect(sleeper.waits == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        #expect(await device.unsavedNoteNames == ["n"])
        await db.setScript([])
        try await device.sync()
        #expect(await device.unsavedNoteNames.isEmpty)
        #expect(StoreFixtures.text(await db.backing.allRecords(in: config.zone).first) == "keep me")
    }

    @Test func anEditTypedDuringASaveStaysUnsavedUntilSaved() async throws {
        let db = InMemoryCloudDatabase()
        let box = EngineBox()
        let store = HookedStore(backing: CloudKitStyleRecordStore(database: db)) {
            if let engine = await box.takeOnce() { try? await engine.setText("typed while saving", of: "n") }
        }
        let device = try engine(store, .test(1))
        await box.set(device)
        try await device.createNote("n", text: "first")
        try await device.pushLocalChanges()
        // The save carried "first"; the newer text must not be marked as saved.
        #expect(await device.unsavedNoteNames == ["n"])
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).first) == "first")
        try await device.pushLocalChanges()
        #expect(await device.unsavedNoteNames.isEmpty)
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).first) == "typed while saving")
    }

    @Test func limitExceededSplitsTheBatch() async throws {
        let db = InMemoryCloudDatabase(limits: RecordStoreLimits(maxRecordsPerRequest: 3))
        let store = CloudKitStyleRecordStore(database: db)
        let device = try engine(store, .test(1))
        for i in 0..<10 { try await device.createNote("n\(i)", text: "note \(i)") }
        try await device.sync()
        #expect(await device.statistics.batchSplits >= 2)
        #expect(await db.allRecords(in: config.zone).count == 10)
        #expect(await device.unsavedNoteNames.isEmpty)
    }

    @Test func aRecordTooLargeAloneIsReportedAndKept() async throws {
        let db = InMemoryCloudDatabase(limits: RecordStoreLimits(maxRecordBytes: 600))
        let store = CloudKitStyleRecordStore(database: db)
        let device = try engine(store, .test(1))
        try await device.createNote("small", text: "ok")
        try await device.createNote("big", text: String(repeating: "x", count: 2000))
        let report = try await device.sync()
        #expect(report.failedNotes == ["big"])
        #expect(await device.unsavedNoteNames == ["big"])
        #expect(await db.allRecords(in: config.zone).map(\.recordName) == ["small"])
    }

    @Test func aLostSaveResponseDoesNotDuplicateText() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let device = try engine(store, .test(1))
        try await device.createNote("n", text: "one")
        try await device.sync()
        try await device.setText("one two", of: "n")
        // Every save is applied, then its response is lost, until the plan is lifted.
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .networkFailure, seed: 2))
        _ = try? await device.sync()
        await db.setFaultPlan(.none)
        try await device.sync()
        #expect(await device.text(of: "n") == "one two")
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).first) == "one two")
        #expect(await device.unsavedNoteNames.isEmpty)
    }

    @Test func deleteThenEditElsewhereResurrectsTheNote() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, .test(1))
        let b = try engine(store, .test(2))
        try await a.createNote("n", text: "draft")
        try await a.sync()
        try await b.sync()
        await a.deleteNote("n")
        try await b.setText("draft, finished", of: "n")
        try await a.sync() // delete reaches the server first
        try await b.sync() // b learns of the delete with unsaved edits: resurrects
        try await a.sync()
        #expect(await a.text(of: "n") == "draft, finished")
        #expect(await b.text(of: "n") == "draft, finished")
        let stats = await b.statistics
        #expect(stats.notesResurrected == 1, "\(stats)")
    }

    @Test func editThenDeleteElsewhereResurrectsTheNote() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, .test(1))
        let b = try engine(store, .test(2))
        try await a.createNote("n", text: "draft")
        try await a.sync()
        try await b.sync()
        try await b.setText("draft v2", of: "n")
        try await b.sync() // the edit reaches the server first
        await a.deleteNote("n") // a had not seen it
        try await a.sync()
        try await b.sync()
        #expect(await a.text(of: "n") == "draft v2")
        #expect(await b.text(of: "n") == "draft v2")
        #expect(await db.allRecords(in: config.zone).count == 1)
    }

    @Test func aDeleteDoesNotRemoveAVersionItHasNotSeen() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, .test(1))
        let b = try engine(store, .test(2))
        try await a.createNote("n", text: "draft")
        try await a.sync()
        try await b.sync()
        await a.deleteNote("n")
        try await b.setText("draft v2", of: "n")
        try await b.sync()
        try await a.pushLocalChanges() // no fetch first: the delete meets an unseen version
        #expect(await a.text(of: "n") == "draft v2")
        #expect(await db.allRecords(in: config.zone).count == 1)
    }

    @Test func deleteWinsPolicyDropsTheEdit() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, .test(1), policy: .deleteWins)
        let b = try engine(store, .test(2), policy: .deleteWins)
        try await a.createNote("n", text: "draft")
        try await a.sync()
        try await b.sync()
        await a.deleteNote("n")
        try await b.setText("draft, finished", of: "n")
        try await a.sync()
        try await b.sync()
        try await a.sync()
        #expect(await a.noteNames.isEmpty)
        #expect(await b.noteNames.isEmpty)
        #expect(await b.statistics.editsDroppedByDelete == 1)
        #expect(await db.allRecords(in: config.zone).isEmpty)
    }

    @Test func aDeleteSeenByEveryoneRemovesTheNote() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, .test(1))
        let b = try engine(store, .test(2))
        try await a.createNote("n", text: "x")
        try await a.sync()
        try await b.sync()
        await b.deleteNote("n")
        try await b.sync()
        try await a.sync()
        #expect(await a.noteNames.isEmpty)
        #expect(await db.allRecords(in: config.zone).isEmpty)
    }

    @Test func stateSurvivesARestart() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let other = try engine(store, .test(2))
        var device = try engine(store, .test(1))
        try await device.createNote("n", text: "saved")
        try await device.sync()
        try await device.setText("saved and unsaved", of: "n")
        let state = await device.savedState()
        device = try NoteSyncEngine(store: store, replica: .test(1), state: state, retryClock: SleepRecorder()) // restart
        #expect(await device.unsavedNoteNames == ["n"])
        try await other.sync()
        try await other.createNote("m", text: "from other")
        try await other.sync()
        let report = try await device.sync()
        #expect(report.fetched == 1) // only the later change
        #expect(await device.text(of: "m") == "from other")
        try await other.sync()
        #expect(await other.text(of: "n") == "saved and unsaved")
    }

    @Test func aServerResetIsRecoveredWithoutLosingText() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try engine(store, .test(1))
        let b = try engine(store, .test(2))
        try await a.createNote("n1", text: "alpha")
        try await b.createNote("n2", text: "beta")
        try await a.sync()
        try await b.sync()
        try await a.sync()
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .zoneNotFound, seed: 4))
        _ = try? await store.fetchRecords(named: [], in: config.zone) // the reset
        await db.setFaultPlan(.none)
        try await b.setText("beta!", of: "n2")
        try await b.sync()
        try await a.sync()
        try await b.sync()
        #expect(await a.text(of: "n1") == "alpha")
        #expect(await b.text(of: "n1") == "alpha")
        #expect(await a.text(of: "n2") == "beta!")
        #expect(await b.text(of: "n2") == "beta!")
        #expect(await db.allRecords(in: config.zone).count == 2)
    }

    @Test func userDeletedZoneCanStopSyncing() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        var config = NoteSyncConfiguration(userDeletedZonePolicy: .stopSyncing)
        config.maxAttempts = 3
        let device = try NoteSyncEngine(store: store, replica: .test(1), configuration: config, retryClock: SleepRecorder())
        try await device.createNote("n", text: "mine")
        try await device.sync()
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .userDeletedZone, seed: 1))
        let error = await #expect(throws: NoteSyncError.self) { try await device.sync() }
        #expect(error?.code == .zoneDeletedByUser)
        #expect(await device.text(of: "n") == "mine")
    }
}

/// The transport-free core an app drives when CKSyncEngine (here: a hand-written stand-in) is
/// the transport.
@Suite struct NoteSyncExternalTransportTests {
    let zone = NoteSyncConfiguration().zone

    /// What a CKSyncEngine delegate does for one send: build, save, report back. True: send again.
    func send(_ core: inout NoteSyncCore, _ name: String, to store: CloudKitStyleRecordStore<InMemoryCloudDatabase>) async throws -> Bool {
        guard let record = try core.recordToSend(for: name) else { return false }
        do {
            let saved = try await store.save(record, in: zone)
            core.recordWasSaved(saved)
            return false
        } catch {
            switch core.recordSaveFailed(name, error: error) {
            case .sendAgain, .retryLater: return true
            default: return false
            }
        }
    }

    @Test func conflictPathMergesAndResends() async throws {
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        try await store.createZone(zone)
        var a = try NoteSyncCore(replica: .test(1))
        var b = try NoteSyncCore(replica: .test(2))
        try a.createNote("n", text: "base")
        #expect(try await send(&a, "n", to: store) == false)
        let fetched = try #require(try await store.fetchRecord(named: "n", in: zone))
        #expect(try b.receive(fetched) == .added)
        try a.setText("base + a", of: "n")
        try b.setText("b + base", of: "n")
        #expect(try await send(&a, "n", to: store) == false)
        #expect(try await send(&b, "n", to: store) == true) // serverRecordChanged: merged, send again
        #expect(try await send(&b, "n", to: store) == false)
        #expect(b.text(of: "n") == "b + base + a")
        #expect(b.unsavedNoteNames.isEmpty)
        #expect(b.takeReport().changes == ["n": .added]) // added, then changed by the merge: still "added"
        #expect(try a.receive(try #require(try await store.fetchRecord(named: "n", in: zone))) == .textChanged)
        #expect(a.text(of: "n") == "b + base + a")
        #expect(a.takeReport().changedNotes == ["n"])
    }

    @Test func anEditDuringTheSendStaysUnsaved() async throws {
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        try await store.createZone(zone)
        var a = try NoteSyncCore(replica: .test(1))
        try a.createNote("n", text: "one")
        let record = try #require(try a.recordToSend(for: "n"))
        try a.setText("one two", of: "n") // typed while the request is in flight
        a.recordWasSaved(try await store.save(record, in: zone))
        #expect(a.unsavedNoteNames == ["n"])
        #expect(try await send(&a, "n", to: store) == false)
        #expect(a.unsavedNoteNames.isEmpty)
    }

    @Test func deletionsAndDeletedRecordsFollowThePolicy() async throws {
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        try await store.createZone(zone)
        var a = try NoteSyncCore(replica: .test(1))
        try a.createNote("n", text: "x")
        _ = try await send(&a, "n", to: store)
        try await store.deleteRecords(named: ["n"], in: zone) // deleted elsewhere
        try a.setText("x edited", of: "n")
        #expect(try await send(&a, "n", to: store) == true) // unknownItem: resurrect
        #expect(try await send(&a, "n", to: store) == false)
        #expect(StoreFixtures.text(try await store.fetchRecord(named: "n", in: zone)) == "x edited")
        a.deleteNote("n")
        #expect(a.pendingDeleteNames == ["n"])
        a.deleteWasSent("n")
        #expect(a.pendingDeleteNames.isEmpty)
        #expect(a.receiveDeletion(of: "n") == nil)
        #expect(a.noteNames.isEmpty)
    }

    @Test func zoneLossInOneBatchIsOneRecovery() async throws {
        var a = try NoteSyncCore(replica: ReplicaID(rawValue: 1))
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        try await store.createZone(zone)
        for name in ["a", "b", "c"] {
            try a.createNote(name, text: name)
            _ = try await send(&a, name, to: store)
        }
        let lost = RecordStoreError.partialFailure(["a": RecordStoreError(.zoneNotFound, recordName: "a", "gone"),
                                                    "b": RecordStoreError(.zoneNotFound, recordName: "b", "gone")])
        #expect(a.recordSaveFailed("a", error: lost.itemErrors["a"]!) == .recreateZone)
        #expect(a.recordSaveFailed("b", error: lost.itemErrors["b"]!) == .recreateZone)
        try a.zoneWasLost(lost) // once for the batch
        #expect(a.statistics.zoneRecoveries == 1)
        #expect(a.unsavedNoteNames == ["a", "b", "c"])
    }
}
