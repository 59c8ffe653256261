/// Which account the library's synced data belongs to, and what an account change does
/// (Docs/CloudKit.md, "Accounts"): nothing of one account is ever sent into another.
extension NoteSyncCore {
    /// The account the library's synced data belongs to (nil: none yet, or signed out).
    public func account() throws(NoteSyncError) -> String? {
        try readFleet { $0.account }
    }

    /// The account the notes sync with is now `account` (an opaque id the transport gives: the
    /// user record name of `CKSyncEngine`'s `.accountChange` event or of
    /// `CKContainer.userRecordID()`; nil: signed out). Call it at launch and on every account
    /// change, before syncing. A library that never had an account adopts the first one. On a
    /// sign-out or a switch, everything the old account's server told this device (change tags
    /// and system fields, pending deletes, device records, the transport's state) is forgotten,
    /// and the old account's notes are kept on this device only or removed (`localNotes`);
    /// notes kept at a sign-out sync again when the same account signs in again. The
    /// transport drops its own state when ``NoteSyncAccountChange/transportMustReset``.
    @discardableResult
    public mutating func accountChanged(to account: String?, localNotes: NoteSyncAccountChange.LocalNotes) throws(NoteSyncError) -> NoteSyncAccountChange {
        let now = self.now
        let change = try access { (access) throws(NoteSyncError) -> NoteSyncAccountChange in
            var state = try Self.loadFleet(access, replica: access.library.replica, now: now)
            let previous = state.account
            var change = NoteSyncAccountChange(kind: .unchanged, previousAccount: previous, account: account)
            switch (previous, account) {
            case (nil, nil):
                return change
            case (let old?, let new?) where old == new:
                return change
            case (nil, let new?):
                change.kind = .signedIn
                state.account = new
                state.signedOut = false
            case (let old?, let new):
                change.kind = new == nil ? .signedOut : .switched
                do throws(NoteLibraryError) {
                    try Self.forgetAccount(old, keeping: localNotes == .keep, &state, in: access, change: &change)
                } catch {
                    throw NoteSyncError(library: error)
                }
                state.account = new
                state.signedOut = new == nil
            }
            // Notes kept from the account now signed in sync with it again.
            change.readopted = state.localOnly.filter { $0.value == account }.map(\.key).sorted()
            for name in change.readopted { state.localOnly[name] = nil }
            try Self.storeFleet(state, access)
            do throws(NoteLibraryError) { try access.flush() } catch { throw NoteSyncError(library: error) }
            return change
        }
        if change.kind != .unchanged { sent.removeAll() }
        return change
    }

    /// Forgets what account `old`'s server told this device, and keeps its notes local only
    /// (`keeping`) or removes them.
    static func forgetAccount(_ old: String, keeping: Bool, _ state: inout FleetState, in access: LibrarySyncAccess,
                              change: inout NoteSyncAccountChange) throws(NoteLibraryError) {
        for pending in access.pendingDeletes() { try access.deleteWasSent(pending.name) }
        for name in access.names() {
            if keeping {
                try forgetServerIdentity(of: name, in: access)
                // Notes kept from an even earlier account stay that account's.
                if state.localOnly[name] == nil {
                    state.localOnly[name] = old
                    change.keptLocally.append(name)
                }
            } else {
                try access.removeDeletedOnServer(name)
                change.removed.append(name)
            }
        }
        if !keeping { state.localOnly = [:] }
        state.forgetAccountData()
        try access.clearTransportState()
    }

    /// Whether an account signed out and none signed in since (nothing is sent).
    func isSignedOut() throws(NoteSyncError) -> Bool {
        try readFleet { $0.signedOut }
    }

    /// Names of the notes kept on this device from an earlier account, synced nowhere, sorted.
    public func localOnlyNoteNames() throws(NoteSyncError) -> [String] {
        try updateFleet { state, access in state.localOnly.keys.filter { access.state(of: $0) != nil }.sorted() }
    }

    /// Lets local-only notes (`names`; nil: all of them) sync into the current account: they
    /// are sent as new records with the next changes. Returns the notes adopted, sorted.
    @discardableResult
    public mutating func adoptLocalNotes(_ names: [String]? = nil) throws(NoteSyncError) -> [String] {
        try updateFleet { (state, access) throws(NoteSyncError) -> [String] in
            let chosen = names.map(Set.init) ?? Set(state.localOnly.keys)
            let adopted = state.localOnly.keys.filter { chosen.contains($0) && access.state(of: $0) != nil }.sorted()
            for name in chosen { state.localOnly[name] = nil }
            return adopted
        }
    }
}
