import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// The sync engine over the other store: a folder (with asset payloads). (Over the CloudKit-shaped
/// store it runs in `NoteSyncEngineTests`, `CloudKitFaultTests` and the simulation.)
@Suite struct NoteSyncStoresTests {
    @Test func twoDevicesSyncThroughAFolderWithAssetPayloads() async throws {
        let root = StoreFixtures.temporaryDirectory()
        let libraries = StoreFixtures.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: libraries)
        }
        // Small inline limits so the payload and the text mirror become asset files.
        let limits = NoteLimits(maxInlinePayload: 64, maxInlineText: 64)
        let config = NoteSyncConfiguration(recordLimits: limits)
        // Each device's library in a real folder of its own.
        let libraryA = try NoteLibrary.create(folder: libraries + "/a", replica: .test(1))
        let libraryB = try NoteLibrary.create(folder: libraries + "/b", replica: .test(2))
        let a = NoteSyncEngine(library: libraryA, store: try DirectoryRecordStore(root: root), configuration: config)
        let b = NoteSyncEngine(library: libraryB, store: try DirectoryRecordStore(root: root), configuration: config)
        let long = String(repeating: "a long line of text\n", count: 50)
        try libraryA.create("n", text: long)
        try await a.sync()
        try await b.sync()
        #expect(try libraryB.text(of: "n") == long)
        try libraryA.setText(long + "from a\n", of: "n")
        try libraryB.setText("from b\n" + long, of: "n")
        try await a.sync()
        try await b.sync()
        try await a.sync()
        #expect(try libraryA.text(of: "n") == "from b\n" + long + "from a\n")
        #expect(try libraryB.text(of: "n") == "from b\n" + long + "from a\n")
        #expect(try libraryA.list().filter(\.unsaved).isEmpty)
        #expect(try libraryB.list().filter(\.unsaved).isEmpty)
        let store = try DirectoryRecordStore(root: root)
        let stored = try #require(try await store.fetchRecord(named: "n", in: config.zone))
        guard case .asset? = stored[field: NoteSchema.Field.payloadAsset] else {
            Issue.record("payload is not an asset")
            return
        }
        #expect(StoreFixtures.assetBytes(stored, NoteSchema.Field.payloadAsset) != nil)
        #expect(try NoteSyncCore.text(from: stored, replica: .test(9)).string == "from b\n" + long + "from a\n")
        // A restart of device B reads its library from the folder again.
        let reopened = try NoteLibrary(folder: libraries + "/b", replica: .test(3))
        #expect(try reopened.text(of: "n") == "from b\n" + long + "from a\n")
    }
}
