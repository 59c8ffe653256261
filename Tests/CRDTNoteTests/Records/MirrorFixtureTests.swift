import Foundation
import Testing
import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteFiles

/// The fixtures in Tests/Fixtures/mirror/ (see the README there): records in the shapes of one
/// type per field, and the classic app's, read to their committed text byte for byte.
@Suite("Text mirror fixtures")
struct MirrorFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/mirror").path

    static let fixtures: [(name: String, origin: NoteOrigin, mirror: NoteTextMirror)] = [
        ("classic-v1", .legacyText, .asset),
        ("asset-mirror", .payload, .asset),
        ("no-mirror", .payload, .off),
        ("no-mirror-typed", .payloadWithFoldedText, .string),
    ]

    static func load(_ name: String) throws -> NoteRecord {
        let json = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).json")))
        return try NoteRecord(CloudRecord.record(fromJSON: json), loadingAssetsFrom: AssetLocator(jsonDirectory: directory))
    }

    @Test(arguments: fixtures.map(\.name))
    func recordReadsToText(_ name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        let record = try Self.load(name)
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.directory)/\(name).txt")))
        let read = try record.read(as: .test(1))
        #expect(Array(read.note.string.utf8) == expected)
        #expect(read.origin == fixture.origin)
        #expect(NoteTextMirror(of: record) == fixture.mirror)
        // Written back in its own type, it reads the same and no field changes its type.
        let rewritten = try record.writing(read.note, mirror: fixture.mirror)
        #expect(Array(try rewritten.read(as: .test(2)).note.string.utf8) == expected)
        #expect(FieldTypeScan.mismatches(in: [record.record, rewritten.record]) == [])
    }
}
