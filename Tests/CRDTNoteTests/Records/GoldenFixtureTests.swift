import Foundation
import Testing
import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// Where a golden fixture's text comes from: raw payload bytes, or a record JSON file (with any
/// asset files beside it).
enum GoldenSource {
    case payload([UInt8])
    case recordJSON(path: String)
}

/// The only use of the library's API in this file; adapt it here when the API changes.
func goldenLibraryText(_ source: GoldenSource) throws -> String {
    switch source {
    case .payload(let bytes):
        return try NoteText(snapshot: bytes, replica: .test(1)).string
    case .recordJSON(let path):
        let json = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let record = try NoteRecord(CloudRecord.record(fromJSON: json), loadingAssetsFrom: AssetLocator(jsonDirectory: folder))
        return try record.read(as: .test(1)).note.string
    }
}

/// The golden fixtures in Tests/Fixtures/golden/ (written by release e04db0a, see the README
/// there) read by the library: every payload (`.bin`) and every record decodes to the
/// committed text (`.txt`), byte for byte.
@Suite("Golden fixtures (library)")
struct GoldenFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden")

    static let fixtures = [
        "empty", "ascii", "emoji-crlf", "multi-replica", "merged", "asset-spilled", "legacy-v1-upgraded",
        "clobbered-folded",
    ]

    static func bytes(_ file: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
    }

    @Test(arguments: fixtures)
    func payloadDecodesToText(_ name: String) throws {
        let text = try goldenLibraryText(.payload(Self.bytes("\(name).bin")))
        #expect(Array(text.utf8) == (try Self.bytes("\(name).txt")))
    }

    @Test(arguments: fixtures)
    func recordReadsToText(_ name: String) throws {
        let text = try goldenLibraryText(.recordJSON(path: Self.directory.appendingPathComponent("\(name).json").path))
        #expect(Array(text.utf8) == (try Self.bytes("\(name).txt")))
    }

    /// The `.bin` is the record's own payload: its `payload` BYTES (base64) or its `payloadAsset` file.
    @Test(arguments: fixtures)
    func binIsTheRecordsPayload(_ name: String) throws {
        let json = try JSONSerialization.jsonObject(with: Data(Self.bytes("\(name).json")))
        let fields = try #require((json as? [String: Any])?["fields"] as? [String: Any])
        let payload: [UInt8]
        if let inline = (fields["payload"] as? [String: Any])?["value"] as? String {
            payload = try [UInt8](#require(Data(base64Encoded: inline)))
        } else {
            let asset = try #require((fields["payloadAsset"] as? [String: Any])?["value"] as? [String: Any])
            payload = try Self.bytes(#require(asset["downloadURL"] as? String))
        }
        #expect(payload == (try Self.bytes("\(name).bin")))
    }
}
