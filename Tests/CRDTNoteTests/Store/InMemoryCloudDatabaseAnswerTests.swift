import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting

/// The in-memory database answers as `CKDatabase` does at the `CloudKitStyleDatabase` API:
/// per-item `Result`s, request-level `CloudKitFailure`s, the conflict's records inside the item's
/// failure. What the answers mean (absence, partial failures, error codes) is decided by
/// `CloudKitStyleRecordStore` (`CloudKitStyleRecordStoreTests`), never here.
@Suite struct InMemoryCloudDatabaseAnswerTests {
    let zone = StoreFixtures.zone

    /// A database with the zone, then `faults` switched on.
    func database(_ faults: FaultPlan = .none, limits: RecordStoreLimits = .cloudKit) async throws -> InMemoryCloudDatabase {
        let db = InMemoryCloudDatabase(limits: limits)
        try await db.saveZone(zone)
        await db.setFaultPlan(faults)
        return db
    }

    /// Saves one record and returns the saved version.
    func saved(_ record: CloudRecord, in db: InMemoryCloudDatabase) async throws -> CloudRecord {
        let answer = try await db.modifyRecords(saving: [record], deleting: [], in: zone)
        return try #require(answer.saveResults[record.recordName]).get()
    }

    @Test func aStaleTagFailsOnlyItsItemAndCarriesTheThreeRecords() async throws {
        let db = try await database()
        let base = try await saved(StoreFixtures.note("a", text: "base"), in: db)
        let server = try await saved(StoreFixtures.edited(base, text: "device A"), in: db)
        #expect(base.recordChangeTag != nil && server.recordChangeTag != base.recordChangeTag)
        let client = StoreFixtures.edited(base, text: "device B")
        let answer = try await db.modifyRecords(saving: [client, StoreFixtures.note("new")], deleting: [], in: zone)
        let conflict = try #require(StoreFixtures.failure(answer.saveResults["a"]))
        #expect(conflict.code == .serverRecordChanged)
        #expect(conflict.ancestor == base && conflict.client == client && conflict.server == server)
        #expect(try #require(answer.saveResults["new"]).get().recordChangeTag != nil)
        // Creating a record that exists: the same failure, without an ancestor.
        let create = try await db.modifyRecords(saving: [StoreFixtures.note("a")], deleting: [], in: zone)
        let existing = try #require(StoreFixtures.failure(create.saveResults["a"]))
        #expect(existing.code == .serverRecordChanged && existing.ancestor == nil && existing.server == server)
    }

    @Test func missingRecordsAreUnknownItemsNotRequestFailures() async throws {
        let db = try await database()
        let a = try await saved(StoreFixtures.note("a"), in: db)
        let fetched = try await db.records(named: ["a", "missing"], in: zone)
        #expect(try #require(fetched["a"]).get() == a)
        #expect(StoreFixtures.failure(fetched["missing"])?.code == .unknownItem)
        let deleted = try await db.modifyRecords(saving: [], deleting: ["a", "missing"], in: zone)
        try #require(deleted.deleteResults["a"]).get()
        #expect(StoreFixtures.failure(deleted.deleteResults["missing"])?.code == .unknownItem)
        // A tagged save of a record that was deleted.
        let again = try await db.modifyRecords(saving: [StoreFixtures.edited(a, text: "edit")], deleting: [], in: zone)
        #expect(StoreFixtures.failure(again.saveResults["a"])?.code == .unknownItem)
    }

