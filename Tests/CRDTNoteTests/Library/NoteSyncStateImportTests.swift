import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteTesting

/// Apps persisted the whole `NoteSyncState` as JSON until the note library; `importNotes(from:)`
/// brings such a state into a library once, losing nothing. The fixture was written by the
/// release before the library (`CRDTNOTE_REGENERATE_SYNC_STATE=1` writes it again from
/// `Self.makeState()`; never regenerate it with a later release).
@Suite struct NoteSyncStateImportTests {
    static let fixture = RepositoryPaths.fixtures + "/sync-state/state-v1.json"

    /// Three notes synced, one of them edited since (unsaved), one deleted here (pending), one
    /// created and never synced.
    static func makeState() async throws -> NoteSyncState {
        let store = CloudKitStyleRecordStore(database: InMemoryCloudDatabase())
        let engine = try NoteSyncEngine(store: store, replica: .test(0x51))
        try await engine.createNote("groceries", text: "Groceries\nmilk\n")
        try await engine.createNote("trip", text: "Trip to Lyon\n- tickets\n")
        try await engine.createNote("old", text: "to be deleted")
        _ = try await engine.sync()
        try await engine.setText("Groceries\nmilk\neggs\n", of: "groceries")
        await engine.deleteNote("old")
        try await engine.createNote("draft", text: "Not synced yet: ünïcödé 😀")
        return await engine.savedState()
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CRDTNOTE_REGENERATE_SYNC_STATE"] == "1", "writes the fixture"))
    func regenerateFixture() async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(try await Self.makeState()).write(to: URL(fileURLWithPath: Self.fixture))
    }

    @Test func aSavedStateComesOverWhole() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixture))
        let state = try JSONDecoder().decode(NoteSyncState.self, from: data)
        let folder = NSTemporaryDirectory() + "crdtnote-import-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = try NoteLibrary.create(folder: folder, replica: .test(0x52))
        #expect(try library.importNotes(from: state) == 3)
        #expect(try library.text(of: "groceries") == "Groceries\nmilk\neggs\n")
        #expect(try library.text(of: "trip") == "Trip to Lyon\n- tickets\n")
        #expect(try library.text(of: "draft") == "Not synced yet: ünïcödé 😀")
        #expect(try library.summary(of: "old") == nil)
        #expect(try library.pendingDeletes == ["old"])
        // The notes keep their history: the same ids as the state's snapshots.
        for (name, saved) in state.notes {
            let original = try NoteText(snapshot: saved.snapshot, replica: .test(0x52))
            #expect(try library.note(name).version == original.version)
        }
        // Importing again changes nothing; reopening keeps it all.
        #expect(try library.importNotes(from: state) == 3)
        try library.close()
        let reopened = try NoteLibrary(folder: folder, replica: .test(0x53))
        #expect(try reopened.list().map(\.name).sorted() == ["draft", "groceries", "trip"])
        #expect(try reopened.pendingDeletes == ["old"])
    }
}
