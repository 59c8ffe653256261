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
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Small inline limits so the payload and the text mirror become asset files.
        let limits = NoteLimits(maxInlinePayload: 64, maxInlineText: 64)
        let config = NoteSyncConfiguration(recordLimits: limits)
        let a = try NoteSyncEngine(store: try DirectoryRecordStore(root: root), replica: .test(1), configuration: config)
        let b = try NoteSyncEngine(store: try DirectoryRecordStore(root: root), replica: .test(2), configuration: config)
        let long = String(repeating: "a long line of text\n", count: 50)
        try await a.createNote("n", text: long)
        try await a.sync()
        try await b.sync()
        #expect(await b.text(of: "n") == long)
        try await a.setText(long + "from a\n", of: "n")
        try await b.setText("from b\n" + long, of: "n")
        try await a.sync()
        try await b.sync()
        try await a.sync()
        #expect(await a.text(of: "n") == "from b\n" + long + "from a\n")
        #expect(await b.text(of: "n") == "from b\n" + long + "from a\n")
        let store = try DirectoryRecordStore(root: root)
        let stored = try #require(try await store.fetchRecord(named: "n", in: config.zone))
        guard case .asset? = stored[field: NoteSchema.Field.payloadAsset] else {
            Issue.record("payload is not an asset")
            return
        }
        #expect(StoreFixtures.assetBytes(stored, NoteSchema.Field.payloadAsset) != nil)
    }
}
