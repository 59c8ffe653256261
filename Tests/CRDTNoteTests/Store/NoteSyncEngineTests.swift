import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
import CRDTNoteDurableFiles

@Suite struct NoteSyncEngineTests {
    let config = NoteSyncConfiguration()

    /// A device: a library of its own (simulated disk) and an engine on it.
    func device(_ store: any RecordStore, _ replica: ReplicaID, sleeper: SleepRecorder = SleepRecorder(),
                policy: NoteSyncConfiguration.DeleteConflictPolicy = .editResurrects) throws -> SyncTestDevice {
        var config = NoteSyncConfiguration(deleteConflictPolicy: policy)
        config.maxAttempts = 6
        return try SyncTestDevice(store: store, replica: replica, configuration: config, clock: sleeper)
    }

    @Test func offlineEditsOnTwoDevicesMerge() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let phone = try device(store, .test(1))
        let laptop = try device(store, .test(2))
        try phone.library.create("n", text: "Groceries")
        try await phone.engine.sync()
        try await laptop.engine.sync()
        #expect(try laptop.text("n") == "Groceries")
        // Both edit offline.
        try phone.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.insert(": milk", atScalarOffset: 9) }
        try laptop.library.setText("Groceries and eggs", of: "n")
        try await phone.engine.sync()
        try await laptop.engine.pushLocalChanges() // conflicts with the phone's save: merged, saved again
        #expect(await laptop.engine.statistics.conflictsMerged == 1)
        try await laptop.engine.sync()
        try await phone.engine.sync()
        let a = try phone.text("n")
        let b = try laptop.text("n")
        #expect(a == b)
        #expect(a == "Groceries: milk and eggs")
        #expect(try phone.unsaved().isEmpty)
        #expect(try laptop.unsaved().isEmpty)
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).notes.first) == a)
    }

    @Test func retryAfterIsHonouredThroughTheInjectedSleep() async throws {
        let db = ScriptedCloudKitDatabase(failing: [
            CloudKitFailure(.requestRateLimited, "slow down", retryAfterSeconds: 7),
            CloudKitFailure(.serviceUnavailable, "busy", retryAfterSeconds: 3),
        ])
        let sleeper = SleepRecorder()
        let device = try device(CloudKitStyleRecordStore(database: db), .test(1), sleeper: sleeper)
        try device.library.create("n", text: "hi")
        try await device.engine.sync()
        #expect(sleeper.waits == [.seconds(7), .seconds(3)])
        #expect(await device.engine.statistics.retries == 2)
        #expect(try device.unsaved().isEmpty)
    }

    @Test func attemptsAreBoundedAndEditsSurviveTheFailure() async throws {
        let failures = (0..<50).map { _ in CloudKitFailure(.networkFailure, "offline") }
        let db = ScriptedCloudKitDatabase(failing: failures)
        let sleeper = SleepRecorder()
        let device = try device(CloudKitStyleRecordStore(database: db), .test(1), sleeper: sleeper)
        try device.library.create("n", text: "keep me")
        await #expect(throws: NoteSyncError.self) { try await device.engine.sync() }
        #expect(await db.failuresServed == 6)
        #expect(sleeper.waits == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        #expect(try device.unsaved() == ["n"])
        await db.setScript([])
        try await device.engine.sync()
        #expect(try device.unsaved().isEmpty)
        #expect(StoreFixtures.text(await db.backing.allRecords(in: config.zone).notes.first) == "keep me")
    }

    @Test func anEditTypedDuringASaveStaysUnsavedUntilSaved() async throws {
        let db = InMemoryCloudDatabase()
        let disk = FaultInjectingFileSystem()
        let library = try NoteLibrary.create(folder: "/notes", replica: .test(1), fileSystem: disk)
        let once = OnceFlag()
        let store = HookedStore(backing: CloudKitStyleRecordStore(database: db)) {
            if await once.take() { try? library.setText("typed while saving", of: "n") }
        }
        let engine = NoteSyncEngine(library: library, store: store, retryClock: SleepRecorder())
        try library.create("n", text: "first")
        try await engine.pushLocalChanges()
        #expect(await once.fired)
        // The save carried "first"; the newer text must not be marked as saved.
        #expect(try library.list().filter(\.unsaved).map(\.name) == ["n"])
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).notes.first) == "first")
        try await engine.pushLocalChanges()
        #expect(try library.list().filter(\.unsaved).isEmpty)
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).notes.first) == "typed while saving")
    }

    @Test func limitExceededSplitsTheBatch() async throws {
        let db = InMemoryCloudDatabase(limits: RecordStoreLimits(maxRecordsPerRequest: 3))
        let store = CloudKitStyleRecordStore(database: db)
        let device = try device(store, .test(1))
        for i in 0..<10 { try device.library.create("n\(i)", text: "note \(i)") }
        try await device.engine.sync()
        #expect(await device.engine.statistics.batchSplits >= 2)
        #expect(await db.allRecords(in: config.zone).notes.count == 10)
        #expect(try device.unsaved().isEmpty)
    }

    @Test func aRecordTooLargeAloneIsReportedAndKept() async throws {
        let db = InMemoryCloudDatabase(limits: RecordStoreLimits(maxRecordBytes: 600))
        let store = CloudKitStyleRecordStore(database: db)
        let device = try device(store, .test(1))
        try device.library.create("small", text: "ok")
        try device.library.create("big", text: String(repeating: "x", count: 2000))
        let report = try await device.engine.sync()
        #expect(report.failedNotes == ["big"])
        #expect(try device.unsaved() == ["big"])
        #expect(try device.text("big") == String(repeating: "x", count: 2000))
        #expect(await db.allRecords(in: config.zone).notes.map(\.recordName) == ["small"])
    }

    /// Issue 27: the fault must fire on the saves. (`.networkFailure` at rate 1 failed the
    /// fetch first, so no save was ever sent and the test passed without testing anything.)
    @Test func aLostSaveResponseDoesNotDuplicateText() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let device = try device(store, .test(1))
        try device.library.create("n", text: "one")
        try await device.engine.sync()
        try device.library.setText("one two", of: "n")
        // Every save is applied, then its response is lost, until the plan is lifted
        // (`.serverResponseLost` is only drawn by writes: the fetch goes through).
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .serverResponseLost, seed: 2))
        await #expect(throws: NoteSyncError.self) { try await device.engine.sync() }
        let lost = await db.faultCounts.serverResponseLost
        #expect(lost >= 1, "the lost-response fault never fired")
        #expect(await db.faultCounts.total == lost)
        // The save was applied although its response was lost.
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).notes.first) == "one two")
        #expect(try device.unsaved() == ["n"])
        await db.setFaultPlan(.none)
        try await device.engine.sync()
        #expect(try device.text("n") == "one two")
        #expect(StoreFixtures.text(await db.allRecords(in: config.zone).notes.first) == "one two")
        #expect(try device.unsaved().isEmpty)
    }

    @Test func deleteThenEditElsewhereResurrectsTheNote() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try device(store, .test(1))
        let b = try device(store, .test(2))
        try a.library.create("n", text: "draft")
        try await a.engine.sync()
        try await b.engine.sync()
        try a.library.delete("n")
        try b.library.setText("draft, finished", of: "n")
        try await a.engine.sync() // delete reaches the server first
        try await b.engine.sync() // b learns of the delete with unsaved edits: resurrects
        try await a.engine.sync()
        #expect(try a.text("n") == "draft, finished")
        #expect(try b.text("n") == "draft, finished")
        let stats = await b.engine.statistics
        #expect(stats.notesResurrected == 1, "\(stats)")
    }

    @Test func editThenDeleteElsewhereResurrectsTheNote() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try device(store, .test(1))
        let b = try device(store, .test(2))
        try a.library.create("n", text: "draft")
        try await a.engine.sync()
        try await b.engine.sync()
        try b.library.setText("draft v2", of: "n")
        try await b.engine.sync() // the edit reaches the server first
        try a.library.delete("n") // a had not seen it
        try await a.engine.sync()
        try await b.engine.sync()
        #expect(try a.text("n") == "draft v2")
        #expect(try b.text("n") == "draft v2")
        #expect(await db.allRecords(in: config.zone).notes.count == 1)
    }

    @Test func aDeleteDoesNotRemoveAVersionItHasNotSeen() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try device(store, .test(1))
        let b = try device(store, .test(2))
        try a.library.create("n", text: "draft")
        try await a.engine.sync()
        try await b.engine.sync()
        try a.library.delete("n")
        try b.library.setText("draft v2", of: "n")
        try await b.engine.sync()
        try await a.engine.pushLocalChanges() // no fetch first: the delete meets an unseen version
        #expect(try a.text("n") == "draft v2")
        #expect(try a.library.pendingDeletes.isEmpty)
        #expect(await db.allRecords(in: config.zone).notes.count == 1)
    }

    @Test func deleteWinsPolicyDropsTheEdit() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try device(store, .test(1), policy: .deleteWins)
        let b = try device(store, .test(2), policy: .deleteWins)
        try a.library.create("n", text: "draft")
        try await a.engine.sync()
        try await b.engine.sync()
        try a.library.delete("n")
        try b.library.setText("draft, finished", of: "n")
        try await a.engine.sync()
        try await b.engine.sync()
        try await a.engine.sync()
        #expect(try a.names().isEmpty)
        #expect(try b.names().isEmpty)
        #expect(await b.engine.statistics.editsDroppedByDelete == 1)
        #expect(await db.allRecords(in: config.zone).notes.isEmpty)
    }

    @Test func aDeleteSeenByEveryoneRemovesTheNote() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try device(store, .test(1))
        let b = try device(store, .test(2))
        try a.library.create("n", text: "x")
        try await a.engine.sync()
        try await b.engine.sync()
        try b.library.delete("n")
        try await b.engine.sync()
        #expect(try b.library.pendingDeletes.isEmpty)
        try await a.engine.sync()
        #expect(try a.names().isEmpty)
        #expect(await db.allRecords(in: config.zone).notes.isEmpty)
    }

    /// A restart opens the library again from its folder (a real one here): the unsaved edit,
    /// and the change token, are still there.
    @Test func stateSurvivesARestart() async throws {
        let folder = StoreFixtures.temporaryDirectory() + "/library"
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let other = try device(store, .test(2))
        var library = try NoteLibrary.create(folder: folder, replica: .test(1))
        var engine = NoteSyncEngine(library: library, store: store, retryClock: SleepRecorder())
        try library.create("n", text: "saved")
        try await engine.sync()
        try library.setText("saved and unsaved", of: "n")
        // Restart: the process ends (no flush, no close) and the app opens the folder again.
        library = try NoteLibrary(folder: folder, replica: .test(1))
        engine = NoteSyncEngine(library: library, store: store, retryClock: SleepRecorder())
        #expect(try library.list().filter(\.unsaved).map(\.name) == ["n"])
        #expect(try library.text(of: "n") == "saved and unsaved")
        try await other.engine.sync()
        try other.library.create("m", text: "from other")
        try await other.engine.sync()
        let report = try await engine.sync()
        #expect(report.fetched == 1) // only the later change
        #expect(try library.text(of: "m") == "from other")
        try await other.engine.sync()
        #expect(try other.text("n") == "saved and unsaved")
    }

    @Test func aServerResetIsRecoveredWithoutLosingText() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let a = try device(store, .test(1))
        let b = try device(store, .test(2))
        try a.library.create("n1", text: "alpha")
        try b.library.create("n2", text: "beta")
        try await a.engine.sync()
        try await b.engine.sync()
        try await a.engine.sync()
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .zoneNotFound, seed: 4))
        _ = try? await store.fetchRecords(named: [], in: config.zone) // the reset
        await db.setFaultPlan(.none)
        #expect(await db.faultCounts.zoneNotFound == 1)
        #expect(await db.allRecords(in: config.zone).notes.isEmpty)
        try b.library.setText("beta!", of: "n2")
        try await b.engine.sync()
        try await a.engine.sync()
        try await b.engine.sync()
        #expect(try a.text("n1") == "alpha")
        #expect(try b.text("n1") == "alpha")
        #expect(try a.text("n2") == "beta!")
        #expect(try b.text("n2") == "beta!")
        #expect(await db.allRecords(in: config.zone).notes.count == 2)
    }

    @Test func userDeletedZoneWaitsForConsent() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        var config = NoteSyncConfiguration(userDeletedZonePolicy: .waitForConsent)
        config.maxAttempts = 3
        let device = try SyncTestDevice(store: store, replica: .test(1), configuration: config)
        try device.library.create("n", text: "mine")
        try await device.engine.sync()
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .userDeletedZone, seed: 1))
        let error = await #expect(throws: NoteSyncError.self) { try await device.engine.sync() }
        #expect(error?.code == .zoneDeletedByUser)
        #expect(try device.text("n") == "mine")
    }
}

