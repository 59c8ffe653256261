import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite("NoteRecord")
struct NoteRecordTests {
    @Test func writesInlineFieldsAndReadsThemBack() throws {
        var note = try NoteText("Groceries", replica: .test(5), clock: NoteFixtures.clock(1_700_000_000_123))
        try note.insert(": milk", atScalarOffset: 9)
        let record = try NoteFixtures.v2(note, mirror: .string)
        #expect(record.record[field: "version"] == .int64(2))
        #expect(record.record[field: "text"] == .string("Groceries: milk"))
        #expect(record.record[field: "mirroredBytes"] == nil)
        #expect(record.record[field: "modified"] == .timestamp(1_700_000_000_123))
        #expect(record.record[field: "payload"] == .bytes(note.encodedSnapshot()))
        #expect(record.record[field: "payloadAsset"] == nil)
        #expect(record.assetsToSave.isEmpty)
        let read = try record.read(as: .test(9))
        #expect(read.origin == .payload)
        #expect(read.note.string == "Groceries: milk")
        #expect(read.note.replica == .test(9))
        #expect(read.note.version == note.version)
    }

    @Test func largeStateGoesToAssetsAndSurvivesJSONAndFiles() throws {
        let dir = NSTemporaryDirectory() + "crdtnote-noterecord-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let note = try NoteText("a long note 😀\n", replica: .test(3), clock: NoteFixtures.clock(1_000))
        let record = try NoteFixtures.v2(note, asset: true)
        #expect(record.record[field: "payload"] == nil)
        guard case .asset(let ref)? = record.record[field: "payloadAsset"], case .asset(let textRef)? = record.record[field: "text"] else {
            Issue.record("expected assets"); return
        }
        let payload = note.encodedSnapshot()
        #expect(ref.size == Int64(payload.count))
        #expect(ref.fileChecksum == AssetChecksum.fnv1a64Hex(payload))
        #expect(ref.downloadURL == nil)
        #expect(textRef.size == Int64(note.utf8.count))
        #expect(Set(record.assetsToSave.keys) == ["payloadAsset", "text"])
        #expect(try record.read(as: .test(4)).note.string == note.string)

        let saved = try record.savingAssets(to: AssetLocator(jsonDirectory: dir))
        #expect(saved.assetsToSave.isEmpty)
        let json = saved.record.jsonBytes()
        let again = try CloudRecord.record(fromJSON: json)
        let loaded = try NoteRecord(again, loadingAssetsFrom: AssetLocator(jsonDirectory: dir))
        #expect(loaded.record.assetBytes("payloadAsset") == payload)
        #expect(try loaded.read(as: .test(4)).note.string == note.string)
        // Writing the same state again keeps the stored assets: nothing new to upload.
        #expect(try loaded.writing(note, limits: NoteFixtures.assetLimits).record == loaded.record)
    }

