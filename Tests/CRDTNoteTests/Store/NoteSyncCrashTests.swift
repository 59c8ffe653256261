import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteSupport

/// A device's "disk" in these tests.
actor CrashTestDisk {
    private(set) var state = NoteSyncState()
    private(set) var writes = 0
    var failing = false

    func write(_ state: NoteSyncState) throws {
        struct Full: Error {}
        if failing { throw Full() }
        self.state = state
        writes += 1
    }

    func setFailing(_ value: Bool) { failing = value }
}

/// Process crashes: the engine persists local changes before they leave the device.
@Suite struct NoteSyncCrashTests {
    func launch(_ db: InMemoryCloudDatabase, _ replica: ReplicaID, disk: CrashTestDisk, state: NoteSyncState? = nil) throws -> NoteSyncEngine {
        try NoteSyncEngine(store: CloudKitStyleRecordStore(database: db), replica: replica, state: state, retryClock: RecordingClock(),
                           persistState: { state in try await disk.write(state) })
    }

    /// Regression (found by `NoteSyncSimulation` with crashes): a device that sent an edit and
    /// died before the app persisted restarted from an older state without that edit, then gave
    /// its next edit the same id as the one the server had: the note diverged and an edit was lost.
    @Test func aDeviceThatDiesAfterSendingNeverReusesTheIdsOfWhatItSent() async throws {
        let db = InMemoryCloudDatabase()
        let disk = CrashTestDisk()
        let phone = try launch(db, .test(1), disk: disk)
        try await phone.createNote("n", text: "one")
        try await phone.sync()
        try await phone.edit("n") { try $0.insert(" two", atScalarOffset: 3) }
        try await phone.sync()
        // The process dies here, before the app persisted after the sync; the engine had
        // persisted before sending, so the restart knows " two".
        let restarted = try launch(db, .test(1), disk: disk, state: await disk.state)
        #expect(await restarted.text(of: "n") == "one two")
        // Offline edit before any fetch: a new id, not the one " two" has on the server.
        try await restarted.edit("n") { try $0.insert(" three", atScalarOffset: 7) }
        try await restarted.sync()
        let laptop = try launch(db, .test(2), disk: CrashTestDisk())
        try await laptop.sync()
        #expect(await restarted.text(of: "n") == "one two three")
        #expect(await laptop.text(of: "n") == "one two three")
    }

    @Test func theStateIsPersistedOnlyWhenLocalChangesAreToBeSent() async throws {
        let db = InMemoryCloudDatabase()
        let disk = CrashTestDisk()
        let phone = try launch(db, .test(1), disk: disk)
        try await phone.sync()
        #expect(await disk.writes == 0) // nothing local to send
        try await phone.createNote("n", text: "a")
        try await phone.sync()
        #expect(await disk.writes == 1)
        #expect(await disk.state.notes["n"] != nil)
        try await phone.sync()
        #expect(await disk.writes == 1) // nothing new
        await phone.deleteNote("n")
        try await phone.sync()
        #expect(await disk.writes == 2)
    }

    @Test func aFailedPersistSendsNothing() async throws {
        let db = InMemoryCloudDatabase()
        let disk = CrashTestDisk()
        let phone = try launch(db, .test(1), disk: disk)
        try await phone.createNote("n", text: "a")
        await disk.setFailing(true)
        await #expect(throws: NoteSyncError.self) { try await phone.sync() }
        #expect(await db.allRecords(in: RecordZoneID(zoneName: "Notes")).isEmpty)
        #expect(await phone.unsavedNoteNames == ["n"])
        await disk.setFailing(false)
        try await phone.sync()
        #expect(await db.allRecords(in: RecordZoneID(zoneName: "Notes")).count == 1)
    }
}
