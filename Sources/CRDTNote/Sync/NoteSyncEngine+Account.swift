/// Account changes and zone deletions the app learns of (Docs/CloudKit.md, "Accounts" and
/// section 6): the same rules as ``NoteSyncCore``, with the engine's change token and
/// subscription forgotten when they no longer apply.
extension NoteSyncEngine {
    /// The account the library's synced data belongs to (nil: none yet, or signed out).
    public func account() throws(NoteSyncError) -> String? {
        try core.account()
    }

    /// The store now belongs to `account` (nil: signed out); call it at launch and whenever
    /// the account changes, before syncing (``NoteSyncCore/accountChanged(to:localNotes:)``).
    /// Nothing of the previous account is sent into the new one; its notes are kept on this
    /// device only or removed (`localNotes`).
    @discardableResult
    public func accountChanged(to account: String?, localNotes: NoteSyncAccountChange.LocalNotes) throws(NoteSyncError) -> NoteSyncAccountChange {
        let change = try core.accountChanged(to: account, localNotes: localNotes)
        if change.transportMustReset {
            // The core cleared the saved state with the account's other data.
            transport = nil
            zoneReady = false
        }
        return change
    }

    /// Names of the notes kept on this device from an earlier account, synced nowhere, sorted.
    public func localOnlyNoteNames() throws(NoteSyncError) -> [String] {
        try core.localOnlyNoteNames()
    }

    /// Lets local-only notes (`names`; nil: all) sync into the current account from the next
    /// sync on; returns the notes adopted, sorted.
    @discardableResult
    public func adoptLocalNotes(_ names: [String]? = nil) throws(NoteSyncError) -> [String] {
        try core.adoptLocalNotes(names)
    }

    /// The server reports the zone deleted (``NoteSyncCore/zoneWasDeleted(_:)``): `.purged`
    /// removes the local copies of its notes after reporting them, `.deleted` follows the
    /// ``NoteSyncConfiguration/userDeletedZonePolicy``, `.encryptedDataReset` sends every note
    /// again. The change token and subscription of the old zone are forgotten.
    @discardableResult
    public func zoneWasDeleted(_ reason: NoteSyncZoneDeletion.Reason) throws(NoteSyncError) -> NoteSyncZoneDeletion {
        try forgetZoneTransport()
        return try core.zoneWasDeleted(reason)
    }

    /// The app consents to creating the deleted zone again: the next sync saves it and sends
    /// every note into it (returned, sorted).
    @discardableResult
    public func consentToRecreateZone() throws(NoteSyncError) -> [String] {
        zoneReady = false
        return try core.consentToRecreateZone()
    }

    /// Whether the zone is known to exist, is to be saved, or waits for the app's consent.
    public func zoneStatus() throws(NoteSyncError) -> NoteSyncZoneStatus {
        try core.zoneStatus()
    }
}