/// The transport-free core an app drives when CKSyncEngine (here: a hand-written stand-in) is
/// the transport.
@Suite struct NoteSyncExternalTransportTests {
    let zone = NoteSyncConfiguration().zone

    func library(_ replica: ReplicaID) throws -> NoteLibrary {
        try NoteLibrary.create(folder: "/notes", replica: replica, fileSystem: FaultInjectingFileSystem())
    }

    /// What a CKSyncEngine delegate does for one send: build, save, report back. True: send again.
    func send(_ core: inout NoteSyncCore, _ name: String, to store: CloudKitStyleRecordStore<InMemoryCloudDatabase>) async throws -> Bool {
        guard let record = try core.recordToSend(for: name) else { return false }
        do {
            let saved = try await store.save(record, in: zone)
            try core.recordWasSaved(saved)
            return false
        } catch let error as RecordStoreError {
            switch core.recordSaveFailed(name, error: error) {
            case .sendAgain, .retryLater: return true
            default: return false
            }
        }
    }

    @Test func conflictPathMergesAndResends() async throws {
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        try await store.createZone(zone)
        let libraryA = try library(.test(1))
        let libraryB = try library(.test(2))
        var a = NoteSyncCore(library: libraryA)
        var b = NoteSyncCore(library: libraryB)
        try libraryA.create("n", text: "base")
        #expect(try await send(&a, "n", to: store) == false)
        let fetched = try #require(try await store.fetchRecord(named: "n", in: zone))
        #expect(try b.receive(fetched) == .added)
        try libraryA.setText("base + a", of: "n")
        try libraryB.setText("b + base", of: "n")
        #expect(try await send(&a, "n", to: store) == false)
        #expect(try await send(&b, "n", to: store) == true) // serverRecordChanged: merged, send again
        #expect(try await send(&b, "n", to: store) == false)
        #expect(try libraryB.text(of: "n") == "b + base + a")
        #expect(try b.unsavedNoteNames().isEmpty)
        #expect(b.takeReport().changes == ["n": .added]) // added, then changed by the merge: still "added"
        #expect(try a.receive(try #require(try await store.fetchRecord(named: "n", in: zone))) == .textChanged)
        #expect(try libraryA.text(of: "n") == "b + base + a")
        #expect(a.takeReport().changedNotes == ["n"])
    }

