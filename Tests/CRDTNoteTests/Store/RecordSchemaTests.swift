import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// CloudKit's schema rule in the stores that stand in for it: a field's type is fixed, per record
/// type and database, when it is first saved, and a record that types it otherwise is refused.
@Suite("Record schema")
struct RecordSchemaTests {
    static let zone = StoreFixtures.zone

    static func record(_ name: String, text: RecordFieldValue, type: String = "Note") -> CloudRecord {
        var record = CloudRecord(recordName: name, recordType: type)
        record[field: "version"] = .int64(2)
        record[field: "text"] = text
        return record
    }

    static let asset = RecordFieldValue.asset(AssetReference(bytes: Array("an asset".utf8)))

    // MARK: The rule

    @Test func fieldTypesAreCloudKitsTypeNames() {
        func type(_ value: RecordFieldValue, spelled: String? = nil) -> String? {
            RecordSchema.schemaType(of: RecordField(value, typeName: spelled ?? value.defaultTypeName))
        }
        #expect(type(.string("x")) == "STRING")
        #expect(type(.int64(1)) == "INT64")
        #expect(type(.timestamp(1)) == "TIMESTAMP")
        #expect(type(.bytes([1])) == "BYTES")
        #expect(type(Self.asset) == "ASSET")
        #expect(type(Self.asset, spelled: "ASSETID") == "ASSET")   // one type, two spellings
        #expect(type(.list([.int64(1), .int64(2)])) == "INT64_LIST")
        #expect(type(.list([]), spelled: "INT64_LIST") == "INT64_LIST")
        #expect(RecordSchema.schemaType(of: RecordField(.list([]), typeName: nil)) == nil)   // an empty list does not tell
    }

    @Test func theFirstSaveFixesATypeAndOtherTypesAreRefusedNamingBoth() throws {
        var schema = RecordSchema()
        #expect(schema.check(Self.record("a", text: Self.asset), in: "db") == nil)
        let learned = schema.learn(Self.record("a", text: Self.asset))
        let learnedAgain = schema.learn(Self.record("b", text: Self.asset))
        #expect(learned)
        #expect(!learnedAgain)
        #expect(schema.fieldTypes["Note"] == ["version": "INT64", "text": "ASSET"])
        let error = try #require(schema.check(Self.record("c", text: .string("small")), in: "db"))
        #expect(error.code == .invalidArguments)
        #expect(error.recordName == "c")
        #expect(error.fieldTypeMismatch == FieldTypeMismatch(recordType: "Note", field: "text", schemaType: "ASSET", recordFieldType: "STRING"))
        #expect(error.message.contains("field 'text' of record type 'Note' is ASSET in the schema, the record has STRING"))
        // Other record types have schemas of their own; leaving a field out or adding one is fine.
        #expect(schema.check(Self.record("d", text: .string("x"), type: "Folder"), in: "db") == nil)
        var without = Self.record("e", text: Self.asset)
        without[field: "text"] = nil
        without[field: "title"] = .string("new field")
        #expect(schema.check(without, in: "db") == nil)
    }

    // MARK: Both stores

    enum StoreKind: String, CaseIterable { case inMemory, folder }

    /// A fresh store of `kind` with the zone created; `root` is the folder store's folder.
    static func store(_ kind: StoreKind, root: String) async throws -> any RecordStore {
        let store: any RecordStore
        switch kind {
        case .inMemory: store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        case .folder: store = try DirectoryRecordStore(root: root)
        }
        try await store.createZone(zone)
        return store
    }

    static func fieldTypes(_ store: any RecordStore) async throws -> [String: String] {
        if let db = store as? CloudKitStyleRecordStore<InMemoryCloudDatabase> { return await db.database.fieldTypes(of: "Note") }
        if let folder = store as? DirectoryRecordStore { return try folder.fieldTypes(of: "Note") }
        return [:]
    }

    @Test(arguments: StoreKind.allCases)
    func aStoreRefusesARecordThatChangesAFieldsType(_ kind: StoreKind) async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try await Self.store(kind, root: root)
        #expect(try await Self.fieldTypes(store) == [:])
        let first = try await store.save(Self.record("classic", text: Self.asset), in: Self.zone)
        #expect(try await Self.fieldTypes(store) == ["version": "INT64", "text": "ASSET"])

