@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteTesting
import CRDTNoteFiles
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

    /// A library of the previous release (format 2: sync entries, no fleet entries) and the
    /// folder server it synced with (Tests/Fixtures/library-v2): this release reads its notes,
    /// unsaved edit and pending delete, moves it to format 3 before the first fleet entry, and
    /// syncs on from where it was.
    @Test func aFormatTwoLibraryIsUpgradedBeforeTheFirstFleetEntry() async throws {
        let fixture = RepositoryPaths.fixtures + "/library-v2"
        let scratch = NSTemporaryDirectory() + "crdtnote-upgrade-v2-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let folder = scratch + "/lib"
        try FileManager.default.createDirectory(atPath: folder + "/notes", withIntermediateDirectories: true)
        for file in ["index", "journal-1"] {
            try FileManager.default.copyItem(atPath: fixture + "/" + file, toPath: folder + "/" + file)
        }
        try FileManager.default.copyItem(atPath: fixture + "/server", toPath: scratch + "/server")
        func minimumReader() throws -> UInt32 {
            let index = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/index")))
            return (UInt32(index[4]) | UInt32(index[5]) << 8 | UInt32(index[6]) << 16 | UInt32(index[7]) << 24) >> 16
        }
        #expect(try minimumReader() == 2)

        let library = try NoteLibrary(folder: folder, replica: .test(9))
        #expect(try library.list().map(\.name) == ["groceries"])
        #expect(try library.text(of: "groceries") == "Milk, eggs, tea")
        #expect(try library.summary(of: "groceries")?.unsaved == true)
        let store = try DirectoryRecordStore(root: scratch + "/server")
        let report = try await NoteSyncEngine(library: library, store: store, retryClock: RecordingClock()).sync()
        #expect(try minimumReader() == UInt32(LibraryFormat.minimumReader))
        #expect(report.saved == 1 && report.deleted == 1 && report.failures.isEmpty, "\(report)")
        #expect(try library.list().allSatisfy { !$0.unsaved })

        let other = try NoteLibrary.create(folder: scratch + "/other", replica: .test(10))
        let otherEngine = NoteSyncEngine(library: other, store: store, retryClock: RecordingClock())
        _ = try await otherEngine.sync()
        #expect(try other.list().map(\.name) == ["groceries"])
        #expect(try other.text(of: "groceries") == "Milk, eggs, tea")
        #expect(try await otherEngine.fleet().devices.count == 2)
    }
}
