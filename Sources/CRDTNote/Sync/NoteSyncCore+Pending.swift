/// What the transport is to send, and the checks before and after a delete: for a transport
/// such as `CKSyncEngine` that keeps its own queue of pending changes and must agree with the
/// library's (Docs/CloudKit.md, section 5).
extension NoteSyncCore {
    /// Every record to save (this device's record when due, then the unsaved notes) and every
    /// record to delete, sorted: what the transport's queue must hold. Call it at launch,
    /// after an account change and after a zone reset, and add what the queue lacks (a crash
    /// or an account change loses a `CKSyncEngine`'s pending changes). Empty while signed out
    /// or while a deleted zone waits for the app's consent; never a note kept from another
    /// account. A pending delete of such a note is forgotten here.
    public func pendingChanges() throws(NoteSyncError) -> NoteSyncPendingChanges {
        let configuration = self.configuration
        let now = self.now
        return try updateFleet { (state, access) throws(NoteSyncError) -> NoteSyncPendingChanges in
            var pending = NoteSyncPendingChanges()
            for (name, _) in access.pendingDeletes() where state.localOnly[name] != nil {
                do throws(NoteLibraryError) { try access.deleteWasSent(name) } catch { throw NoteSyncError(library: error) }
                state.localOnly[name] = nil
            }
            guard !state.sendingBlocked else { return pending }
            if let device = Self.dueAnnouncement(state, configuration: configuration, now: now) { pending.recordsToSave.append(device) }
            pending.recordsToSave += access.unsavedNames().filter { state.localOnly[$0] == nil }
            pending.recordsToDelete = access.pendingDeletes().map(\.name).sorted()
            return pending
        }
    }

    /// Whether the pending delete of note `name` is still to be sent: false when there is none
    /// any more (an edit made on another device after the version deleted here came back
    /// through ``receive(_:)`` and brought the note back, or the delete was sent), when the
    /// note was kept from another account (the delete is forgotten), or while nothing is sent
    /// (signed out, zone awaiting consent). A transport drops a delete this refuses from its
    /// own queue. CloudKit deletes are unconditional: before sending, fetch the record when you
    /// can and ask ``deleteToSend(for:afterFetching:)`` instead.
    public mutating func deleteToSend(for name: String) throws(NoteSyncError) -> Bool {
        try updateFleet { (state, access) throws(NoteSyncError) -> Bool in
            guard access.pendingDeletes().contains(where: { $0.name == name }) else { return false }
            if state.localOnly[name] != nil {
                do throws(NoteLibraryError) { try access.deleteWasSent(name) } catch { throw NoteSyncError(library: error) }
                state.localOnly[name] = nil
                return false
            }
            return !state.sendingBlocked
        }
    }

    /// The check `NoteSyncEngine` makes before deleting, with the server's current version of
    /// note `name` (`current`; nil: the record is not on the server): true when that is still
    /// the version deleted here (or `.deleteWins`), so the delete goes. Otherwise the delete
    /// is not sent now: a record already gone confirms it; a newer version is received
    /// (under `.editResurrects` it brings the note back and the pending delete goes away; a
    /// version that cannot be read is reported and the delete waits).
    public mutating func deleteToSend(for name: String, afterFetching current: CloudRecord?) throws(NoteSyncError) -> Bool {
        guard try deleteToSend(for: name) else { return false }
        guard let current else {
            try deleteWasSent(name)  // already gone
            return false
        }
        if current.recordChangeTag == (try pendingDeleteTag(name)) || configuration.deleteConflictPolicy == .deleteWins { return true }
        do {
            try receive(current)
        } catch where error.code == .persistFailed {
            throw error
        } catch {
            // Unreadable: neither deleted nor applied (receive reported it).
        }
        return false
    }

    /// Decides what a failed delete of note `name` needs: `.done` when the record is already
    /// gone (the delete is confirmed), `.retryLater` for a transient failure, `.recreateZone`
    /// when the zone is gone (``zoneWasLost(_:)`` forgets every pending delete), `.stop` for
    /// anything else (also recorded in the report's ``NoteSyncReport/errors``).
    public mutating func deleteFailed(_ name: String, error: RecordStoreError) -> SaveFailureDecision {
        if error.zoneErrorCode == .zoneNotFound || error.zoneErrorCode == .userDeletedZone { return .recreateZone }
        if error.code == .unknownItem {
            do {
                try deleteWasSent(name)
            } catch {
                return stopped(error)
            }
            return .done
        }
        if error.isTransient { return .retryLater(after: error.retryAfterSeconds.map { .seconds($0) }) }
        return stopped(NoteSyncError(.storeFailure, noteName: name, storeError: error, "cannot delete note: \(error)"))
    }

    /// `.stop(error)`, with the error recorded in the report.
    mutating func stopped(_ error: NoteSyncError) -> SaveFailureDecision {
        report.errors.append(error)
        return .stop(error)
    }
}

/// What the transport's queue must hold (``NoteSyncCore/pendingChanges()``).
public struct NoteSyncPendingChanges: Hashable, Sendable {
    /// Record names to save: this device's record when due, then the unsaved notes (sorted).
    public var recordsToSave: [String] = []
    /// Record names to delete, sorted.
    public var recordsToDelete: [String] = []

    /// Nothing pending.
    package init() {}

    /// Whether nothing is pending.
    public var isEmpty: Bool { recordsToSave.isEmpty && recordsToDelete.isEmpty }
}

extension FleetState {
    /// Whether nothing may be sent: signed out, or the zone was deleted and waits for the app.
    var sendingBlocked: Bool { signedOut || zone == .deletedAwaitingConsent }
}