        // Another record, or the same one again, with `text` as a STRING: refused, nothing stored.
        for attempt in [Self.record("new", text: .string("10 bytes!!")), StoreFixtures.edited(first, text: "now a string")] {
            let error = try #require(await StoreFixtures.storeError { try await store.save(attempt, in: Self.zone) })
            #expect(error.code == .invalidArguments)
            #expect(error.recordName == attempt.recordName)
            #expect(error.fieldTypeMismatch?.field == "text")
            #expect(error.fieldTypeMismatch?.schemaType == "ASSET")
            #expect(error.fieldTypeMismatch?.recordFieldType == "STRING")
        }
        #expect(try await store.fetchRecord(named: "new", in: Self.zone) == nil)
        #expect(try await store.fetchRecord(named: "classic", in: Self.zone)?.recordChangeTag == first.recordChangeTag)

        // In one request the first record fixes a new field; a later one typing it otherwise fails alone.
        var a = Self.record("a", text: Self.asset), b = Self.record("b", text: Self.asset)
        a[field: "pinned"] = .int64(1)
        b[field: "pinned"] = .string("yes")
        let error = try #require(await StoreFixtures.storeError { try await store.saveRecords([a, b], in: Self.zone) })
        #expect(error.code == .partialFailure)
        #expect(error.saved.map(\.recordName) == ["a"])
        #expect(error.itemErrors["b"]?.fieldTypeMismatch?.field == "pinned")
        #expect(error.itemErrors["b"]?.fieldTypeMismatch?.schemaType == "INT64")

        // The schema belongs to the database, not the zone: a recreated zone keeps it.
        try await store.deleteZone(Self.zone)
        try await store.createZone(Self.zone)
        let again = try #require(await StoreFixtures.storeError { try await store.save(Self.record("x", text: .string("s")), in: Self.zone) })
        #expect(again.fieldTypeMismatch?.schemaType == "ASSET")
    }

    @Test func theFolderStoreKeepsItsSchemaInTheFolder() async throws {
        let root = StoreFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try DirectoryRecordStore(root: root)
        try store.createZone(Self.zone)
        _ = try await store.save(Self.record("s", text: .string("a string")), in: Self.zone)
        let file = try String(contentsOfFile: root + "/schema.json", encoding: .utf8)
        #expect(file.contains("\"crdtnote-directory-schema\""))
        #expect(file.contains("\"text\": \"STRING\""))
        // Another store value (another process) on the same folder enforces it.
        let other = try DirectoryRecordStore(root: root)
        let error = try #require(await StoreFixtures.storeError { try await other.save(Self.record("a", text: Self.asset), in: Self.zone) })
        #expect(error.fieldTypeMismatch == FieldTypeMismatch(recordType: "Note", field: "text", schemaType: "STRING", recordFieldType: "ASSET"))
        #expect(error.message.contains(root))
        // A damaged schema file is a storage failure naming it, not a silently empty schema.
        try Data("{\"format\": \"something else\"}".utf8).write(to: URL(fileURLWithPath: root + "/schema.json"))
        let damaged = try #require(await StoreFixtures.storeError { try await other.save(Self.record("b", text: .string("x")), in: Self.zone) })
        #expect(damaged.code == .storageFailure)
        #expect(damaged.message.contains("schema.json"))
    }

    @Test func schemaFilesRoundTrip() throws {
        var schema = RecordSchema()
        schema.learn(Self.record("a", text: Self.asset))
        schema.learn(Self.record("f", text: .string("x"), type: "Folder"))
        let bytes = DirectoryRecordStore.json(of: schema)
        #expect(try DirectoryRecordStore.schema(fromJSON: bytes, path: "schema.json") == schema)
        #expect(throws: RecordStoreError.self) {
            try DirectoryRecordStore.schema(fromJSON: Array(#"{"format": "crdtnote-directory-schema", "formatVersion": 1, "recordTypes": {"Note": {"text": 5}}}"#.utf8), path: "s")
        }
    }
}