    @Test func anEditDuringTheSendStaysUnsaved() async throws {
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        try await store.createZone(zone)
        let libraryA = try library(.test(1))
        var a = NoteSyncCore(library: libraryA)
        try libraryA.create("n", text: "one")
        let record = try #require(try a.recordToSend(for: "n"))
        try libraryA.setText("one two", of: "n") // typed while the request is in flight
        try a.recordWasSaved(try await store.save(record, in: zone))
        #expect(try a.unsavedNoteNames() == ["n"])
        #expect(try await send(&a, "n", to: store) == false)
        #expect(try a.unsavedNoteNames().isEmpty)
        #expect(StoreFixtures.text(try await store.fetchRecord(named: "n", in: zone)) == "one two")
    }

    @Test func deletionsAndDeletedRecordsFollowThePolicy() async throws {
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        try await store.createZone(zone)
        let libraryA = try library(.test(1))
        var a = NoteSyncCore(library: libraryA)
        try libraryA.create("n", text: "x")
        _ = try await send(&a, "n", to: store)
        try await store.deleteRecords(named: ["n"], in: zone) // deleted elsewhere
        try libraryA.setText("x edited", of: "n")
        #expect(try await send(&a, "n", to: store) == true) // unknownItem: resurrect
        #expect(try await send(&a, "n", to: store) == false)
        #expect(StoreFixtures.text(try await store.fetchRecord(named: "n", in: zone)) == "x edited")
        try libraryA.delete("n")
        #expect(try a.pendingDeleteNames() == ["n"])
        try a.deleteWasSent("n")
        #expect(try a.pendingDeleteNames().isEmpty)
        #expect(try libraryA.pendingDeletes.isEmpty)
        #expect(try a.receiveDeletion(of: "n") == nil)
        #expect(try libraryA.list().isEmpty)
    }

    @Test func zoneLossInOneBatchIsOneRecovery() async throws {
        let libraryA = try library(ReplicaID(rawValue: 1))
        var a = NoteSyncCore(library: libraryA)
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        try await store.createZone(zone)
        for name in ["a", "b", "c"] {
            try libraryA.create(name, text: name)
            _ = try await send(&a, name, to: store)
        }
        #expect(try a.unsavedNoteNames().isEmpty)
        let lost = RecordStoreError.partialFailure(["a": RecordStoreError(.zoneNotFound, recordName: "a", "gone"),
                                                    "b": RecordStoreError(.zoneNotFound, recordName: "b", "gone")])
        #expect(a.recordSaveFailed("a", error: lost.itemErrors["a"]!) == .recreateZone)
        #expect(a.recordSaveFailed("b", error: lost.itemErrors["b"]!) == .recreateZone)
        try a.zoneWasLost(lost) // once for the batch
        #expect(a.statistics.zoneRecoveries == 1)
        #expect(try a.unsavedNoteNames() == ["a", "b", "c"])
    }
}
