import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteSupport
import CRDTNoteDurableFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crashes and power losses around sync steps. The library is the durable state: the engine
/// flushes it before anything leaves the device, and saves the change token only after the
/// notes it covers are durable.
@Suite struct NoteSyncCrashTests {
    let zone = RecordZoneID(zoneName: "Notes")

    func device(_ db: InMemoryCloudDatabase, _ replica: ReplicaID, configuration: NoteSyncConfiguration = NoteSyncConfiguration()) throws -> SyncTestDevice {
        try SyncTestDevice(store: CloudKitStyleRecordStore(database: db), replica: replica, configuration: configuration)
    }

    /// Every record the server holds is covered by the library's note of that name: merging the
    /// server's note into the library's changes nothing (no edit reached the server that the
    /// library lacks after a power loss).
    func expectServerCovered(by library: NoteLibrary, _ db: InMemoryCloudDatabase, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for record in await db.allRecords(in: zone).notes {
            let server = try NoteSyncCore.text(from: record, replica: ReplicaID(rawValue: 999))
            guard try library.summary(of: record.recordName) != nil else {
                Issue.record("the server holds \(record.recordName), the library does not", sourceLocation: sourceLocation)
                continue
            }
            var local = try library.note(record.recordName)
            let before = local.string
            let patch = try local.merge(server)
            #expect(patch.isEmpty && local.string == before,
                    "the server's \(record.recordName) has edits the library lost: \"\(server.string)\" vs \"\(before)\"",
                    sourceLocation: sourceLocation)
        }
    }

    /// Regression (found by `NoteSyncSimulation` with crashes): a device that sent an edit and
    /// lost it to a crash restarted without it, then gave its next edit the same id as the one
    /// the server had: the note diverged and an edit was lost. The engine flushes the library
    /// before sending, so the edit survives the power loss.
    @Test func aDeviceThatDiesAfterSendingNeverReusesTheIdsOfWhatItSent() async throws {
        let db = InMemoryCloudDatabase()
        var phone = try device(db, .test(1))
        try phone.library.create("n", text: "one")
        try await phone.engine.sync()
        try phone.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.insert(" two", atScalarOffset: 3) }
        try await phone.engine.sync()
        // Power loss right after the sync (the app never flushed): what was sent was flushed.
        try phone.restart(replica: .test(1)) { $0.crash() }
        #expect(try phone.text("n") == "one two")
        try await expectServerCovered(by: phone.library, db)
        // Offline edit before any fetch: a new id, not the one " two" has on the server.
        try phone.library.edit("n") { (note: inout NoteText) throws(NoteTextError) in try note.insert(" three", atScalarOffset: 7) }
        try await phone.engine.sync()
        let laptop = try device(db, .test(2))
        try await laptop.engine.sync()
        #expect(try phone.text("n") == "one two three")
        #expect(try laptop.text("n") == "one two three")
    }

    /// What replaced "the state is persisted when local changes are to be sent": after each
    /// sync step (create, edit, delete; none flushed by the app) a power loss keeps everything
    /// the server got, and the device converges with the server afterwards.
    @Test func aPowerLossAfterEachSyncStepLosesNothingTheServerHas() async throws {
        let db = InMemoryCloudDatabase()
        var phone = try device(db, .test(1))
        try await phone.engine.sync() // nothing to send
        try phone.restart(replica: .test(1)) { $0.crash() }
        #expect(try phone.names().isEmpty)

        try phone.library.create("n", text: "a")
        try phone.library.create("m", text: "kept")
        try await phone.engine.sync()
        try phone.restart(replica: .test(1)) { $0.crash() }
        #expect(try phone.names() == ["m", "n"])
        #expect(try phone.text("n") == "a")
        #expect(try phone.unsaved().isEmpty) // the confirmations were made durable too
        try await expectServerCovered(by: phone.library, db)

        try phone.library.setText("a b", of: "n")
        try await phone.engine.pushLocalChanges()
        try phone.restart(replica: .test(1)) { $0.crash() }
        #expect(try phone.text("n") == "a b")
        try await expectServerCovered(by: phone.library, db)

        try phone.library.delete("n")
        try await phone.engine.sync()
        #expect(await db.allRecords(in: zone).notes.map(\.recordName) == ["m"])
        try phone.restart(replica: .test(1)) { $0.crash() }
        try await expectServerCovered(by: phone.library, db)
        // Whatever the power loss kept of the delete, the next sync settles on the server's.
        try await phone.engine.sync()
        #expect(try phone.names() == ["m"])
        #expect(try phone.library.pendingDeletes.isEmpty)
        #expect(await db.allRecords(in: zone).notes.map(\.recordName) == ["m"])
        let laptop = try device(db, .test(2))
        try await laptop.engine.sync()
        #expect(try laptop.names() == ["m"])
        #expect(try laptop.text("m") == "kept")
    }

    /// The flush before sending fails (disk full): nothing is sent, the note stays unsaved,
    /// and the next sync sends it.
    @Test func aFailedFlushSendsNothing() async throws {
        let db = InMemoryCloudDatabase()
        let phone = try device(db, .test(1))
        try await phone.engine.sync()
        try phone.library.create("n", text: "a")
        phone.disk.inject(.error(ENOSPC), onOperation: 1, of: .syncFile)
        let error = await #expect(throws: NoteSyncError.self) { try await phone.engine.pushLocalChanges() }
        #expect(error?.code == .persistFailed, "\(String(describing: error))")
        #expect(await db.allRecords(in: zone).notes.isEmpty)
        #expect(try phone.unsaved() == ["n"])
        try await phone.engine.sync()
        #expect(await db.allRecords(in: zone).notes.count == 1)
        #expect(try phone.unsaved().isEmpty)
    }
}
