import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteTesting
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation
import Testing

@testable import CRDTNoteCLI

/// In-process checks of writing records with assets, and of the per-replica history `show` prints.
@Suite struct RecordOutputTests {
    /// A record whose text and payload are both assets (zero inline limits).
    func recordWithAssets() throws -> NoteRecord {
        let note = try NoteText("a note kept in asset files", replica: .test(5))
        return try NoteRecord(recordName: "n", note: note, limits: NoteLimits(maxInlinePayload: 0, maxInlineText: 0))
    }

    @Test func assetsAreWrittenBesideTheRecordAndNamedInIt() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try RecordOutput.write(try recordWithAssets(), to: .file(folder.path("n.json")), assetDirectory: folder.url.path)
        let files = try folder.contents()
        #expect(files.count == 3)
        #expect(files.contains("n.json"))
        #expect(files.contains { $0.hasPrefix("text-") && $0.hasSuffix(".bin") })
        #expect(files.contains { $0.hasPrefix("payloadAsset-") && $0.hasSuffix(".bin") })
        let json = try String(contentsOfFile: folder.path("n.json"), encoding: .utf8)
        for file in files where file != "n.json" {
            #expect(json.contains("\"downloadURL\": \"\(file)\""))
        }
        let read = try RecordFile.load(folder.path("n.json"), assets: nil).read()
        #expect(read.note.string == "a note kept in asset files")
    }

    @Test func failedRecordWriteRemovesTheAssetsItPlaced() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Data("keep".utf8).write(to: folder.url.appendingPathComponent("other.bin"))
        let record = try recordWithAssets()
        #expect(throws: CLIError.self) {
            try RecordOutput.write(record, to: .file(folder.path("missing/n.json")), assetDirectory: folder.url.path)
        }
        #expect(try folder.contents() == ["other.bin"])
    }

    @Test func unwritableAssetFolderIsACannotWriteError() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let record = try recordWithAssets()
        do {
            try RecordOutput.write(record, to: .standardOutput, assetDirectory: folder.path("missing"))
            Issue.record("wrote assets into a missing folder")
        } catch {
            #expect(error.code == .cannotWrite)
        }
        #expect(try folder.contents().isEmpty)
    }

    @Test func replicaHistoriesListEditorsWithCountsAndStamps() throws {
        let clock = HybridLogicalClock(physicalClock: .fixed(1_000))
        var phone = try NoteText("hello", replica: .test(2), clock: clock)
        var laptop = phone.forked(as: .test(9), clock: HybridLogicalClock(physicalClock: .fixed(5_000)))
        try laptop.setText("hello world")
        try phone.merge(laptop)
        let reader = phone.forked(as: .test(77))
        let histories = reader.replicaHistories
        #expect(histories.map(\.replica) == [.test(2), .test(9)])
        #expect(histories.map(\.insertedCount) == [5, 6])
        #expect(histories[0].firstInsertion?.milliseconds == 1_000)
        #expect(histories[1].firstInsertion?.milliseconds == 5_000)
        #expect(histories[1].latestEdit?.milliseconds == 5_000)
    }
}
