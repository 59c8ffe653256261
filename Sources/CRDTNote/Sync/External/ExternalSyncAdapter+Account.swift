/// Account changes and zones that went away: nothing is ever uploaded into an account the
/// library's notes do not belong to, and a zone the user removed is not filled again unasked.
extension ExternalSyncAdapter {
    /// Why sending is held back until the app decides (nil: sending goes on).
    enum Hold: Hashable, Sendable {
        /// The account changed or was signed out of; the notes belong to `previous`.
        case account(previous: String)
        /// The notes zone was deleted or purged by the user.
        case zoneRemoved(ExternalSyncEvent.ZoneDeletion.Reason)
    }

    /// Whether batches may be built.
    var sendingAllowed: Bool { hold == nil }

    /// The engine cleared its pending changes and tokens for an account change. Signing in (the
    /// first account this process sees) sends what the library holds; signing out or switching
    /// holds every send, so the previous account's notes never reach another account.
    func accountChanged(_ change: ExternalSyncEvent.AccountChange, engine: some ExternalSyncEngine) async {
        switch change {
        case .signIn:
            guard sendingAllowed else { return }
            await reconcile(engine: engine)
        case .signOut(let previous), .switchAccounts(let previous, _):
            if hold == nil { hold = .account(previous: previous) }
            await engine.removePendingRecordChanges(await engine.pendingRecordChanges())
            failed(NoteSyncError(.storeFailure, "the iCloud account changed: sending is held until the app decides what becomes of the notes"))
        }
    }

    /// The notes zone went away. An encrypted-data reset re-creates it and uploads every note
    /// again; a zone the user deleted or purged is not filled again unless the configuration's
    /// `userDeletedZonePolicy` says so for a deleted one.
    func zoneWentAway(_ reason: ExternalSyncEvent.ZoneDeletion.Reason, engine: some ExternalSyncEngine) async {
        switch reason {
        case .encryptedDataReset:
            await recreateZone(after: RecordStoreError(.zoneNotFound, "the user reset their encrypted data"), engine: engine)
        case .deleted where core.configuration.userDeletedZonePolicy == .recreateAndUpload:
            await recreateZone(after: RecordStoreError(.userDeletedZone, "the notes zone was deleted"), engine: engine)
        case .deleted, .purged:
            hold = .zoneRemoved(reason)
            await engine.removePendingRecordChanges(await engine.pendingRecordChanges())
            failed(NoteSyncError(.zoneDeletedByUser, "the notes zone was \(reason == .purged ? "purged" : "deleted") by the user: nothing is uploaded again"))
        }
    }
}
