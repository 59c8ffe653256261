/// The notes zone: when to save it, and what its loss or deletion does to the library's notes
/// (Docs/CloudKit.md, section 6).
extension NoteSyncCore {
    /// Whether the zone is known to exist, is to be saved, or waits for the app's consent.
    public func zoneStatus() throws(NoteSyncError) -> NoteSyncZoneStatus {
        try readFleet { $0.zone }
    }

    /// The transport saved the zone: it is not saved again until it is lost.
    public func zoneWasSaved() throws(NoteSyncError) {
        try updateFleet { state, _ in state.zone = .exists }
    }

    /// The zone vanished (`zoneNotFound` or `userDeletedZone` from a request; the transport
    /// forgets its own state, e.g. its change token): call it once per failed request, however
    /// many of its items reported the zone. Pending deletes are forgotten and every note is
    /// marked to be created again, in a zone saved anew. `userDeletedZone` under
    /// ``NoteSyncConfiguration/UserDeletedZonePolicy/waitForConsent`` (the default) instead
    /// leaves the zone deleted until ``consentToRecreateZone()`` and throws `.zoneDeletedByUser`.
    public mutating func zoneWasLost(_ error: RecordStoreError) throws(NoteSyncError) {
        if error.zoneErrorCode == .userDeletedZone && configuration.userDeletedZonePolicy == .waitForConsent {
            try forgetZone(then: .deletedAwaitingConsent)
            throw Self.zoneDeletedByUser(error)
        }
        statistics.zoneRecoveries += 1
        try forgetZone(then: .needsSaving)
    }

    /// The error that says the zone was deleted and waits for the app.
    static func zoneDeletedByUser(_ error: RecordStoreError?) -> NoteSyncError {
        NoteSyncError(.zoneDeletedByUser, storeError: error,
                      "the notes zone was deleted; nothing is sent until the app calls consentToRecreateZone()")
    }

    /// The server reports the zone deleted (`CKSyncEngine`'s `fetchedDatabaseChanges`, or the
    /// app's own database-change fetch): `.purged` removes the local copies of the zone's notes
    /// (reported with their text first, in the result) and sends nothing again; `.deleted`
    /// follows ``NoteSyncConfiguration/userDeletedZonePolicy`` (by default the notes stay, and
    /// nothing is sent until ``consentToRecreateZone()``); `.encryptedDataReset` sends every
    /// note again into a zone saved anew. Notes kept from another account are not touched.
    @discardableResult
    public mutating func zoneWasDeleted(_ reason: NoteSyncZoneDeletion.Reason) throws(NoteSyncError) -> NoteSyncZoneDeletion {
        var result = NoteSyncZoneDeletion(reason: reason)
        switch reason {
        case .purged:
            result.removedNotes = try removeZoneNotes()
        case .deleted where configuration.userDeletedZonePolicy == .waitForConsent:
            try forgetZone(then: .deletedAwaitingConsent)
            result.awaitsConsent = true
        case .deleted, .encryptedDataReset:
            statistics.zoneRecoveries += 1
            try forgetZone(then: .needsSaving)
            result.notesToSend = try pendingChanges().recordsToSave
        }
        return result
    }

    /// The app consents to creating the deleted zone again and sending its notes into it:
    /// returns the records to send, in a zone the transport saves first.
    @discardableResult
    public mutating func consentToRecreateZone() throws(NoteSyncError) -> [String] {
        try updateFleet { state, _ in if state.zone == .deletedAwaitingConsent { state.zone = .needsSaving } }
        return try pendingChanges().recordsToSave
    }

    /// Forgets the zone's server state (pending deletes, change tags, this device's record) and
    /// marks every note to be created again; the zone's status becomes `status`.
    mutating func forgetZone(then status: NoteSyncZoneStatus) throws(NoteSyncError) {
        sent.removeAll()
        try updateFleet { (state, access) throws(NoteSyncError) in
            state.ownRecord = nil
            state.zone = status
            do throws(NoteLibraryError) {
                for name in access.names() { try Self.forgetServerIdentity(of: name, in: access) }
                for pending in access.pendingDeletes() { try access.deleteWasSent(pending.name) }
            } catch {
                throw NoteSyncError(library: error)
            }
        }
    }

    /// Removes every note of the purged zone from this device (not the notes kept from another
    /// account), durably, and returns them as they were.
    mutating func removeZoneNotes() throws(NoteSyncError) -> [NoteSyncRemovedNote] {
        sent.removeAll()
        let removed = try updateFleet { (state, access) throws(NoteSyncError) -> [NoteSyncRemovedNote] in
            state.ownRecord = nil
            state.zone = .needsSaving
            var removed: [NoteSyncRemovedNote] = []
            do throws(NoteLibraryError) {
                for pending in access.pendingDeletes() { try access.deleteWasSent(pending.name) }
                for name in access.names() where state.localOnly[name] == nil {
                    let text: String?
                    do { text = try access.note(name).string } catch { text = nil }
                    removed.append(NoteSyncRemovedNote(name: name, title: access.title(of: name) ?? "", text: text))
                    try access.removeDeletedOnServer(name)
                }
            } catch {
                throw NoteSyncError(library: error)
            }
            return removed
        }
        try flush()
        return removed
    }

    /// Makes everything the library holds durable.
    func flush() throws(NoteSyncError) {
        try access { (access) throws(NoteSyncError) in
            do throws(NoteLibraryError) { try access.flush() } catch { throw NoteSyncError(library: error) }
        }
    }

    /// Marks note `name` to be created again on the server (its record no longer exists there).
    static func forgetServerIdentity(of name: String, in access: LibrarySyncAccess) throws(NoteLibraryError) {
        guard let base = try access.server(of: name) else { return }
        try access.recordSynced(name, merged: nil, fields: [], confirms: nil, server: base.withoutServerIdentity())
    }
}
