@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteTesting
import Foundation
import Testing

/// A library written by the previous library format (Tests/Fixtures/library-v1) is moved to this
/// format before the sync engine writes its first entry, so a reader of the old format never
/// meets sync entries it cannot read; its notes and pending delete then sync as usual.
@Suite struct LibraryUpgradeSyncTests {
    @Test func aFormatOneLibraryIsUpgradedBeforeTheFirstSyncEntry() async throws {
        let fixture = RepositoryPaths.fixtures + "/library-v1"
        let scratch = NSTemporaryDirectory() + "crdtnote-upgrade-sync-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let folder = scratch + "/notes-library"
        try FileManager.default.copyItem(atPath: fixture, toPath: folder)
        try FileManager.default.removeItem(atPath: folder + "/README.md")
        func minimumReader() throws -> UInt32 {
            let index = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/index")))
            return (UInt32(index[4]) | UInt32(index[5]) << 8 | UInt32(index[6]) << 16 | UInt32(index[7]) << 24) >> 16
        }
        #expect(try minimumReader() == 1)

        let library = try NoteLibrary(folder: folder, replica: .test(9))
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        let report = try await NoteSyncEngine(library: library, store: store, retryClock: RecordingClock()).sync()
        #expect(try minimumReader() == UInt32(LibraryFormat.minimumReader))
        #expect(report.saved == 3)
        #expect(try library.list().allSatisfy { !$0.unsaved })

        let other = try NoteLibrary.create(folder: scratch + "/other", replica: .test(10))
        _ = try await NoteSyncEngine(library: other, store: store, retryClock: RecordingClock()).sync()
        for name in ["groceries", "todo", "draft"] {
            #expect(try other.text(of: name) == (try library.text(of: name)))
        }
    }
}
