import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteDurableFiles

@Suite struct DirectoryRecordStoreTests {
    let zone = StoreFixtures.zone

    func store(_ root: String) async throws -> DirectoryRecordStore {
        let store = try DirectoryRecordStore(root: root)
        try store.createZone(zone)
        return store
    }

    @Test func recordsAreJSONFilesWithAssetsBeside() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await store(root)
        var stored = StoreFixtures.note("note/1", text: "héllo")
        let payload: [UInt8] = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        stored[field: "payloadAsset"] = .asset(AssetReference(bytes: payload))
        let saved = try await store.save(stored, in: zone)
        let path = store.recordPath("note/1", zone)
        #expect(path.hasSuffix("/records/note%2F1.json"))
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let onDisk = try CloudRecord.record(fromJSON: [UInt8](bytes))
        #expect(onDisk == StoreFixtures.withoutAssetBytes(saved))
        // The existing locator finds the asset from the JSON file's folder ("../assets/<sum>"),
        // when the assets folder is given: references may not lead out of the given folders.
        guard case .asset(let ref)? = onDisk[field: "payloadAsset"] else {
            Issue.record("payloadAsset is not an asset")
            return
        }
        let locator = AssetLocator(jsonDirectory: store.recordsDirectory(zone), assetsDirectory: store.assetsDirectory(zone))
        #expect(try locator.readAsset(ref, field: "payloadAsset") == payload)
        #expect(throws: RecordJSONError.self) { try AssetLocator(jsonDirectory: store.recordsDirectory(zone)).readAsset(ref, field: "payloadAsset") }
        let fetched = try #require(try await store.fetchRecord(named: "note/1", in: zone))
        #expect(fetched == saved)
        #expect(StoreFixtures.assetBytes(fetched, "payloadAsset") == payload)
    }

    @Test func staleTagsConflictWithAncestorFromHistory() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await store(root)
        let base = try await store.save(StoreFixtures.note("a", text: "base"), in: zone)
        let server = try await store.save(StoreFixtures.edited(base, text: "A"), in: zone)
        let client = StoreFixtures.edited(base, text: "B")
        let error = await StoreFixtures.storeError { try await store.save(client, in: zone) }
        #expect(error?.code == .serverRecordChanged)
        #expect(error?.conflict?.ancestor == base)
        #expect(error?.conflict?.client == client)
        #expect(error?.conflict?.server == server)
        let twice = await StoreFixtures.storeError { try await store.save(StoreFixtures.note("a"), in: zone) }
        #expect(twice?.code == .serverRecordChanged)
        #expect(twice?.conflict?.ancestor == nil)
        try store.deleteRecords(named: ["a"], in: zone)
        #expect(await StoreFixtures.storeError { try await store.save(StoreFixtures.edited(server, text: "C"), in: zone) }?.code == .unknownItem)
    }

    @Test func changeTokensSurviveANewStoreObject() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = try await store(root)
        for name in ["a", "b", "c"] { _ = try await first.save(StoreFixtures.note(name), in: zone) }
        let all = try await first.fetchAllChanges(in: zone, since: nil)
        #expect(all.changed.map(\.recordName) == ["a", "b", "c"])
        let saved = all.token.base64String

        let second = try DirectoryRecordStore(root: root) // "restart"
        let b = try #require(try await second.fetchRecord(named: "b", in: zone))
        _ = try await second.save(StoreFixtures.edited(b, text: "b2"), in: zone)
        try second.deleteRecords(named: ["a"], in: zone)
        let later = try await second.fetchAllChanges(in: zone, since: ChangeToken(base64String: saved))
        #expect(later.changed.map(\.recordName) == ["b"])
        #expect(StoreFixtures.text(later.changed.first) == "b2")
        #expect(later.deletedRecordNames == ["a"])
        let paged = try second.fetchChanges(in: zone, since: nil, limit: 1)
        #expect(paged.moreComing && paged.changed.count + paged.deletedRecordNames.count == 1)
    }

    @Test func zoneLifecycleAndTokenExpiry() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try DirectoryRecordStore(root: root)
        #expect(await StoreFixtures.storeError { try store.fetchRecords(named: ["a"], in: zone) }?.code == .zoneNotFound)
        try store.createZone(zone)
        _ = try await store.save(StoreFixtures.note("a"), in: zone)
        let token = try await store.fetchAllChanges(in: zone, since: nil).token
        try store.deleteZone(zone)
        #expect(await StoreFixtures.storeError { try await store.save(StoreFixtures.note("a"), in: zone) }?.code == .zoneNotFound)
        try store.createZone(zone)
        #expect(try await store.fetchRecord(named: "a", in: zone) == nil)
        #expect(await StoreFixtures.storeError { try store.fetchChanges(in: zone, since: token, limit: 9) }?.code == .changeTokenExpired)
    }

    /// The zone index is the commit point: a crash while the copy in `records/` is written comes
    /// after it, so the new version is current (the save reported a failure, like a lost response).
    @Test func aCrashWhileWritingTheRecordsCopyKeepsTheCommittedVersion() async throws {
        let files = FaultInjectingFileSystem()
        let healthy = try DirectoryRecordStore(root: "/store", fileSystem: files)
        try healthy.createZone(zone)
        let v1 = try await healthy.save(StoreFixtures.note("a", text: "version one"), in: zone)
        let recordPath = healthy.recordPath("a", zone)

        // The process stops while it writes the new version's temporary file in records/.
        let temporaryPrefix = "." + DurablePath.name(of: recordPath) + ".tmp-"
        files.inject(.powerLoss, of: .write, onPath: { DurablePath.name(of: $0).hasPrefix(temporaryPrefix) })
        let error = await StoreFixtures.storeError { try await healthy.save(StoreFixtures.edited(v1, text: "version two"), in: zone) }
        #expect(error?.code == .storageFailure)
        #expect(error?.message.contains("zone.json committed") == true, "\(error?.message ?? "")")
        #expect(files.isPoweredOff)
        files.crashProcess()
        let leftovers = try files.contentsOfDirectory(at: healthy.recordsDirectory(zone))
        #expect(leftovers.contains { $0.hasPrefix(temporaryPrefix) })
        // Opening the folder removes the dead writer's temporary file; the committed version reads.
        let restarted = try DirectoryRecordStore(root: "/store", fileSystem: files)
        #expect(try files.contentsOfDirectory(at: healthy.recordsDirectory(zone)) == ["a.json"])
        let current = try #require(try await restarted.fetchRecord(named: "a", in: zone))
        #expect(StoreFixtures.text(current) == "version two")
        files.crash()
        #expect(StoreFixtures.text(try await DirectoryRecordStore(root: "/store", fileSystem: files).fetchRecord(named: "a", in: zone)) == "version two")
        // The stale tag conflicts; the current one saves; the feed shows the record once.
        let stale = await StoreFixtures.storeError { try await restarted.save(StoreFixtures.edited(v1, text: "version three"), in: zone) }
        #expect(stale?.code == .serverRecordChanged)
        let v3 = try await restarted.save(StoreFixtures.edited(current, text: "version three"), in: zone)
        #expect(StoreFixtures.text(v3) == "version three")
        let changes = try await restarted.fetchAllChanges(in: zone, since: nil)
        #expect(changes.changed.map(\.recordName) == ["a"])
    }

    @Test func aFailureWhileWritingTheIndexChangesNothing() async throws {
        let files = FaultInjectingFileSystem()
        let healthy = try DirectoryRecordStore(root: "/store", fileSystem: files)
        try healthy.createZone(zone)
        let v1 = try await healthy.save(StoreFixtures.note("a", text: "one"), in: zone)
        let indexTemporary: @Sendable (String) -> Bool = { DurablePath.name(of: $0).hasPrefix(".zone.json.tmp-") }
        files.inject(.error(EIO), onOperation: 1, of: .write, onPath: indexTemporary)
        files.inject(.error(ENOSPC), onOperation: 2, of: .write, onPath: indexTemporary)
        let first = await StoreFixtures.storeError { try await healthy.save(StoreFixtures.edited(v1, text: "two"), in: zone) }
        #expect(first?.code == .storageFailure)
        #expect(first?.message.contains("Input/output error") == true)
        let second = await StoreFixtures.storeError { try await healthy.save(StoreFixtures.note("b"), in: zone) }
        #expect(second?.code == .storageFailure)
        #expect(second?.message.contains("No space left on device") == true)
        for _ in 0..<2 {
            #expect(try await healthy.fetchRecord(named: "a", in: zone) == v1)
            #expect(try await healthy.fetchRecord(named: "b", in: zone) == nil)
            #expect(try await healthy.fetchAllChanges(in: zone, since: nil).changed == [v1])
            #expect(try files.contentsOfDirectory(at: healthy.zoneDirectory(zone)).filter { $0.hasPrefix(".") }.isEmpty)
            files.crash() // and after a power loss, the same
        }
    }

    @Test func concurrentWritersOnOneFolderConflict() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let setup = try await store(root)
        let base = try await setup.save(StoreFixtures.note("a"), in: zone)
        let outcomes = try await withThrowingTaskGroup(of: RecordStoreError?.self) { group in
            for i in 0..<6 {
                let writer = try DirectoryRecordStore(root: root) // separate writers, same folder
                group.addTask { await StoreFixtures.storeError { try await writer.save(StoreFixtures.edited(base, text: "w\(i)"), in: zone) } }
            }
            var all: [RecordStoreError?] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        let final = try #require(try await setup.fetchRecord(named: "a", in: zone))
        for error in outcomes.compactMap({ $0 }) {
            #expect(error.code == .serverRecordChanged)
            #expect(error.conflict?.ancestor == base)
            #expect(error.conflict?.server == final)
        }
    }

    @Test func unusualRecordNamesGetSafeFileNames() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await store(root)
        let names = ["..", ".hidden", "a/b/c", "naïve 📝", "%41", "A", String(repeating: "long", count: 80)]
        let saved = try store.saveRecords(names.map { StoreFixtures.note($0, text: $0) }, in: zone)
        #expect(saved.count == names.count)
        let files = try FileManager.default.contentsOfDirectory(atPath: store.recordsDirectory(zone))
        #expect(files.count == names.count)
        #expect(files.allSatisfy { !$0.hasPrefix(".") && !$0.contains("/") && $0.utf8.count < 255 })
        let fetched = try store.fetchRecords(named: names, in: zone)
        for name in names { #expect(StoreFixtures.text(fetched[name]) == name) }
    }

    @Test func limitsAndDuplicateNames() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try DirectoryRecordStore(root: root, limits: RecordStoreLimits(maxRecordsPerRequest: 3, maxRequestBytes: 10_000, maxRecordBytes: 5_000))
        try store.createZone(zone)
        let four = (0..<4).map { StoreFixtures.note("n\($0)") }
        #expect(await StoreFixtures.storeError { try store.saveRecords(four, in: zone) }?.code == .limitExceeded)
        let dup = [StoreFixtures.note("x"), StoreFixtures.note("x")]
        #expect(await StoreFixtures.storeError { try store.saveRecords(dup, in: zone) }?.code == .invalidArguments)
        let big = StoreFixtures.note("big", text: String(repeating: "z", count: 6_000))
        let error = await StoreFixtures.storeError { try store.saveRecords([big, StoreFixtures.note("small")], in: zone) }
        #expect(error?.code == .partialFailure)
        #expect(error?.itemErrors["big"]?.code == .limitExceeded)
        #expect(error?.saved.map(\.recordName) == ["small"])
    }
}
