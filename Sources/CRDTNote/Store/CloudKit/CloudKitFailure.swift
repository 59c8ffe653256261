/// A CloudKit error in portable form: what the Apple-only adapter reads out of a `CKError`
/// (code name, retry delay, conflict records, per-item errors) before any decision is made.
/// Keeping this portable lets the Linux tests drive the whole mapping through the in-memory
/// database, which answers with these.
public struct CloudKitFailure: Error, Hashable, Sendable {
    /// A `CKError.Code` case by its Swift name (`"serverRecordChanged"`, `"zoneBusy"`...).
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The case name.
        public var rawValue: String
        /// A code by case name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `CKError.Code.serverRecordChanged`.
        public static let serverRecordChanged = Code(rawValue: "serverRecordChanged")
        /// `CKError.Code.networkFailure`.
        public static let networkFailure = Code(rawValue: "networkFailure")
        /// `CKError.Code.networkUnavailable`.
        public static let networkUnavailable = Code(rawValue: "networkUnavailable")
        /// `CKError.Code.requestRateLimited`.
        public static let requestRateLimited = Code(rawValue: "requestRateLimited")
        /// `CKError.Code.serviceUnavailable`.
        public static let serviceUnavailable = Code(rawValue: "serviceUnavailable")
        /// `CKError.Code.zoneBusy`.
        public static let zoneBusy = Code(rawValue: "zoneBusy")
        /// `CKError.Code.partialFailure`.
        public static let partialFailure = Code(rawValue: "partialFailure")
        /// `CKError.Code.batchRequestFailed`: this item was fine but its atomic batch failed.
        public static let batchRequestFailed = Code(rawValue: "batchRequestFailed")
        /// `CKError.Code.limitExceeded`.
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// `CKError.Code.zoneNotFound`.
        public static let zoneNotFound = Code(rawValue: "zoneNotFound")
        /// `CKError.Code.userDeletedZone`.
        public static let userDeletedZone = Code(rawValue: "userDeletedZone")
        /// `CKError.Code.unknownItem`.
        public static let unknownItem = Code(rawValue: "unknownItem")
        /// `CKError.Code.quotaExceeded`.
        public static let quotaExceeded = Code(rawValue: "quotaExceeded")
        /// `CKError.Code.serverResponseLost`.
        public static let serverResponseLost = Code(rawValue: "serverResponseLost")
        /// `CKError.Code.operationCancelled` (also what a Swift `CancellationError` becomes).
        public static let operationCancelled = Code(rawValue: "operationCancelled")
        /// `CKError.Code.assetFileNotFound`.
        public static let assetFileNotFound = Code(rawValue: "assetFileNotFound")
        /// `CKError.Code.changeTokenExpired`.
        public static let changeTokenExpired = Code(rawValue: "changeTokenExpired")
        /// `CKError.Code.invalidArguments`.
        public static let invalidArguments = Code(rawValue: "invalidArguments")
    }

    /// The CloudKit code.
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
    /// The store error for a CloudKit failure about `recordName` (nil: about the request).
    ///
    /// `serverRecordChanged` without a server record cannot be merged; it becomes
    /// `.serviceUnavailable` so the loop fetches and retries instead of guessing.
    public init(cloudKit failure: CloudKitFailure, recordName: String? = nil) {
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
            self.init(Self.code(for: failure.code), recordName: recordName, retryAfterSeconds: failure.retryAfterSeconds, text)
            fieldTypeMismatch = failure.fieldTypeMismatch
        }
    }

    /// The store code for a CloudKit code other than conflict and partial failure.
    static func code(for code: CloudKitFailure.Code) -> Code {
        switch code {
        case .networkFailure, .networkUnavailable: return .networkFailure
        case .serverResponseLost: return .serverResponseLost
        case .operationCancelled: return .operationCancelled
        case .requestRateLimited: return .requestRateLimited
        case .serviceUnavailable, .zoneBusy, .batchRequestFailed: return .serviceUnavailable
        case .limitExceeded: return .limitExceeded
        case .zoneNotFound: return .zoneNotFound
        case .userDeletedZone: return .userDeletedZone
        case .unknownItem: return .unknownItem
        case .quotaExceeded: return .quotaExceeded
        case .changeTokenExpired: return .changeTokenExpired
        case .invalidArguments: return .invalidArguments
        default: return .unhandledCloudKitError
        }
    }
}
