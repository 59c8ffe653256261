/// Why a record store request failed, modelled on `CKError`: a code, a message that says what
/// and where, and the payload the code needs (conflict records, retry delay, per-item errors).
public struct RecordStoreError: CRDTNoteError {
    /// The category of a store error; new codes can be added without breaking callers.
    public typealias Code = CRDTNoteErrorCode<RecordStoreError>

    /// The category.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// The record the error is about, when it is about one.
    public var recordName: String?
    /// For throttling and unavailability: seconds to wait before retrying.
    public var retryAfterSeconds: Double?
    /// For `.serverRecordChanged`: the three records of the conflict.
    public var conflict: RecordConflict?
    /// For `.partialFailure`: the error of each failed item, by record name.
    public var itemErrors: [String: RecordStoreError]
    /// For `.partialFailure` of a save: the records that were saved.
    public var saved: [CloudRecord]
    /// For `.partialFailure`: errors about whole zones, by zone name (CloudKit keys them by
    /// `CKRecordZone.ID` in `partialErrorsByItemID`, e.g. `zoneNotFound` or `changeTokenExpired`
    /// of a zone-changes fetch).
    public var zoneErrors: [String: RecordStoreError]
    /// For `.invalidArguments` refusing a field of another type than the schema fixed for it:
    /// which field and both types (set by the in-memory database and the folder store).
    public var fieldTypeMismatch: FieldTypeMismatch? = nil

    /// An error of `code`.
    package init(_ code: Code, recordName: String? = nil, retryAfterSeconds: Double? = nil, _ message: String) {
        self.code = code
        self.message = message
        self.recordName = recordName
        self.retryAfterSeconds = retryAfterSeconds
        self.conflict = nil
        self.itemErrors = [:]
        self.saved = []
        self.zoneErrors = [:]
    }

    /// A conflict: `client` could not be saved over `server`.
    package static func serverRecordChanged(ancestor: CloudRecord?, client: CloudRecord, server: CloudRecord) -> RecordStoreError {
        var error = RecordStoreError(.serverRecordChanged, recordName: client.recordName,
            "record '\(client.recordName)' changed on the server: client tag \(client.recordChangeTag ?? "none"), server tag \(server.recordChangeTag ?? "none")")
        error.conflict = RecordConflict(ancestor: ancestor, client: client, server: server)
        return error
    }

    /// A batch in which the items in `itemErrors` failed and `saved` succeeded.
    package static func partialFailure(_ itemErrors: [String: RecordStoreError], saved: [CloudRecord] = []) -> RecordStoreError {
        var error = RecordStoreError(.partialFailure,
            "\(itemErrors.count) item(s) failed: " + itemErrors.keys.sorted().prefix(5).joined(separator: ", "))
        error.itemErrors = itemErrors
        error.saved = saved
        return error
    }

    /// A batch that failed because of its zones: `zoneErrors` by zone name.
    package static func partialFailure(zoneErrors: [String: RecordStoreError]) -> RecordStoreError {
        var error = RecordStoreError(.partialFailure,
            "\(zoneErrors.count) zone(s) failed: " + zoneErrors.keys.sorted().prefix(5).joined(separator: ", "))
        error.zoneErrors = zoneErrors
        return error
    }

    /// The zone-level code this error carries, whether directly or wrapped in a partial failure
    /// (in `zoneErrors`, or as the error of any item): `userDeletedZone`, `zoneNotFound` or
    /// `changeTokenExpired`, in that order of precedence; nil for other errors.
    public var zoneErrorCode: Code? {
        if Self.zoneCodes.contains(code) { return code }
        guard code == .partialFailure else { return nil }
        let codes = Set(zoneErrors.values.map(\.code)).union(itemErrors.values.map(\.code))
        return Self.zoneCodes.first { codes.contains($0) }
    }

    /// Zone-level codes by precedence.
    static let zoneCodes: [Code] = [.userDeletedZone, .zoneNotFound, .changeTokenExpired]

    /// The error of item `recordName`: its entry in a partial failure, or this error when it is
    /// about that record.
    package func itemError(for recordName: String) -> RecordStoreError? {
        if code == .partialFailure { return itemErrors[recordName] }
        return self.recordName == recordName ? self : nil
    }

