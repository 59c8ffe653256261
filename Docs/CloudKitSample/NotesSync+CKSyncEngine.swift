// App-side sample code from Docs/CloudKit.md §8 ("Using CKSyncEngine instead"): CKSyncEngine as
// the transport through the library's own delegate, CloudKitNoteSync.
// Not part of the package: .ci/typecheck-cloudkit type-checks it (Swift 6) against the CloudKit
// stand-in and the CRDTNote module. CKSyncEngine needs macOS 14 / iOS 17 / tvOS 17 /
// watchOS 10, above the package's minimum platforms, hence the availability attributes.
#if canImport(CloudKit)
import CloudKit
import CRDTNote
import Foundation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
final class NotesCKSync {
    /// Every note on this device (NotesSync.openLibrary opens it); the app edits through it.
    let library: NoteLibrary
    /// The library's CKSyncEngine delegate, once started.
    private(set) var sync: CloudKitNoteSync?

    init(library: NoteLibrary) {
        self.library = library
    }

    /// Call once at launch (`application(_:didFinishLaunchingWithOptions:)`).
    func start(container: CKContainer = .default()) async {
        do {
            sync = try await CloudKitNoteSync.start(
                library: library, database: container.privateCloudDatabase,
                configuration: NoteSyncConfiguration(zone: RecordZoneID(zoneName: "Notes"), textMirror: .asset),
                notesAtAccountChange: .keep)
        } catch {
            print("cannot start syncing: \(error)")   // the library could not be read
        }
    }

    /// Call on a push, on pull-to-refresh, when the app becomes active.
    func refresh() async {
        do {
            try await sync?.syncNow()
        } catch {
            print("sync failed, CKSyncEngine retries: \(error)")
        }
        await showReport()
    }

    /// What changed and what failed since the last call.
    func showReport() async {
        guard let report = await sync?.takeReport() else { return }
        for (name, change) in report.notes.changes {
            refreshEditor(showing: name, change)   // .added, .textChanged or .removed
        }
        for (name, failure) in report.notes.failures {
            print("note \(name) not synced: \(failure)")   // e.g. written by a newer app version
        }
        for error in report.notes.errors {
            print("sync: \(error)")
        }
        for deletion in report.zoneDeletions {
            if !deletion.removedNotes.isEmpty { offerExport(deletion.removedNotes) }   // purged in Settings
            if deletion.awaitsConsent { askToUploadAgain() }                          // zone deleted
        }
        for change in report.accountChanges where !change.keptLocally.isEmpty {
            print("kept on this device only: \(change.keptLocally)")   // adoptLocalNotes() syncs them
        }
    }

    /// The user agreed to upload the notes again after the zone was deleted.
    func userAgreedToUploadAgain() async {
        await sync?.consentToRecreateZone()
    }

    func refreshEditor(showing name: String, _ change: NoteSyncChange) { /* reload the open editor */ }
    func offerExport(_ notes: [NoteSyncRemovedNote]) { /* let the user save the texts elsewhere */ }
    func askToUploadAgain() { /* ask, then call userAgreedToUploadAgain() */ }
}
#endif
