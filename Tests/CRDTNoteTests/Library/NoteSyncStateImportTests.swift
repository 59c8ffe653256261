import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteTesting

/// Apps persisted the whole `NoteSyncState` as JSON until the note library; `importNotes(from:)`
/// brings such a state into a library once, losing nothing. The fixture was written by the
/// release before the library (the engine that made it held notes in memory; its generator,
/// `makeState()`, is in this file's history before the library, commit 45de117): it cannot be
/// written again, and must not be.
@Suite struct NoteSyncStateImportTests {
    static let fixture = RepositoryPaths.fixtures + "/sync-state/state-v1.json"

    /// The fixture is what its generator made: three notes synced, one of them edited since
    /// (unsaved), one deleted here (pending), one created and never synced.
    @Test func theFixtureIsASavedStateOfEveryKind() throws {
        let state = try JSONDecoder().decode(NoteSyncState.self, from: Data(contentsOf: URL(fileURLWithPath: Self.fixture)))
        #expect(state.version == 1)
        #expect(state.token != nil)
        #expect(state.notes.keys.sorted() == ["draft", "groceries", "trip"])
        #expect(state.notes["groceries"]?.hasUnsavedChanges == true && state.notes["groceries"]?.base?.recordChangeTag != nil)
        #expect(state.notes["trip"]?.hasUnsavedChanges == false && state.notes["trip"]?.base?.recordChangeTag != nil)
        #expect(state.notes["draft"]?.hasUnsavedChanges == true && state.notes["draft"]?.base == nil)
        #expect(state.pendingDeletes.keys.sorted() == ["old"])
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
