import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// A fake with `CKDatabase`'s shape: per-item results with CloudKit errors, over the simulator.
actor FakeCloudKitDatabase: CloudKitStyleDatabase {
    let backing = InMemoryCloudDatabase()
    /// Thrown (once) by the next request instead of doing it.
    var scriptedFailure: CloudKitFailure?

    func failNext(_ failure: CloudKitFailure) { scriptedFailure = failure }

    private func takeScripted() throws(CloudKitFailure) {
        if let failure = scriptedFailure {
            scriptedFailure = nil
            throw failure
        }
    }

    /// CloudKit's per-item form of a simulator error.
    static func itemFailure(_ error: RecordStoreError) -> CloudKitFailure {
        if let conflict = error.conflict {
            return CloudKitFailure(.serverRecordChanged, "record changed", ancestor: conflict.ancestor, client: conflict.client, server: conflict.server)
        }
        return CloudKitFailure(CloudKitFailure.Code(rawValue: error.code.rawValue), error.message, retryAfterSeconds: error.retryAfterSeconds)
    }

    func saveZone(_ zone: RecordZoneID) async throws(CloudKitFailure) {
        try takeScripted()
        do { try await backing.createZone(zone) } catch { throw Self.itemFailure(error) }
    }

    func deleteZone(_ zone: RecordZoneID) async throws(CloudKitFailure) {
        try takeScripted()
        do { try await backing.deleteZone(zone) } catch { throw Self.itemFailure(error) }
    }

    func records(named names: [String], in zone: RecordZoneID) async throws(CloudKitFailure) -> [String: Result<CloudRecord, CloudKitFailure>] {
        try takeScripted()
        let found: [String: CloudRecord]
        do { found = try await backing.fetchRecords(named: names, in: zone) } catch { throw Self.itemFailure(error) }
        var out: [String: Result<CloudRecord, CloudKitFailure>] = [:]
        for name in names { out[name] = found[name].map { .success($0) } ?? .failure(CloudKitFailure(.unknownItem, "record not found")) }
        return out
    }

    func modifyRecords(saving: [CloudRecord], deleting: [String], in zone: RecordZoneID) async throws(CloudKitFailure)
        -> (saveResults: [String: Result<CloudRecord, CloudKitFailure>], deleteResults: [String: Result<Void, CloudKitFailure>]) {
        try takeScripted()
        var saves: [String: Result<CloudRecord, CloudKitFailure>] = [:]
        for stored in saving {
            do {
                saves[stored.recordName] = .success(try await backing.save(stored, in: zone))
            } catch {
                if error.code == .zoneNotFound { throw CloudKitFailure(.zoneNotFound) }
                saves[stored.recordName] = .failure(Self.itemFailure(error))
            }
        }
        var deletes: [String: Result<Void, CloudKitFailure>] = [:]
        if !deleting.isEmpty {
            let existing: [String: CloudRecord]
            do { existing = try await backing.fetchRecords(named: deleting, in: zone) } catch { throw Self.itemFailure(error) }
            do { try await backing.deleteRecords(named: deleting, in: zone) } catch { throw Self.itemFailure(error) }
            for name in deleting { deletes[name] = existing[name] == nil ? .failure(CloudKitFailure(.unknownItem)) : .success(()) }
        }
        return (saves, deletes)
    }

    func recordZoneChanges(in zone: RecordZoneID, since token: ChangeToken?, resultsLimit: Int) async throws(CloudKitFailure)
        -> (modifications: [String: Result<CloudRecord, CloudKitFailure>], deletions: [String], changeToken: ChangeToken, moreComing: Bool) {
        try takeScripted()
        do {
            let page = try await backing.fetchChanges(in: zone, since: token, limit: resultsLimit)
            var mods: [String: Result<CloudRecord, CloudKitFailure>] = [:]
            for stored in page.changed { mods[stored.recordName] = .success(stored) }
            return (mods, page.deletedRecordNames, page.token, page.moreComing)
        } catch {
            throw Self.itemFailure(error)
        }
    }
}

@Suite struct CloudKitStyleRecordStoreTests {
    let zone = StoreFixtures.zone

    func store() async throws -> (CloudKitStyleRecordStore<FakeCloudKitDatabase>, FakeCloudKitDatabase) {
        let fake = FakeCloudKitDatabase()
        let store = CloudKitStyleRecordStore(database: fake)
        try await store.createZone(zone)
        return (store, fake)
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
        let (store, _) = try await store()
        _ = try await store.save(StoreFixtures.note("a"), in: zone)
        let found = try await store.fetchRecords(named: ["a", "missing"], in: zone)
        #expect(found.keys.sorted() == ["a"])
        try await store.deleteRecords(named: ["a", "missing"], in: zone)
        #expect(try await store.fetchRecord(named: "a", in: zone) == nil)
    }

    @Test(arguments: [
        (CloudKitFailure(.requestRateLimited, retryAfterSeconds: 7), RecordStoreError.Code.requestRateLimited, 7.0 as Double?),
        (CloudKitFailure(.zoneBusy, retryAfterSeconds: 3), .serviceUnavailable, 3),
        (CloudKitFailure(.serviceUnavailable, retryAfterSeconds: 2.5), .serviceUnavailable, 2.5),
        (CloudKitFailure(.networkUnavailable), .networkFailure, nil),
        (CloudKitFailure(.networkFailure), .networkFailure, nil),
        (CloudKitFailure(.limitExceeded), .limitExceeded, nil),
        (CloudKitFailure(.zoneNotFound), .zoneNotFound, nil),
        (CloudKitFailure(.userDeletedZone), .userDeletedZone, nil),
        (CloudKitFailure(.quotaExceeded), .quotaExceeded, nil),
        (CloudKitFailure(.changeTokenExpired), .changeTokenExpired, nil),
        (CloudKitFailure(CloudKitFailure.Code(rawValue: "notAuthenticated")), .unhandledCloudKitError, nil),
    ])
    func requestErrorsMap(failure: CloudKitFailure, code: RecordStoreError.Code, retryAfter: Double?) async throws {
        let (store, fake) = try await store()
        await fake.failNext(failure)
        let error = await StoreFixtures.storeError { try await store.saveRecords([StoreFixtures.note("x")], in: zone) }
        #expect(error?.code == code)
        #expect(error?.retryAfterSeconds == retryAfter)
        // The store works again after the failure.
        _ = try await store.save(StoreFixtures.note("x"), in: zone)
    }

    @Test func cloudKitPartialFailureKeepsItemConflicts() async throws {
        let (store, fake) = try await store()
        let base = StoreFixtures.note("a")
        let server = try await store.save(base, in: zone)
        let failure = CloudKitFailure(.partialFailure, partialErrors: [
            "a": CloudKitFailure(.serverRecordChanged, client: base, server: server),
            "b": CloudKitFailure(.batchRequestFailed),
            "c": CloudKitFailure(.serverRecordChanged), // no records: cannot merge, retry instead
        ])
        await fake.failNext(failure)
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