    /// Whether retrying the same request later may succeed as is.
    package var isTransient: Bool {
        code == .networkFailure || code == .requestRateLimited || code == .serviceUnavailable
            || code == .serverResponseLost || code == .operationCancelled
    }

    /// "record 'name'"; nil when the error is about the request.
    public var subject: String? { recordName.map { "record '\($0)'" } }

    /// "code (record 'name'): message", and "; retry after N s" when there is a delay.
    public var description: String {
        shapeDescription + (retryAfterSeconds.map { "; retry after \($0) s" } ?? "")
    }
}

extension CRDTNoteErrorCode<RecordStoreError> {
    /// The record changed on the server since the client's base version (or already exists
    /// when the client tried to create it); `conflict` holds ancestor, client and server.
    public static var serverRecordChanged: Self { Self(rawValue: "serverRecordChanged") }
    /// The request did not reach the server, or its response was lost (the change may or may
    /// not have been applied). Retry.
    public static var networkFailure: Self { Self(rawValue: "networkFailure") }
    /// The server may have applied the request but its response was lost (CloudKit's
    /// `serverResponseLost`). Retry: a save meets its own version and merges as a no-op.
    public static var serverResponseLost: Self { Self(rawValue: "serverResponseLost") }
    /// The request was cancelled before it finished (CloudKit's `operationCancelled`, e.g.
    /// the system cancelled it). Retry, unless the task asking for it is itself cancelled.
    public static var operationCancelled: Self { Self(rawValue: "operationCancelled") }
    /// The client is sending too many requests; retry after `retryAfterSeconds`.
    public static var requestRateLimited: Self { Self(rawValue: "requestRateLimited") }
    /// The service is unavailable for now; retry after `retryAfterSeconds`.
    public static var serviceUnavailable: Self { Self(rawValue: "serviceUnavailable") }
    /// Some items of a batch failed: `itemErrors` by record name; `saved` holds the rest.
    public static var partialFailure: Self { Self(rawValue: "partialFailure") }
    /// The request (over 400 records or 2 MB) or one record (over 1 MB without assets) is too
    /// large. Split the batch; a single record too large must be made smaller.
    public static var limitExceeded: Self { Self(rawValue: "limitExceeded") }
    /// The zone does not exist (never created, deleted, or the server was reset). Create it
    /// and upload local data again.
    public static var zoneNotFound: Self { Self(rawValue: "zoneNotFound") }
    /// The user deleted the zone (e.g. in Settings). The app decides: wipe local data, or
    /// recreate the zone and upload again.
    public static var userDeletedZone: Self { Self(rawValue: "userDeletedZone") }
    /// The record does not exist, e.g. saving with a change tag after it was deleted.
    public static var unknownItem: Self { Self(rawValue: "unknownItem") }
    /// The user's storage quota is full; the change was not saved.
    public static var quotaExceeded: Self { Self(rawValue: "quotaExceeded") }
    /// The change token is no longer valid (the zone was reset); fetch from nil again.
    public static var changeTokenExpired: Self { Self(rawValue: "changeTokenExpired") }
    /// The request itself is malformed (duplicate names, asset field without bytes, bad token).
    public static var invalidArguments: Self { Self(rawValue: "invalidArguments") }
    /// A local store could not read or write its files.
    public static var storageFailure: Self { Self(rawValue: "storageFailure") }
    /// A CloudKit error this library has no code for; `message` names the `CKError.Code`.
    public static var unhandledCloudKitError: Self { Self(rawValue: "unhandledCloudKitError") }
}

/// The three records of a save conflict, as CloudKit's `serverRecordChanged` gives them.
public struct RecordConflict: Hashable, Sendable {
    /// The server's version the client started from, when the server still knows it. CloudKit
    /// does not document when this is nil; treat nil as "two-way merge".
    public var ancestor: CloudRecord?
    /// The record the client tried to save.
    public var client: CloudRecord
    /// The record on the server now; build the merge on it so its change tag is current.
    public var server: CloudRecord

    /// A conflict.
    package init(ancestor: CloudRecord?, client: CloudRecord, server: CloudRecord) {
        self.ancestor = ancestor
        self.client = client
        self.server = server
    }
}
