import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteToolSupport
import CRDTNoteDurableFiles

/// Zones purged, deleted or reset (Docs/CloudKit.md, section 6), on the in-memory database
/// that reports them as CloudKit does: requests fail with `userDeletedZone` after a purge and
/// `zoneNotFound` after a deletion, and its database-change log gives the reason.
@Suite struct ZoneLifecycleTests {
    let zone = NoteSyncConfiguration().zone

    /// A device with `count` random notes synced to `db`; returns it and its notes' texts.
    func syncedDevice(_ db: InMemoryCloudDatabase, seed: UInt64, count: Int) async throws -> (SyncTestDevice, [String: String]) {
        var random = SplitMix64(seed: seed)
        let device = try SyncTestDevice(store: CloudKitStyleRecordStore(database: db), replica: .test(seed))
        var texts: [String: String] = [:]
        for i in 0..<count {
            let text = "note \(i): " + String(repeating: "x", count: Int.random(in: 0...40, using: &random))
            try device.library.create("n\(i)", text: text)
            texts["n\(i)"] = text
        }
        try await device.engine.sync()
        return (device, texts)
    }

    /// The database-change deletions since the start, as a fetch of database changes reports them.
    func reasons(_ db: InMemoryCloudDatabase) async -> [NoteSyncZoneDeletion.Reason] {
        await db.zoneDeletions(since: 0).deletions.map(\.reason)
    }

    /// The user purges the app's data (while the app runs, or while it is closed): the next sync
    /// sends nothing and does not save the zone again; told of the purge, the library reports
    /// every note with its text and then removes it; later syncs send nothing of it.
    @Test(arguments: [(1, false), (2, true), (3, false), (4, true)] as [(UInt64, Bool)])
    func aPurgedZoneIsNeitherRefilledNorKept(seed: UInt64, relaunch: Bool) async throws {
        let db = InMemoryCloudDatabase()
        var (device, texts) = try await syncedDevice(db, seed: seed, count: 3 + Int(seed))
        try device.library.setText("edited before the purge", of: "n0")
        texts["n0"] = "edited before the purge"
        await db.purgeZone(zone)
        #expect(await reasons(db) == [.purged])
        if relaunch { try device.restart(replica: .test(100 + seed)) }
        let error = await #expect(throws: NoteSyncError.self) { try await device.engine.sync() }
        #expect(error?.code == .zoneDeletedByUser)
        #expect(await db.allRecords(in: zone).isEmpty)
        #expect(await db.zoneDeletions(since: 0).deletions.count == 1)
        // A second try sends nothing either: the deleted zone waits.
        _ = try? await device.engine.sync()
        #expect(await db.allRecords(in: zone).isEmpty)

        let purge = try await device.engine.zoneWasDeleted(.purged)
        #expect(purge.reason == .purged && !purge.awaitsConsent && purge.notesToSend.isEmpty)
        #expect(Dictionary(uniqueKeysWithValues: purge.removedNotes.map { ($0.name, $0.text) }) == texts.mapValues { Optional($0) })
        #expect(try device.library.list().isEmpty)
        try await device.engine.sync()
        #expect(await db.allRecords(in: zone).notes.isEmpty)
        // New notes go into the zone saved anew.
        try device.library.create("after", text: "written after the purge")
        try await device.engine.sync()
        #expect(await db.allRecords(in: zone).notes.map(\.recordName) == ["after"])
    }

    /// A zone the app deleted on another device (`.deleted`) keeps the notes here, is not
    /// created again until the app consents, and is filled again after it.
    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func aDeletedZoneWaitsForConsent(seed: UInt64) async throws {
        let db = InMemoryCloudDatabase()
        let (device, texts) = try await syncedDevice(db, seed: seed, count: 2 + Int(seed))
        try await db.deleteZone(zone)
        #expect(await reasons(db) == [.deleted])
        let deletion = try await device.engine.zoneWasDeleted(.deleted)
        #expect(deletion.awaitsConsent && deletion.removedNotes.isEmpty)
        #expect(try await device.engine.zoneStatus() == .deletedAwaitingConsent)
        try device.library.create("meanwhile", text: "written while the zone is gone")
        for _ in 0..<2 {
            let error = await #expect(throws: NoteSyncError.self) { try await device.engine.sync() }
            #expect(error?.code == .zoneDeletedByUser)
        }
        #expect(await db.allRecords(in: zone).isEmpty)
        #expect(try device.library.list().count == texts.count + 1)

        let toSend = try await device.engine.consentToRecreateZone()
        #expect(toSend.filter { !$0.hasPrefix(DeviceSchema.recordNamePrefix) } == (Array(texts.keys) + ["meanwhile"]).sorted())
        try await device.engine.sync()
        let onServer = try await db.noteTexts(in: zone)
        #expect(onServer == texts.merging(["meanwhile": "written while the zone is gone"]) { $1 })
    }