    @Test func missingAssetBytesAreATypedError() throws {
        let record = NoteFixtures.withoutAssetBytes(try NoteFixtures.v2(NoteText("x", replica: .test(1)), asset: true))
        #expect(throws: NoteRecordError.self) { try record.read(as: .test(2)) }
        do { _ = try record.read(as: .test(2)) } catch { #expect(error.code == .assetUnavailable && error.field == "payloadAsset") }
        #expect(throws: NoteRecordError.self) { try record.writing(NoteText("y", replica: .test(2))) }
    }

    @Test func legacyRecordIsUpgradedIdenticallyOnEveryDevice() throws {
        let v1 = NoteFixtures.v1("Buy milk\nand eggs")
        let a = try v1.read(as: .test(100), clock: NoteFixtures.clock(5))
        let b = try v1.read(as: .test(200), clock: NoteFixtures.clock(9_999_999_999_999))
        #expect(a.origin == .legacyText)
        #expect(a.note.string == "Buy milk\nand eggs")
        #expect(NoteReplicaDerivation.digest(a.note) == NoteReplicaDerivation.digest(b.note))
        #expect(a.note.lastModified?.milliseconds == 1_700_000_000_000)
        // Both devices' upgrades merge without duplicating the text.
        #expect(try a.note.merging(b.note).string == "Buy milk\nand eggs")
        // A different text gets a different legacy replica: no id collisions.
        let other = try NoteFixtures.v1("Buy milk").read(as: .test(100))
        #expect(Set(other.note.version.counts.keys).isDisjoint(with: a.note.version.counts.keys.filter { $0 != .test(100) }))
    }

    @Test func legacyUpgradeWritesVersion2AndKeepsUnknownFields() throws {
        var v1 = NoteFixtures.v1("hello")
        v1.record[field: "color"] = .string("blue")
        v1.record[field: "tags"] = .list([.string("a"), .string("b")])
        v1.record.extra["pluginFields"] = .object(JSONObject([("x", .number(JSONNumber(1)))]))
        var note = try v1.read(as: .test(1)).note
        try note.setText("hello world")
        let written = try v1.writing(note)
        #expect(written.record[field: "version"] == .int64(2))
        #expect(written.record[field: "color"] == .string("blue"))
        #expect(written.record[field: "tags"] == .list([.string("a"), .string("b")]))
        #expect(written.record.extra == v1.record.extra)
        #expect(written.record.recordChangeTag == "v1tag")
        #expect(try written.read(as: .test(2)).note.string == "hello world")
    }

    @Test func clobberedMirrorIsFoldedInAsEdits() throws {
        let note = try NoteText("shopping list", replica: .test(1), clock: NoteFixtures.clock(1_000))
        let v2 = try NoteFixtures.v2(note)
        let clobbered = NoteFixtures.clobbered(v2, text: "my shopping list!", modified: 2_000)
        let read = try clobbered.read(as: .test(3))
        #expect(read.origin == .payloadWithFoldedText)
        #expect(read.note.string == "my shopping list!")
        // The original characters keep their ids: a concurrent CRDT edit still merges in.
        var other = note.forked(as: .test(2), clock: NoteFixtures.clock(1_500))
        try other.insert(" (today)", atScalarOffset: 13)
        #expect(try read.note.merging(other).string == "my shopping list (today)!")
        // Reading twice folds identically.
        #expect(NoteReplicaDerivation.digest(try clobbered.read(as: .test(4)).note) == NoteReplicaDerivation.digest(read.note))
    }

    @Test func recordVersionNewerThanSupportedIsRefused() throws {
        var record = try NoteFixtures.v2(NoteText("future", replica: .test(1)))
        record.record[field: "version"] = .int64(4) // 3 is the encrypted layout, which this release reads
        do {
            _ = try record.read(as: .test(2))
            Issue.record("expected newerVersion")
        } catch {
            #expect(error.code == .newerVersion)
            #expect(error.newerVersion?.recordVersion == 4)
            #expect(error.newerVersion?.supportedRecordVersion == 3)
        }
        let before = record
        #expect(throws: NoteRecordError.self) { try record.write(try NoteText("past", replica: .test(2))) }
        #expect(record == before)
        // Assets of a newer record are not even loaded.
        #expect(try NoteRecord(record.record, loadingAssetsFrom: UnusedAssetStorage()) == record)
    }

    @Test func payloadNeedingNewerReaderIsRefused() throws {
        var record = try NoteFixtures.v2(NoteText("future", replica: .test(1)))
        guard case .bytes(var bytes)? = record.record[field: "payload"] else { Issue.record("no payload"); return }
        bytes[6] = UInt8(NoteFormat.readerVersion + 1)   // minimum reader version, little endian
        record.record[field: "payload"] = .bytes(bytes)
        do {
            _ = try record.read(as: .test(2))
            Issue.record("expected newerVersion")
        } catch {
            #expect(error.code == .newerVersion)
            #expect(error.field == "payload")
            #expect(error.newerVersion?.payloadRequiredReader == NoteFormat.readerVersion + 1)
            #expect(error.newerVersion?.supportedReader == NoteFormat.readerVersion)
        }
        let before = record
        #expect(throws: NoteRecordError.self) { try record.write(try NoteText("past", replica: .test(2))) }
        #expect(record == before)
    }

    @Test func badFieldsAreTypedErrors() throws {
        func kind(_ record: NoteRecord) -> NoteRecordError.Code? {
            do { _ = try record.read(as: .test(1)); return nil } catch { return error.code }
        }
        var r = NoteFixtures.v1("x")
        r.record[field: "version"] = .string("2")
        #expect(kind(r) == .invalidField)
        r.record[field: "version"] = .int64(0)
        #expect(kind(r) == .invalidField)
        r = try NoteFixtures.v2(NoteText("x", replica: .test(1)))
        r.record[field: "payload"] = .string("AAAA")
        #expect(kind(r) == .invalidField)
        r.record[field: "payload"] = .bytes([1, 2, 3])
        #expect(kind(r) == .corruptPayload)
        r = NoteFixtures.v1("x")
        r.record[field: "text"] = .int64(5)
        #expect(kind(r) == .invalidField)
        r.record[field: "text"] = .asset(AssetReference(size: 2, bytes: [0xC3, 0x28]))
        #expect(kind(r) == .invalidText)
    }

    @Test func recordWithoutVersionIsInferred() throws {
        var r = NoteFixtures.v1("plain")
        r.record[field: "version"] = nil
        #expect(try r.schemaVersion() == 1)
        #expect(try r.read(as: .test(1)).origin == .legacyText)
        var v2 = try NoteFixtures.v2(NoteText("crdt", replica: .test(1)))
        v2.record[field: "version"] = nil
        #expect(try v2.schemaVersion() == 2)
        #expect(try v2.read(as: .test(1)).origin == .payload)
    }

    @Test func bigAppFieldsPushAStringMirrorOutButNotAnAssetMirror() throws {
        var r = NoteRecord(recordName: "n")
        // 800,000 + 100,000 (mirror) + the payload is over the 1,000,000-byte record budget.
        r.record[field: "attachmentBlob"] = .bytes([UInt8](repeating: 7, count: 800_000))
        let note = try NoteText(String(repeating: "text ", count: 20_000), replica: .test(1))
        var asString = r
        try asString.write(note, mirror: .string)
        // The STRING mirror would not fit: it is left out (never turned into an ASSET), and said so.
        #expect(asString.record[field: "text"] == nil)
        #expect(asString.record[field: "mirroredBytes"] == .int64(0))
        #expect(asString.record[field: "payload"] != nil)
        try r.write(note)
        guard case .asset? = r.record[field: "text"] else { Issue.record("mirror should be an asset"); return }
        #expect(r.record[field: "mirroredBytes"] == nil)
        #expect(r.record[field: "payload"] != nil)
    }
}
