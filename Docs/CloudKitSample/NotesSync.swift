// App-side sample code from Docs/CloudKit.md §2 ("A complete integration with NoteSyncEngine").
// Not part of the package: .ci/typecheck-cloudkit type-checks it (Swift 6) against the CloudKit
// stand-in and the CRDTNote module, so the guide's code keeps compiling as the library changes.
#if canImport(CloudKit)
import CloudKit
import CRDTNote
import Foundation

@MainActor
final class NotesSync {
    /// Every note on this device: the app reads, lists and edits through it.
    let library: NoteLibrary
    /// Syncs the library's notes with CloudKit.
    let engine: NoteSyncEngine
    /// Whose private database the engine syncs with (the signed-in iCloud account's).
    let container: CKContainer

    /// `replica` is this process's own id, made once with `ReplicaID.random()` and kept in this
    /// device's keychain, never in UserDefaults or an app group (GETTING-STARTED.md, "Replica ids").
    init(replica: ReplicaID, container: CKContainer = .default()) throws {
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        library = try Self.openLibrary(folder: support.appendingPathComponent("Notes").path, replica: replica,
                                       oldState: support.appendingPathComponent("notes-sync-state.bin"))
        let store = CloudKitRecordStore(database: container.privateCloudDatabase)
        self.container = container
        engine = NoteSyncEngine(
            library: library,
            store: store,
            // `text` (the plain-text copy for older apps) in the one type this container has:
            // an ASSET, as the classic note app stored it (CloudKit.md, section 4).
            configuration: NoteSyncConfiguration(zone: RecordZoneID(zoneName: "Notes"), textMirror: .asset))
    }

    /// Call from the text view delegate: the library records edits, never whole-note overwrites.
    func userEdited(note name: String, range: NSRange, replacement: String) throws {
        try library.edit(name) { text in
            try text.replaceUTF16(in: range.location..<range.location + range.length, with: replacement)
        }
    }

    /// Call on launch, on a CKDatabaseSubscription / zone push, on becoming active, and
    /// (debounced) after edits.
    func sync() async {
        do {
            guard try await accountIsKnown() else { return }
            let report = try await engine.sync()
            for (name, change) in report.changes {
                refreshEditor(showing: name, change)   // .added, .textChanged or .removed
            }
            for (name, failure) in report.failures {
                // Left as it was, e.g. a note written by a newer app version (failure.code
                // .newerVersionAvailable); the rest of the notes synced.
                print("note \(name) not synced: \(failure)")
            }
        } catch let error as NoteSyncError where error.code == .zoneDeletedByUser {
            // The notes zone was deleted (the user, in Settings): ask before uploading again.
            // Yes: try? await engine.consentToRecreateZone(), then sync. No: the notes stay here.
        } catch {
            // Nothing is lost: unsaved edits stay in the library and go out on the next sync.
            // error.code tells why (attemptsExhausted, cancelled, signedOut, storeFailure,
            // persistFailed with error.libraryError when the library could not be written, ...).
        }
    }

    /// Tells the engine whose private database it syncs with before every sync (the user can
    /// sign out or switch accounts in Settings while the app is away); false: not known now.
    /// After a switch the old account's notes stay here, sent nowhere until the user agrees.
    func accountIsKnown() async throws -> Bool {
        let account: String?
        switch try await container.accountStatus() {
        case .available: account = try await container.userRecordID().recordName
        case .noAccount: account = nil
        default: return false   // restricted, or not known now: try again later
        }
        let change = try await engine.accountChanged(to: account, localNotes: .keep)
        if !change.keptLocally.isEmpty {
            // Offer to move them into this account: try await engine.adoptLocalNotes().
        }
        return account != nil
    }

    /// Call when the app moves to the background: edits made since are then safe from power loss.
    func appWillResignActive() {
        try? library.flush()
    }

    func refreshEditor(showing name: String, _ change: NoteSyncChange) { /* your UI */ }
}

extension NotesSync {
    /// Opens the notes library, making it on first launch. An app that kept a `NoteSyncState`
    /// file (crdtnote before the library) brings it in once: importing again after a crash
    /// changes nothing, and the file goes only once its notes are durable in the library.
    static func openLibrary(folder: String, replica: ReplicaID, oldState: URL) throws -> NoteLibrary {
        let library: NoteLibrary
        do throws(NoteLibraryError) {
            library = try NoteLibrary(folder: folder, replica: replica)
        } catch where error.code == .notALibrary {
            library = try NoteLibrary.create(folder: folder, replica: replica)
        }
        if FileManager.default.fileExists(atPath: oldState.path) {
            // A state this app cannot read (damaged, or written by a newer version) throws:
            // keep the file and update rather than drop the unsaved edits it holds.
            let saved = try JSONDecoder().decode(NoteSyncState.self, from: Data(contentsOf: oldState))
            try library.importNotes(from: saved)   // durable when it returns
            try FileManager.default.removeItem(at: oldState)
        }
        return library
    }
}
#endif
