import Foundation
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteSupport

/// A device for sync tests: a `NoteLibrary` in a temporary folder of its own (removed when the
/// device goes away) and a `NoteSyncEngine` on it. `restart()` is the app starting again: the
/// library opened again from its folder and a new engine, nothing kept in memory.
final class TestDevice: @unchecked Sendable {
    let folder: String
    let store: any RecordStore
    let configuration: NoteSyncConfiguration
    let retryClock: any Clock<Duration>
    private(set) var replica: ReplicaID
    private(set) var library: NoteLibrary
    private(set) var engine: NoteSyncEngine

    /// A device with an empty library (replica `replica`) syncing with `store`.
    init(_ store: any RecordStore, replica: UInt64, configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
         retryClock: any Clock<Duration> = RecordingClock()) throws {
        folder = NSTemporaryDirectory() + "crdtnote-sync-\(UUID().uuidString)"
        self.store = store
        self.configuration = configuration
        self.retryClock = retryClock
        self.replica = .test(replica)
        library = try NoteLibrary.create(folder: folder, replica: .test(replica))
        engine = NoteSyncEngine(library: library, store: store, configuration: configuration, retryClock: retryClock)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// The app starts again (after being killed: nothing is closed): its library opened again
    /// from the folder, as `replica` when given, and a new engine.
    func restart(replica: UInt64? = nil) throws {
        if let replica { self.replica = .test(replica) }
        library = try NoteLibrary(folder: folder, replica: self.replica)
        engine = NoteSyncEngine(library: library, store: store, configuration: configuration, retryClock: retryClock)
    }

    // MARK: What the app does and sees, through the library

    func create(_ name: String, text: String) throws { try library.create(name, text: text) }
    func setText(_ text: String, of name: String) throws { try library.setText(text, of: name) }
    func delete(_ name: String) throws { try library.delete(name) }
    func edit(_ name: String, _ body: (inout NoteText) throws -> Void) throws { try library.edit(name, body) }

    /// The note's text; nil when the library has no note of that name.
    func text(of name: String) throws -> String? {
        guard try library.summary(of: name) != nil else { return nil }
        return try library.text(of: name)
    }

    /// Every note's name, sorted.
    func noteNames() throws -> [String] { try library.list().map(\.name).sorted() }

    /// The notes with changes the server lacks, sorted, as the sync core sees them; throws when
    /// the library's listing says otherwise.
    func unsavedNoteNames() throws -> [String] {
        let names = try NoteSyncCore(library: library, configuration: configuration).unsavedNoteNames()
        let listed = try library.list().filter(\.unsaved).map(\.name).sorted()
        guard names == listed else { throw TestDeviceError("sync core says unsaved \(names), the listing \(listed)") }
        return names
    }

    /// The notes deleted here whose delete is still to be sent, sorted.
    func pendingDeleteNames() throws -> [String] {
        try NoteSyncCore(library: library, configuration: configuration).pendingDeleteNames()
    }

    /// The change-feed position and subscription the engine saved in the library.
    func transport() throws -> EngineTransportState {
        EngineTransportState(decoding: try NoteSyncCore(library: library, configuration: configuration).transportState())
    }

    /// Replaces the saved change-feed position and subscription (as a damaged or foreign
    /// library would hold them); takes effect for the next engine (see `restart()`).
    func saveTransport(_ state: EngineTransportState) throws {
        try NoteSyncCore(library: library, configuration: configuration).saveTransportState(state.encoded())
    }
}

struct TestDeviceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension NoteSyncEngine {
    /// `pushLocalChanges` and the report of what it did.
    func pushLocalChangesReport() async throws -> NoteSyncReport {
        _ = core.takeReport()
        try await pushLocalChanges()
        return core.takeReport()
    }
}
