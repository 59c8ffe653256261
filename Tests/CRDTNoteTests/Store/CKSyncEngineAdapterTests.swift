import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
import CRDTNoteToolSupport
import CRDTNoteDurableFiles

/// The library's CKSyncEngine adapter (`ExternalSyncAdapter`), driven by `SyncEngineModel` as
/// CKSyncEngine drives it on a device. Each test is a finding of issue #30 the hand-written
/// delegate of the old Docs/CloudKitSample got wrong.
@Suite struct CKSyncEngineAdapterTests {
    let zone = NoteSyncConfiguration().zone

    func database() async throws -> InMemoryCloudDatabase {
        let database = InMemoryCloudDatabase()
        try await database.saveZone(zone)
        return database
    }

    /// Outbox: several devices type (every edit flushed: the user saw it saved), sync, and crash
    /// at random events, losing the engine's state updates since the last one and whatever the
    /// library had not flushed. Afterwards every token each device typed is on the server
    /// exactly once, and every device holds the server's text. The oracle is the list of
    /// tokens typed, not the sync code.
    @Test(arguments: 1...6)
    func everyTypedNoteReachesTheServerAcrossCrashes(seed: UInt64) async throws {
        var rng = SplitMix64(seed: seed)
        let database = try await database()
        var devices = try (1...3).map { try EngineDevice(UInt64($0), database: database) }
        for device in devices { await device.start() }
        var typed: [String: [String]] = [:]   // note → tokens typed into it
        var crashes = 0
        for step in 0..<60 {
            let index = Int.random(in: 0..<devices.count, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let known = try devices[index].library.list().map(\.name)
                let name = known.isEmpty || Int.random(in: 0..<3, using: &rng) == 0 ? "d\(index)-\(step)" : known.randomElement(using: &rng) ?? "x"
                let token = "<\(index):\(step)>"
                try await devices[index].type(token, into: name)
                typed[name, default: []].append(token)
            case 5..<8:
                await devices[index].sync()
            default:
                await devices[index].model.crash(afterEvents: Int.random(in: 0..<14, using: &rng))
                await devices[index].sync()
                try await devices[index].crashAndRelaunch()
                crashes += 1
            }
        }
        for _ in 0..<4 {
            for index in devices.indices { #expect(await devices[index].sync()) }
        }
        let server = try await serverNotes(database)
        #expect(Set(server.keys) == Set(typed.keys), "seed \(seed)")
        for (name, tokens) in typed {
            for token in tokens {
                #expect(occurrences(of: token, in: server[name] ?? "") == 1, "seed \(seed): \(token) in \(name): \(server[name] ?? "missing")")
            }
        }
        for device in devices {
            #expect(try libraryNotes(device.library) == server, "seed \(seed), device \(device.id)")
            #expect(try NoteSyncCore(library: device.library).unsavedNoteNames().isEmpty)
            #expect(device.errors.isEmpty, "seed \(seed): \(device.errors)")
        }
        #expect(crashes > 0)
    }

    /// A note edited while its record is in flight stays unsaved when the save is answered;
    /// the adapter adds it again and the next batch carries the edit.
    @Test func anEditDuringASendIsSent() async throws {
        let database = try await database()
        var a = try EngineDevice(1, database: database)
        await a.start()
        try await a.type("one", into: "n")
        let library = a.library
        await a.model.whenBatchSent { try? library.setText("one two", of: "n") }
        await a.sync()
        #expect(try await serverNotes(database) == ["n": "one two"])
        #expect(a.errors.isEmpty && a.failures.isEmpty)
    }

    /// A conflict merged into the note leaves it unsaved: CKSyncEngine dropped the failed
    /// change, the adapter adds it again, and the merge reaches the server.
    @Test func aMergedConflictIsSent() async throws {
        var (database, a, b) = try await twoDevices(sharing: "n", text: "base")
        try await a.type(" +a", into: "n")
        try await b.type(" +b", into: "n")
        try await a.model.sendChanges()
        try await b.model.sendChanges()   // no fetch first: serverRecordChanged
        let server = try await serverNotes(database)
        #expect(occurrences(of: "+a", in: server["n"] ?? "") == 1 && occurrences(of: "+b", in: server["n"] ?? "") == 1, "\(server)")
        #expect(try NoteSyncCore(library: b.library).unsavedNoteNames().isEmpty)
    }
}

/// Conflicts on notes whose payload is an asset, deletes against edits, and errors.
@Suite struct CKSyncEngineAdapterConflictTests {
    let zone = NoteSyncConfiguration().zone

