import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite struct FaultInjectionTests {
    let zone = StoreFixtures.zone

    /// A database with one zone and `count` records, then `plan` switched on, and the store
    /// over it that the requests go through.
    func database(_ plan: FaultPlan, records count: Int = 3) async throws
        -> (InMemoryCloudDatabase, CloudKitStyleRecordStore<InMemoryCloudDatabase>) {
        let db = InMemoryCloudDatabase()
        let store = CloudKitStyleRecordStore(database: db)
        try await store.createZone(zone)
        for i in 0..<count { _ = try await store.save(StoreFixtures.note("n\(i)"), in: zone) }
        await db.setFaultPlan(plan)
        return (db, store)
    }

    func batch(_ prefix: String, _ count: Int = 6) -> [CloudRecord] {
        (0..<count).map { StoreFixtures.note("\(prefix)\($0)") }
    }

    @Test(arguments: [
        (FaultPlan.Kinds.networkFailure, RecordStoreError.Code.networkFailure),
        (.requestRateLimited, .requestRateLimited),
        (.serviceUnavailable, .serviceUnavailable),
        (.partialFailure, .partialFailure),
        (.limitExceeded, .limitExceeded),
        (.zoneNotFound, .zoneNotFound),
        (.userDeletedZone, .userDeletedZone),
    ])
    func everyKindCanBeInjected(kind: FaultPlan.Kinds, code: RecordStoreError.Code) async throws {
        let (db, store) = try await database(FaultPlan(rate: 1, kinds: kind, seed: 42))
        let error = await StoreFixtures.storeError { try await store.saveRecords(batch("b"), in: zone) }
        #expect(error?.code == code)
        let counts = await db.faultCounts
        #expect(counts.total == 1)
        if code == .requestRateLimited || code == .serviceUnavailable {
            let seconds = try #require(error?.retryAfterSeconds)
            #expect(seconds >= 1 && seconds <= 30)
        }
    }

    @Test func partialFailureSavesSomeAndReportsTheRest() async throws {
        let (db, store) = try await database(FaultPlan(rate: 1, kinds: .partialFailure, seed: 9))
        let records = batch("p", 10)
        let error = try #require(await StoreFixtures.storeError { try await store.saveRecords(records, in: zone) })
        #expect(error.code == .partialFailure)
        #expect(!error.itemErrors.isEmpty)
        #expect(error.itemErrors.count + error.saved.count == 10)
        #expect(error.itemErrors.values.allSatisfy { $0.code == .serviceUnavailable && $0.retryAfterSeconds != nil })
        await db.setFaultPlan(.none)
        let stored = Set(await db.allRecords(in: zone).notes.map(\.recordName))
        #expect(error.saved.allSatisfy { stored.contains($0.recordName) })
        #expect(error.itemErrors.keys.allSatisfy { !stored.contains($0) })
    }

    @Test func networkFailureSometimesLosesOnlyTheResponse() async throws {
        let (db, store) = try await database(FaultPlan(rate: 1, kinds: .networkFailure, seed: 5))
        var applied = 0
        var lost = 0
        for i in 0..<20 {
            let error = await StoreFixtures.storeError { try await store.save(StoreFixtures.note("w\(i)"), in: zone) }
            #expect(error?.code == .networkFailure)
            if await db.allRecords(in: zone).notes.contains(where: { $0.recordName == "w\(i)" }) { applied += 1 } else { lost += 1 }
        }
        #expect(applied > 0 && lost > 0)
    }

    @Test func serverResetWipesTheZoneAndExpiresTokens() async throws {
        let (db, store) = try await database(.none)
        let token = try await store.fetchAllChanges(in: zone, since: nil).token
        await db.setFaultPlan(FaultPlan(rate: 1, kinds: .zoneNotFound, seed: 1))
        #expect(await StoreFixtures.storeError { try await store.fetchRecords(named: ["n0"], in: zone) }?.code == .zoneNotFound)
        await db.setFaultPlan(.none)
        #expect(await StoreFixtures.storeError { try await store.fetchRecords(named: ["n0"], in: zone) }?.code == .zoneNotFound)
        try await store.createZone(zone)
        #expect(await db.allRecords(in: zone).notes.isEmpty)
        #expect(await StoreFixtures.storeError { try await store.fetchChanges(in: zone, since: token, limit: 5) }?.code == .changeTokenExpired)
    }

    @Test func userDeletedZoneStaysUntilRecreated() async throws {
        let (db, store) = try await database(FaultPlan(rate: 1, kinds: .userDeletedZone, seed: 3))
        #expect(await StoreFixtures.storeError { try await store.fetchChanges(in: zone, since: nil, limit: 5) }?.code == .userDeletedZone)
        await db.setFaultPlan(.none)
        #expect(await StoreFixtures.storeError { try await store.save(StoreFixtures.note("x"), in: zone) }?.code == .userDeletedZone)
        try await store.createZone(zone)
        _ = try await store.save(StoreFixtures.note("x"), in: zone)
        #expect(await db.allRecords(in: zone).notes.map(\.recordName) == ["x"])
    }

    @Test func limitExceededIsOnlyInjectedIntoBatches() async throws {
        let (db, store) = try await database(FaultPlan(rate: 1, kinds: .limitExceeded, seed: 8))
        _ = try await store.save(StoreFixtures.note("single"), in: zone)
        #expect(await StoreFixtures.storeError { try await store.saveRecords(batch("l", 2), in: zone) }?.code == .limitExceeded)
        #expect(await db.faultCounts.limitExceeded == 1)
    }

    /// Runs a fixed request script and records each outcome.
    func script(seed: UInt64) async throws -> ([String], FaultCounts) {
        let (db, store) = try await database(FaultPlan(rate: 0.5, kinds: .all, seed: seed))
        var log: [String] = []
        for step in 0..<60 {
            let error: RecordStoreError?
            switch step % 4 {
            case 0: error = await StoreFixtures.storeError { try await store.saveRecords(batch("s\(step)-", 4), in: zone) }
            case 1: error = await StoreFixtures.storeError { try await store.fetchRecords(named: ["n0"], in: zone) }
            case 2: error = await StoreFixtures.storeError { try await store.fetchChanges(in: zone, since: nil, limit: 10) }
            default: error = await StoreFixtures.storeError { try await store.createZone(zone) }
            }
            log.append("\(error?.code.rawValue ?? "ok"):\(error?.retryAfterSeconds ?? 0):\(error?.itemErrors.keys.sorted() ?? [])")
        }
        return (log, await db.faultCounts)
    }

    @Test func faultsAreDeterministicForASeed() async throws {
        let (a, countsA) = try await script(seed: 1234)
        let (b, countsB) = try await script(seed: 1234)
        let (c, _) = try await script(seed: 99)
        #expect(a == b)
        #expect(countsA == countsB)
        #expect(a != c)
        #expect(countsA.total > 10)
        #expect(countsA.networkFailure > 0 && countsA.requestRateLimited > 0 && countsA.partialFailure > 0)
    }

    @Test func rateZeroInjectsNothing() async throws {
        let (db, store) = try await database(FaultPlan(rate: 0, kinds: .all, seed: 1))
        for i in 0..<50 { _ = try await store.save(StoreFixtures.note("z\(i)"), in: zone) }
        #expect(await db.faultCounts.total == 0)
        #expect(await db.requestCount == 50 + 4)
    }
}
