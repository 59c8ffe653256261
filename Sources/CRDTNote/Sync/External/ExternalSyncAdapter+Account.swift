/// Account changes and zones that went away, by the core's rules (``NoteSyncCore/accountChanged(to:localNotes:)``,
/// ``NoteSyncCore/zoneWasDeleted(_:)``): nothing is ever uploaded into an account the library's
/// notes do not belong to, and a zone the user removed is not filled again unasked.
extension ExternalSyncAdapter {
    /// The engine cleared its pending changes and tokens for an account change; the core decides
    /// what becomes of the notes, and the engine's queue is built again from the library.
    func accountChanged(_ change: ExternalSyncEvent.AccountChange, engine: some ExternalSyncEngine) async {
        let account: String?
        switch change {
        case .signIn(let current), .switchAccounts(_, let current): account = current
        case .signOut: account = nil
        }
        let policy = notesAtAccountChange
        guard let outcome = attempt({ (core) throws(NoteSyncError) in try core.accountChanged(to: account, localNotes: policy) }) else { return }
        if outcome.kind != .unchanged { accountChanges.append(outcome) }
        if outcome.transportMustReset { await engine.removePendingRecordChanges(await engine.pendingRecordChanges()) }
        await reconcile(engine: engine)
    }

    /// The notes zone went away: a purge removes the local copies (listed in the report), a
    /// deletion waits for the app's consent (``consentToRecreateZone(engine:)``), an
    /// encrypted-data reset sends every note again into a new zone.
    func zoneWentAway(_ reason: NoteSyncZoneDeletion.Reason, engine: some ExternalSyncEngine) async {
        guard let outcome = attempt({ (core) throws(NoteSyncError) in try core.zoneWasDeleted(reason) }) else { return }
        zoneDeletions.append(outcome)
        await engine.removePendingRecordChanges(await engine.pendingRecordChanges())
        await reconcile(engine: engine)
    }

    /// The app consents to create the notes zone again after the user deleted it: every note is
    /// sent again.
    package func consentToRecreateZone(engine: some ExternalSyncEngine) async {
        guard attempt({ (core) throws(NoteSyncError) in try core.consentToRecreateZone() }) != nil else { return }
        await reconcile(engine: engine)
    }

    /// Lets notes kept on the device from an earlier account (nil: all of them) sync into the
    /// current one; returns the names adopted.
    @discardableResult
    package func adoptLocalNotes(_ names: [String]? = nil, engine: some ExternalSyncEngine) async -> [String] {
        guard let adopted = attempt({ (core) throws(NoteSyncError) in try core.adoptLocalNotes(names) }) else { return [] }
        await reconcile(engine: engine)
        return adopted
    }
}
