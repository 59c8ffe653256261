import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// `CloudKitStyleRecordStore`'s decisions (what per-item results mean, how failures map) over
/// CloudKit-shaped answers: the in-memory database's, and scripted ones it never gives (other
/// `CKError` codes, request-level partial failures).
@Suite struct CloudKitStyleRecordStoreTests {
    let zone = StoreFixtures.zone

    /// A store over the in-memory database, with the zone created.
    func store() async throws -> (CloudKitStyleRecordStore<InMemoryCloudDatabase>, InMemoryCloudDatabase) {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        return (store, db)
    }

    /// A store over the in-memory database behind a script of failures, with the zone created.
    func scriptedStore() async throws -> (CloudKitStyleRecordStore<ScriptedCloudKitDatabase>, ScriptedCloudKitDatabase) {
        let scripted = ScriptedCloudKitDatabase()
        let store = CloudKitStyleRecordStore(database: scripted)
        try await store.createZone(zone)
        return (store, scripted)
    }

    @Test func conflictsCarryAllThreeRecords() async throws {
        let (store, _) = try await store()
        let base = try await store.save(StoreFixtures.note("a", text: "base"), in: zone)
        let server = try await store.save(StoreFixtures.edited(base, text: "server"), in: zone)
        let client = StoreFixtures.edited(base, text: "client")
        let error = await StoreFixtures.storeError { try await store.save(client, in: zone) }
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.conflict == RecordConflict(ancestor: base, client: client, server: server))
    }

    @Test func perItemFailuresBecomeOnePartialFailure() async throws {
        let (store, _) = try await store()
        _ = try await store.save(StoreFixtures.note("taken"), in: zone)
        let error = await StoreFixtures.storeError {
            try await store.saveRecords([StoreFixtures.note("new"), StoreFixtures.note("taken")], in: zone)
        }
        #expect(error?.code == .partialFailure)
        #expect(error?.itemErrors["taken"]?.code == .serverRecordChanged)
        #expect(error?.itemErrors["taken"]?.conflict?.ancestor == nil)
        #expect(error?.saved.map(\.recordName) == ["new"])
    }

    @Test func fetchTreatsUnknownItemAsAbsentAndDeleteAsDone() async throws {
        let (store, db) = try await store()
        _ = try await store.save(StoreFixtures.note("a"), in: zone)
        // The database answers `unknownItem` for the missing record; absence is the store's reading.
        let answer = try await db.records(named: ["a", "missing"], in: zone)
        #expect(StoreFixtures.failure(answer["missing"])?.code == .unknownItem)
        let found = try await store.fetchRecords(named: ["a", "missing"], in: zone)
        #expect(found.keys.sorted() == ["a"])
        try await store.deleteRecords(named: ["a", "missing"], in: zone)
        #expect(try await store.fetchRecord(named: "a", in: zone) == nil)
    }

    @Test(arguments: [
        (CloudKitFailure(.requestRateLimited, retryAfterSeconds: 7), RecordStoreError.Code.requestRateLimited, 7.0 as Double?),
        (CloudKitFailure(.serviceUnavailable, retryAfterSeconds: 2.5), .serviceUnavailable, 2.5),
        (CloudKitFailure(.networkFailure), .networkFailure, nil),
        (CloudKitFailure(.limitExceeded), .limitExceeded, nil),
        (CloudKitFailure(.zoneNotFound), .zoneNotFound, nil),
        (CloudKitFailure(.userDeletedZone), .userDeletedZone, nil),
        (CloudKitFailure(.quotaExceeded), .quotaExceeded, nil),
        (CloudKitFailure(.changeTokenExpired), .changeTokenExpired, nil),
        (CloudKitFailure(.unhandledCloudKitError, "CKError.Code(rawValue: 9)"), .unhandledCloudKitError, nil),
    ])
    func requestErrorsMap(failure: CloudKitFailure, code: RecordStoreError.Code, retryAfter: Double?) async throws {
        let (store, scripted) = try await scriptedStore()
        await scripted.setScript([failure])
        let error = await StoreFixtures.storeError { try await store.saveRecords([StoreFixtures.note("x")], in: zone) }
        #expect(error?.code == code)
        #expect(error?.retryAfterSeconds == retryAfter)
        // The store works again after the failure.
        _ = try await store.save(StoreFixtures.note("x"), in: zone)
    }

    @Test func cloudKitPartialFailureKeepsItemConflicts() async throws {
        let (store, scripted) = try await scriptedStore()
        let base = StoreFixtures.note("a")
        let server = try await store.save(base, in: zone)
        let failure = CloudKitFailure(.partialFailure, partialErrors: [
            "a": CloudKitFailure(.serverRecordChanged, client: base, server: server),
            "b": CloudKitFailure(.serviceUnavailable, "batchRequestFailed"),
            "c": CloudKitFailure(.serverRecordChanged), // no records: cannot merge, retry instead
        ])
        await scripted.setScript([failure])
        let error = await StoreFixtures.storeError { try await store.saveRecords([base], in: zone) }
        #expect(error?.code == .partialFailure)
        #expect(error?.itemErrors["a"]?.conflict?.server == server)
        #expect(error?.itemErrors["b"]?.code == .serviceUnavailable)
        #expect(error?.itemErrors["c"]?.code == .serviceUnavailable)
    }

    @Test func changeFeedPassesThrough() async throws {
        let (store, _) = try await store()
        for name in ["a", "b"] { _ = try await store.save(StoreFixtures.note(name), in: zone) }
        let all = try await store.fetchAllChanges(in: zone, since: nil)
        #expect(all.changed.map(\.recordName) == ["a", "b"])
        try await store.deleteRecords(named: ["a"], in: zone)
        let later = try await store.fetchAllChanges(in: zone, since: all.token)
        #expect(later.deletedRecordNames == ["a"] && later.changed.isEmpty)
    }
}
