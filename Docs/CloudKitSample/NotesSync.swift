// App-side sample code from Docs/CloudKit.md §2 ("A complete integration with NoteSyncEngine").
// Not part of the package: .ci/typecheck-cloudkit type-checks it (Swift 6) against the CloudKit
// stand-in and the CRDTNote module, so the guide's code keeps compiling as the library changes.
#if canImport(CloudKit)
import CloudKit
import CRDTNote
import Foundation

@MainActor
final class NotesSync {
    let engine: NoteSyncEngine
    private let stateURL: URL

    /// `replica` is this process's own id, made once with `ReplicaID.random()` and kept in this
    /// device's keychain, never in UserDefaults or an app group (GETTING-STARTED.md, "Replica ids").
    init(replica: ReplicaID, container: CKContainer = .default()) throws {
        stateURL = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("notes-sync-state.bin")
        let store = CloudKitRecordStore(database: container.privateCloudDatabase)
        engine = try NoteSyncEngine(
            store: store,
            replica: replica,
            configuration: NoteSyncConfiguration(zone: RecordZoneID(zoneName: "Notes")),
            state: Self.loadState(from: stateURL))   // your persistence of NoteSyncState
    }

    /// Call from the text view delegate: the engine records edits, never whole-note overwrites.
    func userEdited(note name: String, range: NSRange, replacement: String) async throws {
        try await engine.edit(name) { text in
            try text.replaceUTF16(in: range.location..<range.location + range.length, with: replacement)
        }
        try await persist()
    }

    /// Call on launch, on a CKDatabaseSubscription / zone push, on becoming active, and
    /// (debounced) after edits.
    func sync() async {
        do {
            let report = try await engine.sync()
            if !report.failedNotes.isEmpty { /* e.g. a note newer than this app version */ }
        } catch {
            // Nothing is lost: unsaved edits stay pending and go out on the next sync.
            // error.code tells why (attemptsExhausted, zoneDeletedByUser, storeFailure, ...).
        }
        try? await persist()
    }

    func persist() async throws {
        let state = await engine.savedState()     // token, note snapshots, base records, pending deletes
        try Self.save(state, to: stateURL)
    }
}

// The app's own persistence of `NoteSyncState` (see Docs/CloudKit.md); not shown in the guide.
extension NotesSync {
    static func loadState(from url: URL) -> NoteSyncState? { nil }
    static func save(_ state: NoteSyncState, to url: URL) throws {}
}
#endif
