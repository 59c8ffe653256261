/// What ``NoteSyncCore/accountChanged(to:localNotes:)`` did when the account the notes sync
/// with changed (Docs/CloudKit.md, "Accounts"). Nothing of one account is ever sent into
/// another: on a sign-out or a switch the library forgets everything the old account's server
/// told it (change tags, system fields, pending deletes, device records, transport state), and
/// its notes are either kept on this device only or removed.
public struct NoteSyncAccountChange: Hashable, Sendable {
    /// What happened to the account.
    public enum Kind: Hashable, Sendable {
        /// The same account as before (or still none): nothing changed.
        case unchanged
        /// An account signed in where none was: a library that never had one adopts it and
        /// its notes sync into it; after a sign-out, notes kept from that same account sync
        /// into it again (``readopted``).
        case signedIn
        /// The account signed out: its server metadata is gone, its notes kept or removed.
        case signedOut
        /// Another account signed in: the old one's server metadata is gone, its notes kept
        /// (local only) or removed; notes kept from the new one before sync with it again.
        case switched
    }

    /// What becomes of the notes of the account that went away.
    public enum LocalNotes: Hashable, Sendable {
        /// They stay on this device, local only: not sent into any other account until the app
        /// calls ``NoteSyncCore/adoptLocalNotes(_:)``, or sent again when their own account
        /// signs in again.
        case keep
        /// They are removed from this device (the old account's server still has them).
        case remove
    }

    /// What happened.
    public var kind: Kind
    /// The account before (nil: none).
    public var previousAccount: String?
    /// The account now (nil: signed out).
    public var account: String?
    /// Notes of the previous account now kept on this device only, sorted.
    public var keptLocally: [String] = []
    /// Notes removed from this device, sorted.
    public var removed: [String] = []
    /// Notes kept from this account at an earlier sign-out or switch that sync with it again, sorted.
    public var readopted: [String] = []

    /// An account change.
    package init(kind: Kind, previousAccount: String?, account: String?) {
        self.kind = kind
        self.previousAccount = previousAccount
        self.account = account
    }

    /// Whether the transport must start over: the old account's state (change token,
    /// `CKSyncEngine` state serialization, pending changes) no longer applies.
    public var transportMustReset: Bool { kind == .signedOut || kind == .switched }
}
