import Foundation
import Testing
@testable import CRDTNote
@testable import CRDTNoteFiles
@testable import CRDTNoteDurableFiles
@testable import CRDTNoteToolSupport

/// The folder store on the fault-injecting file system: the power fails at every operation of
/// a save in turn, the crash drops or tears what was not flushed, and the store must come back
/// with the old or the new version — the new one whenever the save was acknowledged.
@Suite struct DirectoryRecordStoreCrashTests {
    let zone = StoreFixtures.zone
    let payloadOne: [UInt8] = (0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let payloadTwo: [UInt8] = (0..<2_500).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }

    /// A store holding version one of "a" (text and an asset), everything flushed.
    func setUp() async throws -> (FaultInjectingFileSystem, CloudRecord) {
        let files = FaultInjectingFileSystem()
        let store = try DirectoryRecordStore(root: "/store", fileSystem: files)
        try store.createZone(zone)
        var record = StoreFixtures.note("a", text: "version one")
        record[field: "payloadAsset"] = .asset(AssetReference(bytes: payloadOne))
        let v1 = try await store.save(record, in: zone)
        _ = try await store.save(StoreFixtures.note("b", text: "bystander"), in: zone)
        return (files, v1)
    }

    /// Version two of "a": new text, new asset bytes.
    func versionTwo(of v1: CloudRecord) -> CloudRecord {
        var record = StoreFixtures.edited(v1, text: "version two")
        record[field: "payloadAsset"] = .asset(AssetReference(bytes: payloadTwo))
        return record
    }

    /// How many file operations one save of version two takes.
    func operationsOfASave() async throws -> Int {
        let (files, v1) = try await setUp()
        let store = try DirectoryRecordStore(root: "/store", fileSystem: files)
        let start = files.operationCount
        _ = try await store.save(versionTwo(of: v1), in: zone)
        return files.operationCount - start
    }

    @Test func everyPowerLossDuringASaveLeavesTheOldOrTheNewVersion() async throws {
        let operations = try await operationsOfASave()
        #expect(operations > 10)
        var outcomes: [String: Int] = [:]
        var acknowledged = 0
        for cut in 1...(operations + 1) {
            for crashSeed in 0..<4 as Range<UInt64> {
                var random = SplitMix64(seed: 0x5A7E_0000 + UInt64(cut) &* 16 + crashSeed)
                let (text, saved) = try await cutThePower(at: cut, operations: operations, &random)
                outcomes[text, default: 0] += 1
                acknowledged += saved ? 1 : 0
            }
        }
        // Both outcomes happen: the power was cut both before and after the commit point, and
        // some cuts after the rename but before its flush kept the new version unacknowledged.
        #expect(outcomes["version one", default: 0] > 0)
        #expect(outcomes["version two", default: 0] > acknowledged)
        #expect(acknowledged >= 4)
    }

    /// Cuts the power at operation `cut` of a save of version two, crashes with `random`, and
    /// checks what the store shows; returns the text of "a" and whether the save returned.
    func cutThePower(at cut: Int, operations: Int, _ random: inout SplitMix64) async throws -> (String, Bool) {
        let (files, v1) = try await setUp()
        // The store object is created first: the power is cut during the save itself.
        let store = try DirectoryRecordStore(root: "/store", fileSystem: files)
        files.inject(.powerLoss, onOperation: cut)
        let saved: Bool
        do {
            _ = try await store.save(versionTwo(of: v1), in: zone)
            saved = true
        } catch {
            #expect(error.code == .storageFailure, "cut at \(cut)")
            saved = false
        }
        // A cut after the commit, while old history is pruned (best effort), leaves the save acknowledged.
        if cut > operations { #expect(saved, "no cut, yet the save failed") }
        files.crash(using: &random)

        let restarted = try DirectoryRecordStore(root: "/store", fileSystem: files)
        let a = try #require(try await restarted.fetchRecord(named: "a", in: zone), "cut at \(cut)")
        let text = try #require(StoreFixtures.text(a))
        #expect(text == "version one" || text == "version two", "cut at \(cut)")
        // The asset matches the version: no mix of old record and new asset, or the reverse.
        let payload = StoreFixtures.assetBytes(a, "payloadAsset")
        #expect(payload == (text == "version one" ? payloadOne : payloadTwo), "cut at \(cut)")
        if saved { #expect(text == "version two", "cut at \(cut): an acknowledged save was lost") }
        #expect(StoreFixtures.text(try await restarted.fetchRecord(named: "b", in: zone)) == "bystander")
        let feed = try await restarted.fetchAllChanges(in: zone, since: nil)
        #expect(feed.changed.map(\.recordName).sorted() == ["a", "b"], "cut at \(cut)")
        #expect(feed.deletedRecordNames.isEmpty)

        // The store goes on: a save from what it shows succeeds and survives the next crash.
        let v3 = try await restarted.save(StoreFixtures.edited(a, text: "version three"), in: zone)
        files.crash(using: &random)
        let again = try DirectoryRecordStore(root: "/store", fileSystem: files)
        #expect(try await again.fetchRecord(named: "a", in: zone) == v3, "cut at \(cut)")
        return (text, saved)
    }

    @Test func anErrorAtAnyOperationOfASaveLeavesTheOldOrTheNewVersion() async throws {
        let operations = try await operationsOfASave()

        for failing in 1...operations {
            let (files, v1) = try await setUp()
            let store = try DirectoryRecordStore(root: "/store", fileSystem: files)
            files.inject(.error(failing % 2 == 0 ? ENOSPC : EIO), onOperation: failing)
            let error = await StoreFixtures.storeError { try await store.save(versionTwo(of: v1), in: zone) }
            // Pruning old history is best effort, so an error there does not fail the save.
            if let error {
                #expect(error.code == .storageFailure, "error at \(failing)")
                #expect(error.message.contains("/store"), "error at \(failing): \(error.message)")
            }
            let a = try #require(try await store.fetchRecord(named: "a", in: zone))
            let text = StoreFixtures.text(a)
            #expect(text == "version one" || text == "version two", "error at \(failing)")
            if error == nil { #expect(text == "version two", "error at \(failing)") }
            // Nothing half-done is visible: no temporary files left in the records folder.
            let records = try files.contentsOfDirectory(at: store.recordsDirectory(zone))
            #expect(records == ["a.json", "b.json"], "error at \(failing): \(records)")
        }
    }
}