    /// Zero inline limits force every payload and text into assets; the conflict's server record
    /// comes without its asset bytes (as CloudKit may send it), so the core asks for the
    /// server's record: the adapter fetches it by name (not through the change feed, which
    /// does not deliver a version it already passed) and the merge reaches the server.
    @Test func aConflictOnANoteWithAnAssetResolvesByFetchingTheRecordByName() async throws {
        let configuration = NoteSyncConfiguration(recordLimits: NoteLimits(maxInlinePayload: 0, maxInlineText: 0))
        var (database, a, b) = try await twoDevices(sharing: "n", text: "base", configuration: configuration)
        let saved = await database.allRecords(in: zone).first { $0.recordName == "n" }
        #expect(saved.map(NoteSyncCore.lacksAssetBytes) == false)
        #expect(saved?.fields.values.contains { if case .asset = $0.value { return true }; return false } == true)
        try await a.type(" +a", into: "n")
        try await b.type(" +b", into: "n")
        try await a.model.sendChanges()
        await b.model.setConflictsWithoutAssets(true)
        let eventsBefore = await b.model.eventLog.count
        try await b.model.sendChanges()
        #expect(await b.model.recordsFetchedByName == ["n"])
        #expect(await b.model.eventLog.dropFirst(eventsBefore).contains("willFetchChanges") == false)   // no change-feed fetch
        let server = try await serverNotes(database)
        #expect(occurrences(of: "+a", in: server["n"] ?? "") == 1 && occurrences(of: "+b", in: server["n"] ?? "") == 1, "\(server)")
        await b.collectReport()
        #expect(b.failures.isEmpty && b.errors.isEmpty, "\(b.failures) \(b.errors)")
        await a.sync()
        #expect(try libraryNotes(a.library) == server)
    }

    /// A delete sent after another device edited the note (and this one has not fetched yet):
    /// CloudKit deletes unconditionally, so the adapter fetches the record by name first, finds
    /// a version it did not delete, and brings the note back instead. The edit survives.
    @Test func aDeleteDoesNotRemoveAnEditItHasNotSeen() async throws {
        var (database, a, b) = try await twoDevices(sharing: "n", text: "keep")
        try await a.delete("n")
        try await b.type(" this", into: "n")
        await b.sync()
        try await a.model.sendChanges()   // no fetch first
        #expect(try await serverNotes(database) == ["n": "keep this"])
        #expect(try libraryNotes(a.library) == ["n": "keep this"])
        #expect(await a.model.pendingRecordChanges().isEmpty)
    }

    /// The delete is pending in the engine when the fetch brings another device's edit back:
    /// the pending delete is dropped, not sent later.
    @Test func aPendingDeleteDoesNotDeleteANoteAnEditBroughtBack() async throws {
        var (database, a, b) = try await twoDevices(sharing: "n", text: "keep")
        try await a.delete("n")
        #expect(await a.model.pendingRecordChanges() == [.delete("n")])
        try await b.type(" this", into: "n")
        await b.sync()
        try await a.model.fetchChanges()
        #expect(await a.model.pendingRecordChanges().isEmpty)
        try await a.model.sendChanges()
        #expect(try await serverNotes(database) == ["n": "keep this"])
        #expect(try libraryNotes(a.library) == ["n": "keep this"])
    }

    /// A record the device cannot read is reported, naming the note; the other notes arrive.
    @Test func receiveErrorsAreReported() async throws {
        let database = InMemoryCloudDatabase()
        try await database.saveZone(zone)
        var a = try EngineDevice(1, database: database)
        var b = try EngineDevice(2, database: database)
        await a.start()
        await b.start()
        try await a.type("fine", into: "good")
        try await a.type("soon damaged", into: "bad")
        await a.sync()
        var damaged = try #require(await database.allRecords(in: zone).first { $0.recordName == "bad" })
        // The inline snapshot is in `payload` or, in the encrypted layout, `encryptedPayload`.
        let field = try #require(["payload", "encryptedPayload"].first { damaged.fields[$0] != nil })
        damaged.fields[field]?.value = .bytes([0xFF, 0x00, 0x13])
        _ = try await database.modifyRecords(saving: [damaged], deleting: [], in: zone)
        await b.sync()
        #expect(try libraryNotes(b.library) == ["good": "fine"])
        #expect(b.failures["bad"]?.code == .recordUnreadable, "\(b.failures)")
    }
}

/// Accounts and zones: the engine clears its queue at an account change, a zone goes away.
@Suite struct CKSyncEngineAdapterAccountTests {
    let zone = NoteSyncConfiguration().zone

    /// After switching from account A to B (and after a crash right after the switch, which
    /// loses the engine's latest state), no note of A is ever saved in B's database; the notes
    /// stay on the device, and a note typed in B after the switch reaches B.
    @Test func noRecordOfOneAccountIsSavedInAnother() async throws {
        let databaseA = InMemoryCloudDatabase()
        let databaseB = InMemoryCloudDatabase()
        try await databaseA.saveZone(zone)
        try await databaseB.saveZone(zone)
        var device = try EngineDevice(1, database: databaseA, account: "A")
        await device.start()
        try await device.type("of A", into: "a1")
        try await device.type("also A", into: "a2")
        await device.sync()
        #expect(try await serverNotes(databaseA) == ["a1": "of A", "a2": "also A"])
        try await device.type(" edited", into: "a1")   // unsaved when the account changes
        device.database = databaseB
        device.account = "B"
        try await device.model.changeAccount(to: "B", database: databaseB)
        await device.sync()
        try await device.crashAndRelaunch()
        await device.sync()
        #expect(try await serverNotes(databaseB).isEmpty)
        #expect(Set(try libraryNotes(device.library).keys) == ["a1", "a2"])
        try await device.type("of B", into: "b1")
        await device.sync()
        #expect(try await serverNotes(databaseB) == ["b1": "of B"])
        #expect(try await serverNotes(databaseA) == ["a1": "of A", "a2": "also A"])
    }

