import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteDurableFiles

/// The records in Docs/examples/ (used by the README's first command). Set
/// `CRDTNOTE_REGENERATE_EXAMPLES=1` to rewrite them from the library; otherwise the committed
/// files are checked: valid, and merging to the expected text.
///
/// Two containers: `ancestor`, `client`, `server` and `legacy-v1` are records of one whose `text`
/// is a STRING (written with ``NoteTextMirror/string``); `legacy-classic` (with its `text-*.bin`)
/// is the classic CloudKit note app's shape, `text` an ASSET.
@Suite("Example records")
struct ExampleRecordsTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/examples").path
    static let expectedMerge = "Weekend groceries\n- oat milk\n- apples\n- bread\n"

    /// A note written on the phone, then edited offline on the phone (client) and on the laptop (server).
    static func build() throws -> [String: CloudRecord] {
        let zone = RecordZoneID(zoneName: "Notes", ownerName: "_2f1c3e0d9a8b7c6d5e4f3a2b1c0d9e8f")
        func system(_ record: inout CloudRecord, tag: String, created: Int64, modified: Int64, device: String) {
            record.recordChangeTag = tag
            record.zoneID = zone
            record.created = RecordTimestampInfo(timestamp: created, userRecordName: "_2f1c3e0d9a8b7c6d5e4f3a2b1c0d9e8f", deviceID: "PHONE-1")
            record.modified = RecordTimestampInfo(timestamp: modified, userRecordName: "_2f1c3e0d9a8b7c6d5e4f3a2b1c0d9e8f", deviceID: device)
        }
        let name = "B3F1C2D4-5E6F-4A7B-8C9D-0E1F2A3B4C5D"
        let created: Int64 = 1_795_262_400_000   // 2026-11-21T12:00:00Z
        let phoneID = ReplicaID.test(0x51A7_0E55_0000_0001)
        let laptopID = ReplicaID.test(0x1A97_0B00_0000_0002)

        var original = try NoteText("Groceries\n- milk\n- eggs\n", replica: phoneID, clock: NoteFixtures.clock(UInt64(created)))
        try original.insert("Weekend g", atScalarOffset: 0)
        try original.deleteScalars(in: 9..<10)   // "Weekend groceries"
        var ancestor = try NoteRecord(recordName: name, note: original, mirror: .string)
        ancestor.record[field: "title"] = .string("Weekend groceries")
        ancestor.record[field: "pinned"] = .int64(0)
        system(&ancestor.record, tag: "lxq1", created: created, modified: created + 60_000, device: "PHONE-1")

        // Phone, offline: "milk" -> "oat milk", adds "- bread".
        var phone = try ancestor.read(as: phoneID, clock: NoteFixtures.clock(UInt64(created + 3_600_000))).note
        try phone.insert("oat ", atScalarOffset: 20)
        try phone.insert("- bread\n", atScalarOffset: phone.scalarCount)
        var client = try ancestor.writing(phone, mirror: .string)
        client.record[field: "pinned"] = .int64(1)

        // Laptop: deletes "- eggs", adds "- apples".
        var laptop = try ancestor.read(as: laptopID, clock: NoteFixtures.clock(UInt64(created + 3_900_000))).note
        try laptop.setText("Weekend groceries\n- milk\n- apples\n")
        var server = try ancestor.writing(laptop, mirror: .string)
        server.record[field: "folderColor"] = .string("green")
        system(&server.record, tag: "lxq7", created: created, modified: created + 3_900_500, device: "LAPTOP-2")

        // An old plain-text app's version of the same note (schema v1).
        var legacy = CloudRecord(recordName: name, recordType: "Note")
        legacy[field: "version"] = .int64(1)
        legacy[field: "text"] = .string("Weekend groceries\n- milk\n- eggs\n- coffee\n")
        legacy[field: "modified"] = .timestamp(created + 4_200_000)
        legacy[field: "title"] = .string("Weekend groceries")
        system(&legacy, tag: "lxq9", created: created, modified: created + 4_200_000, device: "OLD-IPAD-3")
        return ["ancestor": ancestor.record, "client": client.record, "server": server.record, "legacy-v1": legacy,
                "legacy-classic": classic()]
    }

    /// A note as the classic CloudKit note app stored it (schema v1): `text` is an ASSET, the
    /// UTF-8 file `text-<checksum>.bin` beside the JSON (Web Services type `ASSETID`).
    static func classic() -> CloudRecord {
        var record = CloudRecord(recordName: "C1A5510C-7E57-4A7B-8C9D-0E1F2A3B4C5D", recordType: "Note")
        record.recordChangeTag = "kq2"
        record.zoneID = RecordZoneID(zoneName: "Notes", ownerName: "_2f1c3e0d9a8b7c6d5e4f3a2b1c0d9e8f")
        let created: Int64 = 1_795_262_400_000
        record.created = RecordTimestampInfo(timestamp: created, userRecordName: "_2f1c3e0d9a8b7c6d5e4f3a2b1c0d9e8f", deviceID: "OLD-IPAD-3")
        record.modified = RecordTimestampInfo(timestamp: created + 600_000, userRecordName: "_2f1c3e0d9a8b7c6d5e4f3a2b1c0d9e8f", deviceID: "OLD-IPAD-3")
        record[field: "version"] = .int64(1)
        record.fields["text"] = RecordField(.asset(.new(Array(classicText.utf8))), typeName: "ASSETID")
        record.fieldOrder.append("text")
        record[field: "modified"] = .timestamp(created + 600_000)
        record[field: "title"] = .string("Packing list")
        return record
    }

    static let classicText = "Packing list\n- passport\n- charger\n- sun cream\n"

    static func load(_ name: String) throws -> NoteRecord {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).json")))
        return try NoteRecord(CloudRecord.record(fromJSON: bytes), loadingAssetsFrom: AssetLocator(jsonDirectory: directory))
    }

    @Test func examplesAreValidAndMerge() throws {
        if ProcessInfo.processInfo.environment["CRDTNOTE_REGENERATE_EXAMPLES"] != nil {
            try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
            for (name, record) in try Self.build() {
                let saved = try NoteRecord(record).savingAssets(to: AssetLocator(jsonDirectory: Self.directory))
                try AtomicFile.write(saved.record.jsonBytes(), to: "\(Self.directory)/\(name).json")
            }
        }
        let ancestor = try Self.load("ancestor")
        let client = try Self.load("client")
        let server = try Self.load("server")
        let legacy = try Self.load("legacy-v1")
        let result = try RecordMerger(mirror: .string).merge(ancestor: ancestor, client: client, server: server)
        #expect(result.note.string == Self.expectedMerge)
        #expect(result.record.record.recordChangeTag == "lxq7")
        #expect(result.record.record[field: "pinned"] == .int64(1))
        #expect(result.record.record[field: "folderColor"] == .string("green"))
        #expect(try legacy.read(as: .test(1)).origin == .legacyText)
        let withLegacy = try RecordMerger(mirror: .string).merge(ancestor: ancestor, client: result.record, server: legacy)
        #expect(withLegacy.note.string == "Weekend groceries\n- oat milk\n- apples\n- bread\n- coffee\n")
        // That container's records give every field one type; `text` is a STRING throughout.
        let stringContainer = [ancestor, client, server, legacy, result.record, withLegacy.record].map(\.record)
        #expect(FieldTypeScan.mismatches(in: stringContainer) == [])
        #expect(stringContainer.allSatisfy { NoteTextMirror(of: NoteRecord($0)) == .string })
    }

    @Test func classicAppRecordHasItsTextAsAnAssetFile() throws {
        let classic = try Self.load("legacy-classic")
        guard case .asset(let ref)? = classic.record[field: "text"] else {
            Issue.record("the classic app's text is an ASSET"); return
        }
        #expect(classic.record.fields["text"]?.typeName == "ASSETID")
        #expect(ref.downloadURL == "text-\(AssetChecksum.fnv1a64Hex(Array(Self.classicText.utf8))).bin")
        #expect(FileManager.default.fileExists(atPath: "\(Self.directory)/\(ref.downloadURL ?? "")"))
        #expect(classic.record == (try NoteRecord(Self.classic()).savingAssets(to: UnsavedAssets())).record)
        let read = try classic.read(as: .test(1))
        #expect(read.origin == .legacyText)
        #expect(read.note.string == Self.classicText)
        // Upgraded in the classic app's container, the mirror stays an ASSET: one type per field.
        var note = read.note
        try note.insert("- hat\n", atScalarOffset: note.scalarCount)
        let upgraded = try classic.writing(note, mirror: .asset)
        #expect(upgraded.record.assetBytes("text") == Array((Self.classicText + "- hat\n").utf8))
        #expect(FieldTypeScan.mismatches(in: [classic.record, upgraded.record]) == [])
    }

}

/// Storage giving each asset the reference `AssetLocator` would write beside the examples, without writing.
private struct UnsavedAssets: AssetStorage {
    func readAsset(_ reference: AssetReference, field: String) throws(RecordJSONError) -> [UInt8] {
        throw RecordJSONError(.assetIO, path: field, "not used")
    }

    func writeAsset(_ bytes: [UInt8], field: String) throws(RecordJSONError) -> AssetReference {
        let checksum = AssetChecksum.fnv1a64Hex(bytes)
        return AssetReference(fileChecksum: checksum, size: Int64(bytes.count), downloadURL: "\(field)-\(checksum).bin")
    }
}
