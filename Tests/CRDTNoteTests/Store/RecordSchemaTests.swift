import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// CloudKit's schema rule (`RecordSchema`): a field's type is fixed, per record type and
/// database, when it is first saved, and a record that types it otherwise is refused.
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
}