    /// The user purged the app's data: the local copies go (listed in the report with their
    /// text, for an export), and none of them is uploaded again, even after an edit; a note
    /// typed afterwards is new data and syncs.
    @Test func aPurgedZoneIsNotFilledAgain() async throws {
        let database = InMemoryCloudDatabase()
        try await database.saveZone(zone)
        var device = try EngineDevice(1, database: database)
        await device.start()
        try await device.type("secret", into: "n")
        try await device.type("also secret", into: "o")
        await device.sync()
        await database.purgeZone(zone)
        try await device.model.fetchChanges()
        let report = await device.adapter.takeReport()
        #expect(report.zoneDeletions.flatMap(\.removedNotes).map(\.name).sorted() == ["n", "o"])
        #expect(report.zoneDeletions.flatMap(\.removedNotes).first { $0.name == "n" }?.text == "secret")
        #expect(try libraryNotes(device.library).isEmpty)
        try await device.model.sendChanges()
        try await device.type("typed later", into: "m")
        await device.sync()
        await device.sync()
        #expect(try await serverNotes(database) == ["m": "typed later"])
    }

    /// An encrypted-data reset: the zone comes back and every note is uploaded again.
    @Test func anEncryptedDataResetUploadsEveryNoteAgain() async throws {
        let database = InMemoryCloudDatabase()
        try await database.saveZone(zone)
        var device = try EngineDevice(1, database: database)
        await device.start()
        try await device.type("one", into: "n1")
        try await device.type("two", into: "n2")
        await device.sync()
        await database.resetEncryptedData(of: zone)
        await device.sync()
        #expect(try await serverNotes(database) == ["n1": "one", "n2": "two"])
        #expect(device.errors.isEmpty, "\(device.errors)")
    }

    /// A zone deleted by a program is not re-created until the app consents; then every note
    /// goes up again.
    @Test func aDeletedZoneWaitsForConsent() async throws {
        let database = InMemoryCloudDatabase()
        try await database.saveZone(zone)
        var device = try EngineDevice(1, database: database)
        await device.start()
        try await device.type("one", into: "n1")
        await device.sync()
        try await database.deleteZone(zone)
        await device.sync()
        try await device.type(" more", into: "n1")
        await device.sync()
        #expect(await database.allRecords(in: zone).isEmpty)
        await device.adapter.consentToRecreateZone(engine: device.model)
        await device.sync()
        #expect(try await serverNotes(database) == ["n1": "one more"])
    }
}

/// The model itself: the order of its events, and what a crash takes from its state.
@Suite struct SyncEngineModelTests {
    /// A first launch fetches then sends in CKSyncEngine's order: the account is announced, the
    /// zone's changes are bracketed by will/did events, the zone is saved before the records, each
    /// batch is answered once.
    @Test func eventsComeInTheEnginesOrder() async throws {
        let database = InMemoryCloudDatabase()
        try await database.saveZone(NoteSyncConfiguration().zone)
        var device = try EngineDevice(1, database: database, stateUpdateInterval: 100)
        await device.start()
        try await device.type("x", into: "n")
        await device.sync()
        let log = await device.model.eventLog
        #expect(log == [
            "accountChange", "stateUpdate", "willFetchChanges", "willFetchRecordZoneChanges", "fetchedRecordZoneChanges",
            "didFetchRecordZoneChanges", "didFetchChanges", "willSendChanges", "sentDatabaseChanges", "sentRecordZoneChanges",
            "didSendChanges",
        ], "\(log)")
    }

    /// Pending changes added after the last state update are gone after a crash; the engine
    /// restarts from the state the adapter saved, and the adapter queues them again.
    @Test func aCrashLosesTheStateSinceTheLastUpdate() async throws {
        let database = InMemoryCloudDatabase()
        try await database.saveZone(NoteSyncConfiguration().zone)
        var device = try EngineDevice(1, database: database, stateUpdateInterval: 100)
        await device.start()
        try await device.model.fetchChanges()   // the state saved at the sign-in: nothing pending
        try await device.type("x", into: "n")
        #expect(await device.model.pendingRecordChanges().contains(.save("n")))
        let saved = try #require(try ExternalSyncAdapter.savedEngineState(in: device.library))
        let restarted = try SyncEngineModel(adapter: device.adapter, database: database, account: "alice",
                                            zone: NoteSyncConfiguration().zone, stateSerialization: saved)
        #expect(await restarted.pendingRecordChanges().contains(.save("n")) == false)
        try await device.crashAndRelaunch(stateUpdateInterval: 100)
        #expect(await device.model.pendingRecordChanges().contains(.save("n")))
    }
}