    /// `userDeletedZone` from a request (the way a store without database changes learns of
    /// it) waits for consent by default; `.recreateAndUpload` restores the old behaviour.
    @Test(arguments: [NoteSyncConfiguration.UserDeletedZonePolicy.waitForConsent, .recreateAndUpload])
    func userDeletedZoneFollowsThePolicy(policy: NoteSyncConfiguration.UserDeletedZonePolicy) async throws {
        let db = InMemoryCloudDatabase()
        let device = try SyncTestDevice(store: CloudKitStyleRecordStore(database: db), replica: .test(1),
                                        configuration: NoteSyncConfiguration(userDeletedZonePolicy: policy))
        try device.library.create("n", text: "mine")
        try await device.engine.sync()
        await db.purgeZone(zone)
        try device.library.setText("mine, edited", of: "n")
        if policy == .waitForConsent {
            let error = await #expect(throws: NoteSyncError.self) { try await device.engine.sync() }
            #expect(error?.code == .zoneDeletedByUser)
            #expect(await db.allRecords(in: zone).isEmpty)
            try await device.engine.consentToRecreateZone()
        }
        try await device.engine.sync()
        #expect(await db.allRecords(in: zone).notes.map(\.recordName) == ["n"])
        #expect(try device.unsaved().isEmpty)
    }

    /// An encrypted-data reset sends every note again, with its latest text.
    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func anEncryptedDataResetSendsEverythingAgain(seed: UInt64) async throws {
        let db = InMemoryCloudDatabase()
        var (device, texts) = try await syncedDevice(db, seed: seed, count: 2 + Int(seed))
        await db.resetEncryptedData(of: zone)
        #expect(await reasons(db) == [.encryptedDataReset])
        try device.restart(replica: .test(50 + seed))
        let reset = try await device.engine.zoneWasDeleted(.encryptedDataReset)
        #expect(!reset.awaitsConsent && reset.removedNotes.isEmpty)
        #expect(reset.notesToSend.filter { !$0.hasPrefix(DeviceSchema.recordNamePrefix) } == texts.keys.sorted())
        try await device.engine.sync()
        let onServer = try await db.noteTexts(in: zone)
        #expect(onServer == texts)
        #expect(try device.unsaved().isEmpty)
    }

    /// Through the core, as a `CKSyncEngine` adapter drives it: the zone status says when to
    /// save the zone, and nothing is pending while a deleted zone waits.
    @Test func theCoreSaysWhenToSaveTheZone() async throws {
        let library = try NoteLibrary.create(folder: "/notes", replica: .test(1), fileSystem: FaultInjectingFileSystem())
        var core = NoteSyncCore(library: library)
        #expect(try core.zoneStatus() == .needsSaving)
        try core.zoneWasSaved()
        #expect(try core.zoneStatus() == .exists)
        try library.create("n", text: "kept")
        #expect(try core.pendingChanges().recordsToSave.contains("n"))
        let deletion = try core.zoneWasDeleted(.deleted)
        #expect(deletion.awaitsConsent)
        #expect(try core.pendingChanges().isEmpty)
        #expect(try core.recordToSend(for: "n") == nil)
        #expect(try core.consentToRecreateZone().contains("n"))
        #expect(try core.zoneStatus() == .needsSaving)
        let purge = try core.zoneWasDeleted(.purged)
        #expect(purge.removedNotes == [NoteSyncRemovedNote(name: "n", title: "kept", text: "kept")])
        #expect(try core.pendingChanges().recordsToSave.allSatisfy { $0.hasPrefix(DeviceSchema.recordNamePrefix) })
    }
}