    @Test func aZoneThatIsGoneFailsTheWholeRequest() async throws {
        let db = InMemoryCloudDatabase()
        #expect(await StoreFixtures.cloudKitFailure { try await db.records(named: ["a"], in: zone) }?.code == .zoneNotFound)
        #expect(await StoreFixtures.cloudKitFailure { try await db.modifyRecords(saving: [StoreFixtures.note("a")], deleting: [], in: zone) }?.code
                == .zoneNotFound)
        #expect(await StoreFixtures.cloudKitFailure { try await db.recordZoneChanges(in: zone, since: nil, resultsLimit: 5) }?.code
                == .zoneNotFound)
        let subscribe = await StoreFixtures.cloudKitFailure { try await db.saveZoneSubscription("s", for: zone) }
        #expect(subscribe?.code == .zoneNotFound, "\(String(describing: subscribe))")
        try await db.saveZone(zone)
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .userDeletedZone, seed: 3))
        #expect(await StoreFixtures.cloudKitFailure { try await db.records(named: ["a"], in: zone) }?.code == .userDeletedZone)
        await db.setFaultPlan(.none)
        #expect(await StoreFixtures.cloudKitFailure { try await db.records(named: ["a"], in: zone) }?.code == .userDeletedZone)
    }

    @Test func wrappedZoneErrorsArePerItemForModifiesAndPerZoneForFetches() async throws {
        let db = InMemoryCloudDatabase(faults: FaultPlan(rate: 0, kinds: [], seed: 0, wrapsZoneErrors: true))
        let answer = try await db.modifyRecords(saving: [StoreFixtures.note("x"), StoreFixtures.note("y")], deleting: ["z"], in: zone)
        #expect(StoreFixtures.failure(answer.saveResults["x"])?.code == .zoneNotFound)
        #expect(StoreFixtures.failure(answer.saveResults["y"])?.code == .zoneNotFound)
        #expect(StoreFixtures.failure(answer.deleteResults["z"])?.code == .zoneNotFound)
        let fetch = await StoreFixtures.cloudKitFailure { try await db.records(named: ["x"], in: zone) }
        #expect(fetch?.code == .partialFailure && fetch?.zoneErrors[zone.zoneName]?.code == .zoneNotFound)
        let feed = await StoreFixtures.cloudKitFailure { try await db.recordZoneChanges(in: zone, since: nil, resultsLimit: 5) }
        #expect(feed?.code == .partialFailure && feed?.zoneErrors[zone.zoneName]?.code == .zoneNotFound)
    }

    @Test(arguments: [FaultPlan.Kinds.requestRateLimited, .serviceUnavailable])
    func throttlingFailsTheRequestWithARetryDelay(kind: FaultPlan.Kinds) async throws {
        let db = try await database(FaultPlan(rate: 1, kinds: kind, seed: 21))
        let failure = try #require(await StoreFixtures.cloudKitFailure { try await db.records(named: ["a"], in: zone) })
        let code: CloudKitFailure.Code = kind == .requestRateLimited ? .requestRateLimited : .serviceUnavailable
        #expect(failure.code == code)
        let seconds = try #require(failure.retryAfterSeconds)
        #expect(seconds >= 1 && seconds <= 30)
    }

    @Test func anInjectedPartialFailureFailsSomeItemsWithARetryDelay() async throws {
        let db = try await database(FaultPlan(rate: 1, kinds: .partialFailure, seed: 9))
        let records = (0..<10).map { StoreFixtures.note("p\($0)") }
        let answer = try await db.modifyRecords(saving: records, deleting: [], in: zone)
        let failures = records.compactMap { StoreFixtures.failure(answer.saveResults[$0.recordName]) }
        #expect(answer.saveResults.count == 10)
        #expect(!failures.isEmpty && failures.count < 10)
        #expect(failures.allSatisfy { $0.code == .serviceUnavailable && $0.retryAfterSeconds != nil })
    }

    @Test func limitsFailTheRequestOrTheItem() async throws {
        let db = try await database(limits: RecordStoreLimits(maxRecordsPerRequest: 2, maxRecordBytes: 600))
        let three = (0..<3).map { StoreFixtures.note("n\($0)") }
        #expect(await StoreFixtures.cloudKitFailure { try await db.modifyRecords(saving: three, deleting: [], in: zone) }?.code == .limitExceeded)
        #expect(await StoreFixtures.cloudKitFailure { try await db.modifyRecords(saving: [], deleting: ["a", "b", "c"], in: zone) }?.code
                == .limitExceeded)
        let big = StoreFixtures.note("big", text: String(repeating: "x", count: 1000))
        let answer = try await db.modifyRecords(saving: [big, StoreFixtures.note("small")], deleting: [], in: zone)
        #expect(StoreFixtures.failure(answer.saveResults["big"])?.code == .limitExceeded)
        #expect(StoreFixtures.failure(answer.saveResults["small"]) == nil)
        let twice = [StoreFixtures.note("d"), StoreFixtures.note("d")]
        #expect(await StoreFixtures.cloudKitFailure { try await db.modifyRecords(saving: twice, deleting: [], in: zone) }?.code
                == .invalidArguments)
    }

    @Test func theFeedGivesModificationsDeletionsAndATokenOnlyThisZoneAccepts() async throws {
        let db = try await database()
        for name in ["a", "b", "c"] { _ = try await saved(StoreFixtures.note(name), in: db) }
        _ = try await db.modifyRecords(saving: [], deleting: ["a"], in: zone)
        let page = try await db.recordZoneChanges(in: zone, since: nil, resultsLimit: 10)
        #expect(page.modifications.keys.sorted() == ["b", "c"])
        #expect(page.deletions == ["a"] && !page.moreComing)
        let later = try await db.recordZoneChanges(in: zone, since: page.changeToken, resultsLimit: 10)
        #expect(later.modifications.isEmpty && later.deletions.isEmpty)
        let other = InMemoryCloudDatabase()
        try await other.saveZone(zone)
        let foreign = try await other.recordZoneChanges(in: zone, since: nil, resultsLimit: 1).changeToken
        #expect(await StoreFixtures.cloudKitFailure { try await db.recordZoneChanges(in: zone, since: foreign, resultsLimit: 10) }?.code
                == .changeTokenExpired)
    }
}
