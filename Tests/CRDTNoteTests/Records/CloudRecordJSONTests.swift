import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Modelled on CloudKit Web Services `records/lookup` output.
let webServicesResponse = #"""
{
  "records": [
    {
      "recordName": "5C6E2B1A-7F1D-4E8A-9C55-0B3D2A1E9F00",
      "recordType": "Note",
      "recordChangeTag": "lq3x8d1m",
      "zoneID": {"zoneName": "Notes", "ownerRecordName": "_5f1a2b3c4d", "zoneType": "REGULAR_CUSTOM_ZONE"},
      "created": {"timestamp": 1700000000000, "userRecordName": "_5f1a2b3c4d", "deviceID": "2"},
      "modified": {"timestamp": 1700000123456, "userRecordName": "_5f1a2b3c4d", "deviceID": "3", "future": [1]},
      "deleted": false,
      "fields": {
        "version": {"value": 2, "type": "INT64"},
        "title": {"value": "Groceries ✓", "type": "STRING", "isEncrypted": true},
        "score": {"value": 4.25, "type": "DOUBLE"},
        "modified": {"value": 1700000123456, "type": "TIMESTAMP"},
        "payload": {"value": "AAECAwT/", "type": "BYTES"},
        "payloadAsset": {"value": {"fileChecksum": "ARb8Z5m3+/aQw0jY", "size": 12, "referenceChecksum": "AZ9x",
          "wrappingKey": "k3y==", "receipt": "R1", "downloadURL": "https://cvws.icloud-content.com/B/abc/${f}"}, "type": "ASSETID"},
        "text": {"value": {"fileChecksum": "Ab", "size": 3}, "type": "ASSET"},
        "folder": {"value": {"recordName": "folder-1", "action": "NONE", "zoneID": {"zoneName": "Notes"}}, "type": "REFERENCE"},
        "tags": {"value": ["a", "b"], "type": "STRING_LIST"},
        "counts": {"value": [1, -2], "type": "INT64_LIST"},
        "ratios": {"value": [0.5], "type": "DOUBLE_LIST"},
        "times": {"value": [0, 1700000000000], "type": "TIMESTAMP_LIST"},
        "blobs": {"value": ["", "Zg==", "Zm8="], "type": "BYTES_LIST"},
        "links": {"value": [{"recordName": "r1"}], "type": "REFERENCE_LIST"},
        "files": {"value": [{"fileChecksum": "x"}], "type": "ASSETID_LIST"},
        "empty": {"value": [], "type": "INT64_LIST"},
        "where": {"value": {"latitude": 48.85, "longitude": 2.35, "horizontalAccuracy": 5, "altitude": 35,
          "course": 0, "speed": 0, "timestamp": 1700000000000}, "type": "LOCATION"},
        "future": {"value": {"x": 1}, "type": "VECTOR_3D"},
        "untyped": {"value": "plain"},
        "untypedNumber": {"value": 12},
        "untypedObject": {"value": {"k": true}}
      },
      "pluginFields": {},
      "shortGUID": "0xYz12"
    },
    {"recordName": "second", "recordType": "Note", "fields": {}}
  ]
}
"""#

private func recordError(_ text: String) -> RecordJSONError? {
    do {
        _ = try CloudRecord.records(fromJSON: Array(text.utf8))
        return nil
    } catch {
        return error
    }
}

@Suite("CloudRecord JSON")
struct CloudRecordJSONTests {
    @Test func readsEveryFieldType() throws {
        let records = try CloudRecord.records(fromJSON: Array(webServicesResponse.utf8))
        #expect(records.count == 2)
        let r = records[0]
        #expect(r.recordName == "5C6E2B1A-7F1D-4E8A-9C55-0B3D2A1E9F00")
        #expect(r.recordType == "Note")
        #expect(r.recordChangeTag == "lq3x8d1m")
        #expect(r.zoneID?.zoneName == "Notes")
        #expect(r.zoneID?.ownerName == "_5f1a2b3c4d")
        #expect(r.zoneID?.extra["zoneType"] == .string("REGULAR_CUSTOM_ZONE"))
        #expect(r.created?.timestamp == 1_700_000_000_000)
        #expect(r.modified?.deviceID == "3")
        #expect(r.modified?.extra.keys == ["future"])
        #expect(r.deleted == false)
        #expect(r[field: "version"] == .int64(2))
        #expect(r[field: "title"] == .string("Groceries ✓"))
        #expect(r.fields["title"]?.isEncrypted == true)
        #expect(r[field: "score"] == .double(4.25))
        #expect(r[field: "modified"] == .timestamp(1_700_000_123_456))
        #expect(r[field: "payload"] == .bytes([0, 1, 2, 3, 4, 255]))
        guard case .asset(let asset)? = r[field: "payloadAsset"] else {
            Issue.record("payloadAsset is not an asset")
            return
        }
        #expect(asset.fileChecksum == "ARb8Z5m3+/aQw0jY")
        #expect(asset.size == 12)
        #expect(asset.extra.keys == ["referenceChecksum", "wrappingKey", "receipt"])
        #expect(r.fields["payloadAsset"]?.typeName == "ASSETID")
        #expect(r[field: "folder"] == .reference(RecordReference(recordName: "folder-1", action: "NONE", zoneID: RecordZoneID(zoneName: "Notes"))))
        #expect(r[field: "tags"] == .list([.string("a"), .string("b")]))
        #expect(r[field: "counts"] == .list([.int64(1), .int64(-2)]))
        #expect(r[field: "ratios"] == .list([.double(0.5)]))
        #expect(r[field: "times"] == .list([.timestamp(0), .timestamp(1_700_000_000_000)]))
        #expect(r[field: "blobs"] == .list([.bytes([]), .bytes([0x66]), .bytes([0x66, 0x6F])]))
        #expect(r[field: "links"] == .list([.reference(RecordReference(recordName: "r1"))]))
        #expect(r[field: "files"] == .list([.asset(AssetReference(fileChecksum: "x"))]))
        #expect(r[field: "empty"] == .list([]))
        guard case .opaque(let opaque)? = r[field: "where"] else {
            Issue.record("LOCATION is not opaque")
            return
        }
        #expect(opaque.typeName == "LOCATION")
        #expect(opaque.value["latitude"]?.numberValue?.text == "48.85")
        #expect(r[field: "future"] == .opaque(OpaqueFieldValue(typeName: "VECTOR_3D", value: .object(["x": .number(JSONNumber(1))]))))
        #expect(r[field: "untyped"] == .string("plain"))
        #expect(r[field: "untypedNumber"] == .int64(12))
        #expect(r[field: "untypedObject"] == .opaque(OpaqueFieldValue(typeName: "", value: .object(["k": .bool(true)]))))
        #expect(r.extra.keys == ["pluginFields", "shortGUID"])
        #expect(r.fieldOrder.first == "version")
        #expect(r.fieldOrder.last == "untypedObject")
    }

    @Test func roundTripKeepsEverything() throws {
        let records = try CloudRecord.records(fromJSON: Array(webServicesResponse.utf8))
        for record in records {
            for pretty in [true, false] {
                let again = try CloudRecord.records(fromJSON: record.jsonBytes(pretty: pretty))
                #expect(again == [record])
                #expect(again.first?.orderedFieldNames == record.orderedFieldNames)
            }
        }
        // Unknown parts come out as the same JSON values.
        let original = try JSONValue(parsing: Array(webServicesResponse.utf8))
        let written = records[0].jsonValue()
        let source = try #require(original["records"]?[0])
        #expect(written["shortGUID"] == source["shortGUID"])
        #expect(written["pluginFields"] == source["pluginFields"])
        #expect(written["zoneID"] == source["zoneID"])
        // Asset dictionaries are written known keys first; same members, same values.
        let asset = try #require(written["fields"]?["payloadAsset"]?["value"]?.objectValue)
        let sourceAsset = try #require(source["fields"]?["payloadAsset"]?["value"]?.objectValue)
        #expect(Set(asset.keys) == Set(sourceAsset.keys))
        for key in sourceAsset.keys { #expect(asset[key] == sourceAsset[key]) }
        for name in ["where", "future", "title", "empty", "untyped", "untypedObject", "files", "version"] {
            #expect(written["fields"]?[name] == source["fields"]?[name], "field \(name)")
        }
        #expect(written["fields"]?.objectValue?.keys == source["fields"]?.objectValue?.keys)
        // Deterministic output.
        #expect(records[0].jsonBytes() == records[0].jsonBytes())
        // Several records as {"records": [...]}.
        #expect(try CloudRecord.records(fromJSON: CloudRecord.jsonBytes(records: records)) == records)
    }

    @Test func bareRecordAndSingleRecordAccess() throws {
        let bare = #"{"recordName": "n", "recordType": "Note", "fields": {"version": {"value": 1, "type": "INT64"}}}"#
        let record = try CloudRecord.record(fromJSON: Array(bare.utf8))
        #expect(record[field: "version"] == .int64(1))
        #expect(record.zoneID == nil && record.recordChangeTag == nil && record.deleted == nil)
        #expect(throws: RecordJSONError.self) { try CloudRecord.record(fromJSON: Array(webServicesResponse.utf8)) }
        do {
            _ = try CloudRecord.record(fromJSON: Array(webServicesResponse.utf8))
        } catch {
            #expect(error.code == .multipleRecords)
        }
    }

    @Test func editingKeepsOrderAndExtras() throws {
        var record = try CloudRecord.records(fromJSON: Array(webServicesResponse.utf8))[0]
        record[field: "title"] = .string("New")
        record[field: "zzz"] = .int64(5)
        record[field: "aaa"] = .bytes([1])
        record[field: "payload"] = nil
        #expect(record.fields["title"]?.isEncrypted == true)
        #expect(record.orderedFieldNames.suffix(2) == ["zzz", "aaa"])
        #expect(!record.orderedFieldNames.contains("payload"))
        // A type spelling that no longer fits is replaced; one that fits is kept.
        record[field: "version"] = .string("two")
        record[field: "payloadAsset"] = .asset(AssetReference(fileChecksum: "c"))
        let written = record.jsonValue()
        #expect(written["fields"]?["version"]?["type"] == .string("STRING"))
        #expect(written["fields"]?["payloadAsset"]?["type"] == .string("ASSETID"))
        #expect(try CloudRecord(json: written) == record)
        // A new record gets default types and round-trips.
        var fresh = CloudRecord(recordName: "r", recordType: "Note")
        fresh[field: "t"] = .timestamp(5)
        fresh[field: "l"] = .list([.double(1.5)])
        fresh[field: "d"] = .double(3)
        #expect(fresh.jsonValue()["fields"]?["l"]?["type"] == .string("DOUBLE_LIST"))
        #expect(try CloudRecord(json: fresh.jsonValue()) == fresh)
    }

    @Test func wrongTypesNameThePath() {
        let wrongInt = #"{"records": [{"recordName": "a", "recordType": "Note", "fields": {}}, {"recordName": "b", "recordType": "Note", "fields": {"version": {"value": "two", "type": "INT64"}}}]}"#
        let e1 = recordError(wrongInt)
        #expect(e1?.code == .wrongType)
        #expect(e1?.path == "records[1].fields.version.value")
        #expect(e1?.description.contains("expected an integer for INT64, found a string") == true)

        let fraction = recordError(#"{"recordName": "a", "recordType": "N", "fields": {"v": {"value": 1.5, "type": "INT64"}}}"#)
        #expect(fraction?.code == .invalidValue)
        #expect(fraction?.path == "fields.v.value")

        let listElement = recordError(#"{"recordName": "a", "recordType": "N", "fields": {"l": {"value": ["x", 2], "type": "STRING_LIST"}}}"#)
        #expect(listElement?.path == "fields.l.value[1]")

        let missingName = recordError(#"{"records": [{"recordType": "N"}]}"#)
        #expect(missingName?.code == .missingKey)
        #expect(missingName?.path == "records[0]")

        let missingValue = recordError(#"{"recordName": "a", "recordType": "N", "fields": {"f": {"type": "STRING"}}}"#)
        #expect(missingValue?.code == .missingKey)
        #expect(missingValue?.path == "fields.f")

        let badTimestamp = recordError(#"{"recordName": "a", "recordType": "N", "modified": {"timestamp": "x"}}"#)
        #expect(badTimestamp?.path == "modified.timestamp")

        let badAsset = recordError(#"{"recordName": "a", "recordType": "N", "fields": {"a": {"value": {"size": -1}, "type": "ASSETID"}}}"#)
        #expect(badAsset?.code == .invalidValue)
        #expect(badAsset?.path == "fields.a.value.size")

        let badRef = recordError(#"{"recordName": "a", "recordType": "N", "fields": {"r": {"value": {"recordName": 3}, "type": "REFERENCE"}}}"#)
        #expect(badRef?.path == "fields.r.value.recordName")

        #expect(recordError("[1, 2]")?.path == "[0]")
        #expect(recordError("42")?.code == .notARecord)
        #expect(recordError("{\"recordName\": ")?.code == .invalidJSON)
        let server = recordError(#"{"records": [{"recordName": "a", "reason": "not found", "serverErrorCode": "NOT_FOUND"}]}"#)
        #expect(server?.code == .serverError)
        #expect(server?.message.contains("NOT_FOUND") == true)
    }

    @Test func invalidBase64() {
        func check(_ base64: String, offset: Int) {
            let e = recordError(#"{"recordName": "a", "recordType": "N", "fields": {"payload": {"value": "# + "\"\(base64)\"" + #", "type": "BYTES"}}}"#)
            #expect(e?.code == .invalidBase64, "\(base64)")
            #expect(e?.path == "fields.payload.value")
            #expect(e?.message.hasSuffix("at character \(offset)") == true, "\(base64): \(e?.message ?? "")")
        }
        check("AAE", offset: 3)        // missing padding
        check("AA*C", offset: 2)       // bad character
        check("A=AA", offset: 1)       // misplaced padding
        check("AB==", offset: 1)       // non-zero unused bits
        check("AAECAwT-", offset: 7)   // URL-safe alphabet
        check("AAEC AwT/", offset: 9)  // whitespace: length first
    }

    @Test func base64RoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let text = Base64.encode(bytes)
            #expect(text.utf8.count == (length + 2) / 3 * 4)
            #expect(try Base64.decode(text) == bytes)
        }
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(try Base64.decode("Zm9vYg==") == Array("foob".utf8))
    }
}
