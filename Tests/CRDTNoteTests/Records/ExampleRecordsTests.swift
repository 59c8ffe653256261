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
        var ancestor = try NoteRecord(recordName: name, note: original)
        ancestor.record[field: "title"] = .string("Weekend groceries")
        ancestor.record[field: "pinned"] = .int64(0)
        system(&ancestor.record, tag: "lxq1", created: created, modified: created + 60_000, device: "PHONE-1")

        // Phone, offline: "milk" -> "oat milk", adds "- bread".
        var phone = try ancestor.read(as: phoneID, clock: NoteFixtures.clock(UInt64(created + 3_600_000))).note
        try phone.insert("oat ", atScalarOffset: 20)
        try phone.insert("- bread\n", atScalarOffset: phone.scalarCount)
        var client = try ancestor.writing(phone)
        client.record[field: "pinned"] = .int64(1)

        // Laptop: deletes "- eggs", adds "- apples".
        var laptop = try ancestor.read(as: laptopID, clock: NoteFixtures.clock(UInt64(created + 3_900_000))).note
        try laptop.setText("Weekend groceries\n- milk\n- apples\n")
        var server = try ancestor.writing(laptop)
        server.record[field: "folderColor"] = .string("green")
        system(&server.record, tag: "lxq7", created: created, modified: created + 3_900_500, device: "LAPTOP-2")

        // An old plain-text app's version of the same note (schema v1).
        var legacy = CloudRecord(recordName: name, recordType: "Note")
        legacy[field: "version"] = .int64(1)
        legacy[field: "text"] = .string("Weekend groceries\n- milk\n- eggs\n- coffee\n")
        legacy[field: "modified"] = .timestamp(created + 4_200_000)
        legacy[field: "title"] = .string("Weekend groceries")
        system(&legacy, tag: "lxq9", created: created, modified: created + 4_200_000, device: "OLD-IPAD-3")
        return ["ancestor": ancestor.record, "client": client.record, "server": server.record, "legacy-v1": legacy]
    }

    static func load(_ name: String) throws -> NoteRecord {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).json")))
        return try NoteRecord(CloudRecord.record(fromJSON: bytes), loadingAssetsFrom: AssetLocator(jsonDirectory: directory))
    }

    @Test func examplesAreValidAndMerge() throws {
        if ProcessInfo.processInfo.environment["CRDTNOTE_REGENERATE_EXAMPLES"] != nil {
            try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
            for (name, record) in try Self.build() {
                try AtomicFile.write(record.jsonBytes(), to: "\(Self.directory)/\(name).json")
            }
        }
        let ancestor = try Self.load("ancestor")
        let client = try Self.load("client")
        let server = try Self.load("server")
        let legacy = try Self.load("legacy-v1")
        let result = try RecordMerger().merge(ancestor: ancestor, client: client, server: server)
        #expect(result.note.string == Self.expectedMerge)
        #expect(result.record.record.recordChangeTag == "lxq7")
        #expect(result.record.record[field: "pinned"] == .int64(1))
        #expect(result.record.record[field: "folderColor"] == .string("green"))
        #expect(try legacy.read(as: .test(1)).origin == .legacyText)
        let withLegacy = try RecordMerger().merge(ancestor: ancestor, client: result.record, server: legacy)
        #expect(withLegacy.note.string == "Weekend groceries\n- oat milk\n- apples\n- bread\n- coffee\n")
    }
}
