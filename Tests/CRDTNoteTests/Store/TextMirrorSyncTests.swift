import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// Syncing into containers whose schema is enforced (both stores): one the classic note app
/// created (its `text` an ASSET) and a fresh one, with notes of 10 bytes and of about 400 KB.
@Suite("Text mirror sync")
struct TextMirrorSyncTests {
    static let zone = NoteSyncConfiguration().zone
    static let small = TextMirrorTests.small
    static let large = TextMirrorTests.large

    enum StoreKind: String, CaseIterable { case inMemory, folder }
    enum Container: String, CaseIterable { case classicApp, fresh }

    /// A record as the classic CloudKit note app saved it: v1, `text` a CKAsset.
    static func classicRecord(_ name: String, text: String) -> CloudRecord {
        var record = CloudRecord(recordName: name, recordType: NoteSchema.recordType)
        record[field: "version"] = .int64(1)
        record[field: "text"] = .asset(AssetReference(bytes: Array(text.utf8)))
        record[field: "modified"] = .timestamp(1_700_000_000_000)
        record[field: "title"] = .string("From the classic app")
        return record
    }

    /// A store of `kind` whose every attempted save is recorded, with the zone created and, for
    /// a classic-app container, a note saved the way the classic app saves it.
    static func container(_ kind: StoreKind, _ container: Container, root: String) async throws -> RecordingStore {
        let backing: any RecordStore = kind == .inMemory ? CloudKitStyleRecordStore(database: InMemoryCloudDatabase()) : try DirectoryRecordStore(root: root)
        let store = RecordingStore(backing: backing)
        try await store.createZone(zone)
        if container == .classicApp {
            _ = try await store.save(classicRecord("classic", text: "Written by the classic app\n"), in: zone)
        }
        return store
    }

    static func device(_ store: RecordingStore, _ replica: UInt64, mirror: NoteTextMirror = .asset,
                       encryption: RecordEncryptionPolicy = .automatic) throws -> TestDevice {
        try TestDevice(store, replica: replica, configuration: NoteSyncConfiguration(maxAttempts: 4, textMirror: mirror, recordEncryption: encryption),
                       retryClock: SleepRecorder())
    }

    @Test(arguments: StoreKind.allCases, Container.allCases)
    func smallAndLargeNotesSyncWithTheSchemaEnforced(_ kind: StoreKind, _ container: Container) async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await Self.container(kind, container, root: root)
        let phone = try Self.device(store, 1)
        let laptop = try Self.device(store, 2)
        try phone.create("small", text: Self.small)
        try phone.create("large", text: Self.large)
        let first = try await phone.engine.sync()
        #expect(first.failures.isEmpty)
        #expect(try phone.unsavedNoteNames().isEmpty)
        try await laptop.engine.sync()
        #expect(try laptop.text(of: "small") == Self.small)
        #expect(try laptop.text(of: "large") == Self.large)

        // Edits on both devices, conflicts merged and saved again, the classic note upgraded.
        try phone.edit("large") { try $0.insert("phone\n", atScalarOffset: 0) }
        try laptop.edit("large") { try $0.insert("laptop\n", atScalarOffset: $0.scalarCount) }
        try phone.edit("small") { try $0.insert("!", atScalarOffset: 10) }
        if container == .classicApp {
            #expect(try phone.text(of: "classic") == "Written by the classic app\n")
            try phone.edit("classic") { try $0.insert("Upgraded\n", atScalarOffset: $0.scalarCount) }
        }
        try await phone.engine.sync()
        try await laptop.engine.pushLocalChanges()   // conflicts with the phone's save: merged, saved again
        #expect(await laptop.engine.statistics.conflictsMerged == 1)
        #expect(try await laptop.engine.sync().failures.isEmpty)
        try await phone.engine.sync()
        #expect(try phone.noteNames() == laptop.noteNames())
        for name in try phone.noteNames() {
            #expect(try phone.text(of: name) == laptop.text(of: name))
        }
        #expect(try phone.text(of: "large") == "phone\n" + Self.large + "laptop\n")

