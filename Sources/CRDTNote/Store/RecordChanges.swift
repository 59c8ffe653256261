import CRDTNoteSupport

/// An opaque position in a zone's change feed. Persist `bytes` and hand it
/// back after a restart to get only later changes.
public struct ChangeToken: Hashable, Sendable, CustomStringConvertible {
    /// The serialized token. Its content belongs to the store that issued it.
    public var bytes: [UInt8]

    /// A token from bytes a store issued earlier.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The token as base64, convenient for `UserDefaults` or JSON.
    package var base64String: String { Base64.encode(bytes) }

    /// A token from `base64String`; nil when the text is not base64.
    package init?(base64String: String) {
        guard let bytes = try? Base64.decode(base64String) else { return nil }
        self.bytes = bytes
    }

    /// The token's base64 form.
    public var description: String { base64String }
}

/// One page of a zone's change feed.
public struct RecordChanges: Hashable, Sendable {
    /// Records created or changed since the token, current versions, oldest change first.
    public var changed: [CloudRecord]
    /// Names of records deleted since the token.
    public var deletedRecordNames: [String]
    /// The token to pass next time (persist it only after applying this page).
    public var token: ChangeToken
    /// Whether more changes are waiting: call again with `token`.
    public var moreComing: Bool
    /// Records changed since the token that the store could not return, by name (CloudKit: a
    /// failed result in `modificationResultsByID`). Transient ones mean "read the page again";
    /// the others are permanent and must not stop the feed: a sync reports and passes them.
    public var recordErrors: [String: RecordStoreError]

    /// A page of changes.
    public init(changed: [CloudRecord], deletedRecordNames: [String], token: ChangeToken, moreComing: Bool,
                recordErrors: [String: RecordStoreError] = [:]) {
        self.changed = changed
        self.deletedRecordNames = deletedRecordNames
        self.token = token
        self.moreComing = moreComing
        self.recordErrors = recordErrors
    }
}
