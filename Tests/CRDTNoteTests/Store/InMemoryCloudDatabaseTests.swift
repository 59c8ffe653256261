import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// The in-memory database as apps' tests use it: through `CloudKitStyleRecordStore`, the code
/// the CloudKit adapter runs. (Its answers at the CloudKit-shaped API: `InMemoryCloudDatabaseAnswerTests`.)
@Suite struct InMemoryCloudDatabaseTests {
    let zone = StoreFixtures.zone

    @Test func zoneMustExistBeforeUse() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        let error = await StoreFixtures.storeError { try await store.save(StoreFixtures.note("a"), in: zone) }
        #expect(error?.code == .zoneNotFound)
        try await store.createZone(zone)
        try await store.createZone(zone) // idempotent
        _ = try await store.save(StoreFixtures.note("a"), in: zone)
        try await store.deleteZone(zone)
        let afterDelete = await StoreFixtures.storeError { try await store.fetchRecords(named: ["a"], in: zone) }
        #expect(afterDelete?.code == .zoneNotFound)
        try await store.createZone(zone)
        #expect(try await store.fetchRecord(named: "a", in: zone) == nil)
    }

    @Test func everySaveGetsANewChangeTag() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let v1 = try await store.save(StoreFixtures.note("a", text: "one"), in: zone)
        let v2 = try await store.save(StoreFixtures.edited(v1, text: "two"), in: zone)
        #expect(v1.recordChangeTag != nil && v2.recordChangeTag != nil && v1.recordChangeTag != v2.recordChangeTag)
        #expect(v2.zoneID == zone)
        let fetched = try await store.fetchRecord(named: "a", in: zone)
        #expect(fetched == v2)
        #expect(StoreFixtures.text(fetched) == "two")
    }

    @Test func staleTagConflictCarriesAncestorClientAndServer() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let base = try await store.save(StoreFixtures.note("a", text: "base"), in: zone)
        let server = try await store.save(StoreFixtures.edited(base, text: "device A"), in: zone)
        let client = StoreFixtures.edited(base, text: "device B")
        let error = await StoreFixtures.storeError { try await store.save(client, in: zone) }
        let conflict = try #require(error?.conflict)
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.recordName == "a")
        #expect(conflict.ancestor == base)
        #expect(conflict.client == client)
        #expect(conflict.server == server)
        // Saving on the server's record (its tag) succeeds.
        let merged = try await store.save(StoreFixtures.edited(conflict.server, text: "A+B"), in: zone)
        #expect(StoreFixtures.text(merged) == "A+B")
    }

    @Test func ancestorIsNilWhenHistoryNoLongerHasTheBaseTag() async throws {
        let db = InMemoryCloudDatabase(historyLimit: 2)
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let base = try await store.save(StoreFixtures.note("a", text: "0"), in: zone)
        var current = base
        for i in 1...3 { current = try await store.save(StoreFixtures.edited(current, text: "\(i)"), in: zone) }
        let error = await StoreFixtures.storeError { try await store.save(StoreFixtures.edited(base, text: "x"), in: zone) }
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.conflict?.ancestor == nil)
        #expect(error?.conflict?.server == current)
    }

    @Test func creatingAnExistingRecordConflictsWithoutAncestor() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let first = try await store.save(StoreFixtures.note("a", text: "first"), in: zone)
        let second = StoreFixtures.note("a", text: "second")
        let error = await StoreFixtures.storeError { try await store.save(second, in: zone) }
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.conflict?.ancestor == nil)
        #expect(error?.conflict?.client == second)
        #expect(error?.conflict?.server == first)
    }

    @Test func savingWithATagAfterDeleteIsUnknownItem() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let v1 = try await store.save(StoreFixtures.note("a"), in: zone)
        try await store.deleteRecords(named: ["a", "never-existed"], in: zone)
        let error = await StoreFixtures.storeError { try await store.save(StoreFixtures.edited(v1, text: "edit"), in: zone) }
        #expect(error?.code == .unknownItem)
        #expect(error?.recordName == "a")
        // Re-creating without a tag works.
        var fresh = StoreFixtures.edited(v1, text: "edit")
        fresh.recordChangeTag = nil
        _ = try await store.save(fresh, in: zone)
    }

    @Test func batchConflictsArePerItem() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        _ = try await store.save(StoreFixtures.note("taken"), in: zone)
        let error = await StoreFixtures.storeError {
            try await store.saveRecords([StoreFixtures.note("x"), StoreFixtures.note("taken"), StoreFixtures.note("y")], in: zone)
        }
        #expect(error?.code == .partialFailure)
        #expect(error?.itemErrors.keys.sorted() == ["taken"])
        #expect(error?.itemErrors["taken"]?.code == .serverRecordChanged)
        #expect(error?.saved.map(\.recordName) == ["x", "y"])
        #expect(await db.allRecords(in: zone).map(\.recordName) == ["taken", "x", "y"])
    }

    @Test func changeFeedSurvivesAClientRestartAndReportsDeletes() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        for name in ["a", "b", "c"] { _ = try await store.save(StoreFixtures.note(name), in: zone) }
        let first = try await store.fetchAllChanges(in: zone, since: nil)
        #expect(first.changed.map(\.recordName) == ["a", "b", "c"])
        #expect(first.deletedRecordNames.isEmpty)
        // The client persists the token and "restarts".
        let saved = first.token.base64String
        let b = try #require(try await store.fetchRecord(named: "b", in: zone))
        _ = try await store.save(StoreFixtures.edited(b, text: "b2"), in: zone)
        try await store.deleteRecords(named: ["c"], in: zone)
        _ = try await store.save(StoreFixtures.note("d"), in: zone)
        let restored = try #require(ChangeToken(base64String: saved))
        let later = try await store.fetchAllChanges(in: zone, since: restored)
        #expect(later.changed.map(\.recordName) == ["b", "d"])
        #expect(StoreFixtures.text(later.changed.first) == "b2")
        #expect(later.deletedRecordNames == ["c"])
        let none = try await store.fetchChanges(in: zone, since: later.token, limit: 10)
        #expect(none.changed.isEmpty && none.deletedRecordNames.isEmpty && !none.moreComing)
        #expect(none.token == later.token)
    }

    @Test func changeFeedPagesWithMoreComing() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        for i in 0..<7 { _ = try await store.save(StoreFixtures.note("n\(i)"), in: zone) }
        var token: ChangeToken?
        var names: [String] = []
        var pages = 0
        while true {
            let page = try await store.fetchChanges(in: zone, since: token, limit: 3)
            names += page.changed.map(\.recordName)
            token = page.token
            pages += 1
            #expect(page.changed.count <= 3)
            if !page.moreComing { break }
        }
        #expect(pages == 3)
        #expect(names == (0..<7).map { "n\($0)" })
    }

    @Test func tokensExpireWhenTheZoneIsRecreated() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        _ = try await store.save(StoreFixtures.note("a"), in: zone)
        let token = try await store.fetchAllChanges(in: zone, since: nil).token
        try await store.deleteZone(zone)
        try await store.createZone(zone)
        let error = await StoreFixtures.storeError { try await store.fetchChanges(in: zone, since: token, limit: 10) }
        #expect(error?.code == .changeTokenExpired)
        let garbage = await StoreFixtures.storeError { try await store.fetchChanges(in: zone, since: ChangeToken(bytes: [1, 2]), limit: 10) }
        #expect(garbage?.code == .changeTokenExpired)
    }

    @Test func requestLimits() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let many = (0..<401).map { StoreFixtures.note("n\($0)") }
        #expect(await StoreFixtures.storeError { try await store.saveRecords(many, in: zone) }?.code == .limitExceeded)
        let ok = try await store.saveRecords(Array(many.prefix(400)), in: zone)
        #expect(ok.count == 400)
        let big = String(repeating: "x", count: 700_000)
        let heavy = (0..<3).map { StoreFixtures.note("big\($0)", text: big) }
        #expect(await StoreFixtures.storeError { try await store.saveRecords(heavy, in: zone) }?.code == .limitExceeded)
        let tooBig = StoreFixtures.note("huge", text: String(repeating: "y", count: 1_100_000))
        let single = await StoreFixtures.storeError { try await store.save(tooBig, in: zone) }
        #expect(single?.code == .limitExceeded)
        #expect(single?.recordName == "huge")
        #expect(await StoreFixtures.storeError { try await store.deleteRecords(named: many.map(\.recordName), in: zone) }?.code == .limitExceeded)
    }

    @Test func assetBytesRoundTrip() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let payload: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var stored = StoreFixtures.note("a")
        stored[field: "payloadAsset"] = .asset(AssetReference(bytes: payload))
        let saved = try await store.save(stored, in: zone)
        guard case .asset(let ref)? = saved[field: "payloadAsset"] else {
            Issue.record("payloadAsset is not an asset field")
            return
        }
        #expect(ref.size == 5000)
        let fetched = try #require(try await store.fetchRecord(named: "a", in: zone))
        #expect(StoreFixtures.assetBytes(fetched, "payloadAsset") == payload)
        // Re-saving the fetched record without bytes keeps the server's asset.
        var again = StoreFixtures.edited(fetched, text: "new text")
        if case .asset(var ref)? = again[field: "payloadAsset"] { ref.bytes = nil; again[field: "payloadAsset"] = .asset(ref) }
        let resaved = try await store.save(again, in: zone)
        #expect(StoreFixtures.assetBytes(resaved, "payloadAsset") == payload)
        // An ASSET field with neither bytes nor a matching server asset is rejected.
        var orphan = StoreFixtures.note("b")
        orphan[field: "payloadAsset"] = .asset(AssetReference(fileChecksum: "nope", size: 3))
        #expect(await StoreFixtures.storeError { try await store.save(orphan, in: zone) }?.code == .invalidArguments)
    }

    @Test func concurrentSavesOnOneBaseTagLetExactlyOneWin() async throws {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        let base = try await store.save(StoreFixtures.note("a"), in: zone)
        let outcomes = await withTaskGroup(of: RecordStoreError?.self) { group in
            for i in 0..<8 {
                group.addTask { await StoreFixtures.storeError { try await store.save(StoreFixtures.edited(base, text: "\(i)"), in: zone) } }
            }
            var all: [RecordStoreError?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.compactMap { $0 }.allSatisfy { $0.code == .serverRecordChanged && $0.conflict?.ancestor == base })
    }
}