        // What the classic app reads: every note's whole text, in an ASSET.
        let stored = try await store.fetchAllChanges(in: Self.zone, since: nil).changed
        for record in stored {
            #expect(try StoreFixtures.text(record) == phone.text(of: record.recordName))
        }
        let written = await store.attempted
        #expect(written.count >= 5)
        #expect(FieldTypeScan.mismatches(in: written + stored) == [])
        #expect(FieldTypeScan.types(in: written + stored)["text"] == ["ASSET"])
    }

    @Test(arguments: StoreKind.allCases)
    func aContainerWithAStringTextSyncsLargeNotesWithoutAMirror(_ kind: StoreKind) async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await Self.container(kind, .fresh, root: root)
        let phone = try Self.device(store, 1, mirror: .string)
        try phone.create("small", text: Self.small)
        try await phone.engine.sync()
        try phone.create("large", text: Self.large)
        #expect(try await phone.engine.sync().failures.isEmpty)
        let large = try #require(try await store.fetchRecord(named: "large", in: Self.zone))
        #expect(large[field: NoteSchema.Field.text] == nil)
        #expect(large[field: NoteSchema.Field.mirroredBytes] == .int64(0))

        // An old client, shown no text for the large note, types into it: added, nothing lost.
        var typed = large
        typed[field: NoteSchema.Field.text] = .string("old app\n")
        _ = try await store.save(typed, in: Self.zone)
        try await phone.engine.sync()
        #expect(try phone.text(of: "large") == "old app\n" + Self.large)
        let written = await store.attempted
        #expect(FieldTypeScan.mismatches(in: written) == [])
        #expect(FieldTypeScan.types(in: written)["text"] == ["STRING"])
    }

    @Test(arguments: StoreKind.allCases)
    func anOldClientsEditOfAnAssetMirrorIsFoldedIn(_ kind: StoreKind) async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await Self.container(kind, .classicApp, root: root)
        let phone = try Self.device(store, 1)
        try phone.create("n", text: "milk\neggs\n")
        try await phone.engine.sync()
        // The classic app edits the note it sees (the ASSET) and saves it back, keeping the rest.
        var edited = try #require(try await store.fetchRecord(named: "n", in: Self.zone))
        edited[field: NoteSchema.Field.text] = .asset(AssetReference(bytes: Array("milk\nbread\n".utf8)))
        _ = try await store.save(edited, in: Self.zone)
        try phone.edit("n") { try $0.insert("tea\n", atScalarOffset: 0) }
        try await phone.engine.sync()
        #expect(try phone.text(of: "n") == "tea\nmilk\nbread\n")
        #expect(FieldTypeScan.mismatches(in: await store.attempted) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func aMirrorTypeTheContainerDoesNotHaveIsRefusedAndReported(_ kind: StoreKind) async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await Self.container(kind, .classicApp, root: root)
        // In the plain layout: the encrypted one writes no STRING mirror at all.
        let misconfigured = try Self.device(store, 1, mirror: .string, encryption: .never)
        try misconfigured.create("small", text: Self.small)
        do {
            try await misconfigured.engine.sync()
            Issue.record("a STRING text was saved into a container whose text is an ASSET")
        } catch {
            #expect(error.code == .storeFailure)
            #expect(error.storeError?.fieldTypeMismatch == FieldTypeMismatch(
                recordType: "Note", field: "text", schemaType: "ASSET", recordFieldType: "STRING"))
        }
        // Nothing was stored, and the edit is still pending for a correctly configured engine.
        #expect(try await store.fetchRecord(named: "small", in: Self.zone) == nil)
        #expect(try misconfigured.unsavedNoteNames() == ["small"])
    }
}

/// A store that records every record it is asked to save (saved or refused), then passes the
/// request on: what a writer wrote, for scanning.
actor RecordingStore: RecordStore {
    let backing: any RecordStore
    private(set) var attempted: [CloudRecord] = []

    init(backing: any RecordStore) { self.backing = backing }

    func createZone(_ zone: RecordZoneID) async throws(RecordStoreError) { try await backing.createZone(zone) }
    func deleteZone(_ zone: RecordZoneID) async throws(RecordStoreError) { try await backing.deleteZone(zone) }
    func fetchRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) -> [String: CloudRecord] {
        try await backing.fetchRecords(named: names, in: zone)
    }
    func saveRecords(_ records: [CloudRecord], in zone: RecordZoneID) async throws(RecordStoreError) -> [CloudRecord] {
        attempted += records
        return try await backing.saveRecords(records, in: zone)
    }
    func deleteRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) {
        try await backing.deleteRecords(named: names, in: zone)
    }
    func fetchChanges(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) async throws(RecordStoreError) -> RecordChanges {
        try await backing.fetchChanges(in: zone, since: token, limit: limit)
    }
}
