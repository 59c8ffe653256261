/// A CloudKit error in portable form: what the Apple-only adapter reads out of a `CKError`
/// (its code, already mapped to the store's, retry delay, conflict records, per-item errors)
/// before any decision is made. Keeping this portable lets the Linux tests drive the whole
/// mapping through the in-memory database, which answers with these.
///
/// The one error apps may make (its initialiser is public): a ``CloudKitStyleDatabase`` throws
/// it, and the library reads it.
public struct CloudKitFailure: CRDTNoteError {
    /// The store's codes: the adapter maps each `CKError.Code` to one (``RecordStoreError/Code``;
    /// `zoneBusy` is `serviceUnavailable`, `networkUnavailable` is `networkFailure`...), in one place.
    public typealias Code = RecordStoreError.Code

    /// The code.
    public var code: Code
    /// `localizedDescription` or similar, for people.
    public var message: String
    /// `CKError.retryAfterSeconds`.
    public var retryAfterSeconds: Double?
    /// `CKError.ancestorRecord`, converted.
    public var ancestor: CloudRecord?
    /// `CKError.clientRecord`, converted.
    public var client: CloudRecord?
    /// `CKError.serverRecord`, converted.
    public var server: CloudRecord?
    /// `CKError.partialErrorsByItemID` entries keyed by `CKRecord.ID`, by record name.
    public var partialErrors: [String: CloudKitFailure]
    /// `CKError.partialErrorsByItemID` entries keyed by `CKRecordZone.ID`, by zone name.
    public var zoneErrors: [String: CloudKitFailure]
    /// For `invalidArguments` refusing a field of another type than the schema fixed, when the
    /// database says which (the in-memory database does; CloudKit only says so in its message).
    public var fieldTypeMismatch: FieldTypeMismatch?

    /// A failure.
    public init(_ code: Code, _ message: String = "", retryAfterSeconds: Double? = nil,
                ancestor: CloudRecord? = nil, client: CloudRecord? = nil, server: CloudRecord? = nil,
                partialErrors: [String: CloudKitFailure] = [:], zoneErrors: [String: CloudKitFailure] = [:]) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
        self.ancestor = ancestor
        self.client = client
        self.server = server
        self.partialErrors = partialErrors
        self.zoneErrors = zoneErrors
    }
}

extension RecordStoreError {
    /// The store error for a CloudKit failure about `recordName` (nil: about the request): the
    /// failure's code, with the conflict's records and partial failures' items carried over.
    ///
    /// `serverRecordChanged` without a server record cannot be merged; it becomes
    /// `.serviceUnavailable` so the loop fetches and retries instead of guessing.
    package init(cloudKit failure: CloudKitFailure, recordName: String? = nil) {
        let text = "CloudKit \(failure.code.rawValue)" + (failure.message.isEmpty ? "" : ": \(failure.message)")
        switch failure.code {
        case .serverRecordChanged:
            guard let server = failure.server, let client = failure.client else {
                self.init(.serviceUnavailable, recordName: recordName, text + " (without server and client records)")
                return
            }
            self = .serverRecordChanged(ancestor: failure.ancestor, client: client, server: server)
            self.message = text
        case .partialFailure:
            var items: [String: RecordStoreError] = [:]
            for (name, item) in failure.partialErrors { items[name] = RecordStoreError(cloudKit: item, recordName: name) }
            self = .partialFailure(items)
            for (zone, item) in failure.zoneErrors { zoneErrors[zone] = RecordStoreError(cloudKit: item) }
            if !zoneErrors.isEmpty { message += "; zone(s) failed: " + zoneErrors.keys.sorted().joined(separator: ", ") }
        default:
            self.init(failure.code, recordName: recordName, retryAfterSeconds: failure.retryAfterSeconds, text)
            fieldTypeMismatch = failure.fieldTypeMismatch
        }
    }
}
