// A stand-in for Apple's CloudKit module, used only by .ci/typecheck-cloudkit to type-check
// the package's `#if canImport(CloudKit)` code on Linux. Never linked, never run: every body
// is `fatalError()`. Not part of the package.
//
// It declares only what crdtnote's adapter and its CKSyncEngine sample use (plus the overloads
// that compete with them), written by hand after the iOS 17.4 SDK: the Swift overlay
// (CloudKit.swiftmodule/arm64e-apple-ios.swiftinterface) and the Objective-C headers with
// CloudKit.apinotes (Swift names such as CKRecordID -> CKRecord.ID, CKReference ->
// CKRecord.Reference, CKRecordValue -> __CKRecordObjCValue). Labels, `async`/`throws`,
// optionality and return types follow the SDK.
//
// Sendable: as at the package's minimum platforms (macOS 13, iOS 16, tvOS 16, watchOS 9).
// Classes the headers mark NS_SWIFT_SENDABLE unconditionally are `@unchecked Sendable` here
// (CKContainer, CKDatabase, CKRecord.ID, CKRecord.Reference, CKServerChangeToken). Classes that
// only become Sendable later (CKRecord, CKRecordZone, CKAsset, CKSubscription: macOS 14 /
// iOS 17; CKRecordZone.ID, CKOperationGroup: macOS 13.3 / iOS 16.4) are NOT Sendable here, so
// the check is stricter than the SDK for code that runs only on the newer systems.
//
// Availability attributes are copied for the reader; when the target is Linux the compiler
// ignores them (see Docs/CloudKit.md, "Type-checking the CloudKit code on Linux").
// The module is compiled with -swift-version 5 and -enable-library-evolution, as Apple's is,
// so its enums are non-frozen (clients need `default:` / `@unknown default:`).
import Foundation

// MARK: - Globals (CKContainer.h, CKError.h)

/// `CKCurrentUserDefaultName` (CKContainer.h).
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public let CKCurrentUserDefaultName: String = "__defaultOwner__"

/// `CKErrorDomain` (CKError.h).
public let CKErrorDomain: String = "CKErrorDomain"
/// `CKPartialErrorsByItemIDKey`: `userInfo` key of `partialFailure`; a dictionary of item ID to error.
public let CKPartialErrorsByItemIDKey: String = "CKPartialErrors"
/// `CKRecordChangedErrorAncestorRecordKey` (`serverRecordChanged`).
public let CKRecordChangedErrorAncestorRecordKey: String = "AncestorRecord"
/// `CKRecordChangedErrorServerRecordKey` (`serverRecordChanged`).
public let CKRecordChangedErrorServerRecordKey: String = "ServerRecord"
/// `CKRecordChangedErrorClientRecordKey` (`serverRecordChanged`).
public let CKRecordChangedErrorClientRecordKey: String = "ClientRecord"
/// `CKErrorUserDidResetEncryptedDataKey` (`zoneNotFound`).
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public let CKErrorUserDidResetEncryptedDataKey: String = "CKErrorUserDidResetEncryptedDataKey"
/// `CKErrorRetryAfterKey`: an NSNumber of seconds.
public let CKErrorRetryAfterKey: String = "CKRetryAfter"

// MARK: - Record values (CKRecord.h, overlay)

/// The Objective-C protocol `CKRecordValue` (apinotes: `__CKRecordObjCValue`).
public protocol __CKRecordObjCValue: NSObjectProtocol {}
/// Overlay: `public typealias CKRecordValue = __CKRecordObjCValue`.
public typealias CKRecordValue = __CKRecordObjCValue

extension NSString: __CKRecordObjCValue {}
extension NSNumber: __CKRecordObjCValue {}
extension NSArray: __CKRecordObjCValue {}
extension NSDate: __CKRecordObjCValue {}
extension NSData: __CKRecordObjCValue {}
// CKRecord.Reference and CKAsset conform below; CLLocation (CoreLocation) does not exist on Linux.

/// Overlay: the Swift value types a record field can hold.
public protocol CKRecordValueProtocol {}
extension String: CKRecordValueProtocol {}
extension Date: CKRecordValueProtocol {}
extension Data: CKRecordValueProtocol {}
extension Bool: CKRecordValueProtocol {}
extension Double: CKRecordValueProtocol {}
extension Int: CKRecordValueProtocol {}
extension UInt: CKRecordValueProtocol {}
extension Int8: CKRecordValueProtocol {}
extension UInt8: CKRecordValueProtocol {}
extension Int16: CKRecordValueProtocol {}
extension UInt16: CKRecordValueProtocol {}
extension Int32: CKRecordValueProtocol {}
extension UInt32: CKRecordValueProtocol {}
extension Int64: CKRecordValueProtocol {}
extension UInt64: CKRecordValueProtocol {}
extension Float: CKRecordValueProtocol {}
extension Array: CKRecordValueProtocol where Element: CKRecordValueProtocol {}
extension NSString: CKRecordValueProtocol {}
extension NSDate: CKRecordValueProtocol {}
extension NSData: CKRecordValueProtocol {}
extension NSNumber: CKRecordValueProtocol {}
extension NSArray: CKRecordValueProtocol {}

/// The Objective-C protocol `CKRecordKeyValueSetting` (CKRecord conforms).
@available(macOS 10.11, iOS 9.0, tvOS 9.0, watchOS 3.0, *)
public protocol CKRecordKeyValueSetting: NSObjectProtocol {
    func object(forKey key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)?
    func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: CKRecord.FieldKey)
    subscript(key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)? { get set }
    func allKeys() -> [CKRecord.FieldKey]
    func changedKeys() -> [CKRecord.FieldKey]
}

@available(macOS 10.11, iOS 9.0, tvOS 9.0, watchOS 3.0, *)
extension CKRecordKeyValueSetting {
    /// Overlay: typed access, e.g. `let title: String? = record["title"]`, `record["n"] = 3`.
    public subscript<T: CKRecordValueProtocol>(key: CKRecord.FieldKey) -> T? {
        get { fatalError() }
        set { fatalError() }
    }
    /// Overlay.
    public subscript(key: CKRecord.FieldKey) -> (any CKRecordValueProtocol)? {
        get { fatalError() }
        set { fatalError() }
    }
}

// MARK: - CKRecord

/// `CKRecord : NSObject <NSSecureCoding, NSCopying>`. Sendable only from macOS 14 / iOS 17.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKRecord: NSObject, NSSecureCoding, NSCopying {
    public typealias RecordType = String
    public typealias FieldKey = String

    /// `- init NS_UNAVAILABLE`.
    @available(*, unavailable)
    public override init() { fatalError() }

    /// NSCoding: used with the archived system fields (`encodeSystemFields(with:)`).
    public required init?(coder: NSCoder) { fatalError() }
    open func encode(with coder: NSCoder) { fatalError() }
    public static var supportsSecureCoding: Bool { fatalError() }
    open func copy(with zone: NSZone? = nil) -> Any { fatalError() }

    /// Overlay (the Objective-C initialiser is Swift-private).
    public convenience init(recordType: CKRecord.RecordType, recordID: CKRecord.ID = CKRecord.ID()) { fatalError() }

    /// Overlay; Objective-C `recordType` is Swift-private.
    public var recordType: CKRecord.RecordType { fatalError() }
    open var recordID: CKRecord.ID { fatalError() }
    open var recordChangeTag: String? { fatalError() }
    open var creationDate: Date? { fatalError() }
    open var modificationDate: Date? { fatalError() }

    /// Overlay.
    public func object(forKey key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)? { fatalError() }
    /// Overlay.
    public func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: CKRecord.FieldKey) { fatalError() }
    /// Overlay.
    public subscript(key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)? {
        get { fatalError() }
        set { fatalError() }
    }
    /// Overlay.
    public func allKeys() -> [CKRecord.FieldKey] { fatalError() }
    /// Overlay.
    public func changedKeys() -> [CKRecord.FieldKey] { fatalError() }

    /// `@property (readonly, copy) id<CKRecordKeyValueSetting> encryptedValues` (Swift:
    /// `@NSCopying var encryptedValues: any CKRecordKeyValueSetting & Sendable { get }`): the
    /// record's encrypted key-value pairs, read and written like the record's own
    /// (`record.encryptedValues["key"] = value`). Not for `CKAsset` or `CKRecord.Reference`.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    open var encryptedValues: any CKRecordKeyValueSetting & Sendable { fatalError() }

    /// `- encodeSystemFieldsWithCoder:`.
    open func encodeSystemFields(with coder: NSCoder) { fatalError() }
}

@available(macOS 10.11, iOS 9.0, tvOS 9.0, watchOS 3.0, *)
extension CKRecord: CKRecordKeyValueSetting {}

/// Overlay: `for (key, value) in record`.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
public struct CKRecordKeyValueIterator: IteratorProtocol {
    public typealias Element = (CKRecord.FieldKey, any CKRecordValueProtocol)
    public mutating func next() -> (CKRecord.FieldKey, any CKRecordValueProtocol)? { fatalError() }
}

@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
extension CKRecord: Sequence {
    public typealias Element = (CKRecord.FieldKey, any CKRecordValueProtocol)
    public typealias Iterator = CKRecordKeyValueIterator
    public func makeIterator() -> CKRecordKeyValueIterator { fatalError() }
}

extension CKRecord {
    /// `CKRecordID` (apinotes: `CKRecord.ID`). NS_SWIFT_SENDABLE.
    @available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
    open class ID: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
        @available(*, unavailable)
        public override init() { fatalError() }
        public required init?(coder: NSCoder) { fatalError() }
        open func encode(with coder: NSCoder) { fatalError() }
        public static var supportsSecureCoding: Bool { fatalError() }
        open func copy(with zone: NSZone? = nil) -> Any { fatalError() }

        /// Overlay.
        public convenience init(recordName: String = UUID().uuidString, zoneID: CKRecordZone.ID = CKRecordZone.ID.default) { fatalError() }

        open var recordName: String { fatalError() }
        open var zoneID: CKRecordZone.ID { fatalError() }
    }

    /// `CKReferenceAction` (apinotes: `CKRecord.ReferenceAction`), NS_ENUM(NSUInteger).
    @available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
    public enum ReferenceAction: UInt, Sendable {
        case none = 0
        case deleteSelf = 1
    }

    /// `CKReference` (apinotes: `CKRecord.Reference`). NS_SWIFT_SENDABLE.
    @available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
    open class Reference: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
        @available(*, unavailable)
        public override init() { fatalError() }
        public required init?(coder: NSCoder) { fatalError() }
        open func encode(with coder: NSCoder) { fatalError() }
        public static var supportsSecureCoding: Bool { fatalError() }
        open func copy(with zone: NSZone? = nil) -> Any { fatalError() }

        public init(recordID: CKRecord.ID, action: CKRecord.ReferenceAction) { fatalError() }
        public convenience init(record: CKRecord, action: CKRecord.ReferenceAction) { fatalError() }

        /// Objective-C `referenceAction` (apinotes: `action`).
        open var action: CKRecord.ReferenceAction { fatalError() }
        open var recordID: CKRecord.ID { fatalError() }
    }
}

extension CKRecord.Reference: __CKRecordObjCValue {}
extension CKRecord.Reference: CKRecordValueProtocol {}

// MARK: - CKAsset

/// `CKAsset : NSObject`. Sendable only from macOS 14 / iOS 17.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKAsset: NSObject {
    @available(*, unavailable)
    public override init() { fatalError() }
    public init(fileURL: URL) { fatalError() }
    /// Nullable in Swift 5 and later (non-null only in Swift 4.2 mode).
    open var fileURL: URL? { fatalError() }
}

extension CKAsset: __CKRecordObjCValue {}
extension CKAsset: CKRecordValueProtocol {}

// MARK: - Zones

/// `CKRecordZone : NSObject <NSSecureCoding, NSCopying>`. Sendable only from macOS 14 / iOS 17.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKRecordZone: NSObject, NSSecureCoding, NSCopying {
    @available(*, unavailable)
    public override init() { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open func encode(with coder: NSCoder) { fatalError() }
    public static var supportsSecureCoding: Bool { fatalError() }
    open func copy(with zone: NSZone? = nil) -> Any { fatalError() }

    /// `+ defaultRecordZone`.
    open class func `default`() -> CKRecordZone { fatalError() }
    public convenience init(zoneName: String) { fatalError() }
    public convenience init(zoneID: CKRecordZone.ID) { fatalError() }
    open var zoneID: CKRecordZone.ID { fatalError() }
}

extension CKRecordZone {
    /// `CKRecordZoneID` (apinotes: `CKRecordZone.ID`). Sendable only from macOS 13.3 / iOS 16.4.
    @available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
    open class ID: NSObject, NSSecureCoding, NSCopying {
        @available(*, unavailable)
        public override init() { fatalError() }
        public required init?(coder: NSCoder) { fatalError() }
        open func encode(with coder: NSCoder) { fatalError() }
        public static var supportsSecureCoding: Bool { fatalError() }
        open func copy(with zone: NSZone? = nil) -> Any { fatalError() }

        /// Overlay (the Objective-C initialiser is Swift-private).
        @available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
        public convenience init(zoneName: String = CKRecordZone.ID.defaultZoneName, ownerName: String = CKCurrentUserDefaultName) { fatalError() }

        open var zoneName: String { fatalError() }
        open var ownerName: String { fatalError() }

        /// Overlay.
        public static var `default`: CKRecordZone.ID { fatalError() }
        /// Overlay.
        public static var defaultZoneName: String { fatalError() }
    }
}

// MARK: - CKServerChangeToken

/// `CKServerChangeToken : NSObject <NSCopying, NSSecureCoding>`. NS_SWIFT_SENDABLE.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKServerChangeToken: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    @available(*, unavailable)
    public override init() { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open func encode(with coder: NSCoder) { fatalError() }
    public static var supportsSecureCoding: Bool { fatalError() }
    open func copy(with zone: NSZone? = nil) -> Any { fatalError() }
}

// MARK: - Operations (only what the save policy's Swift name needs)

/// `CKOperation : NSOperation` (Linux Foundation's `Operation` is already `@unchecked Sendable`).
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKOperation: Operation, @unchecked Sendable {}

/// `CKDatabaseOperation : CKOperation`.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKDatabaseOperation: CKOperation, @unchecked Sendable {}

/// `CKModifyRecordsOperation : CKDatabaseOperation`.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKModifyRecordsOperation: CKDatabaseOperation, @unchecked Sendable {
    /// `CKRecordSavePolicy` (apinotes: `CKModifyRecordsOperation.RecordSavePolicy`), NS_ENUM(NSInteger).
    public enum RecordSavePolicy: Int, Sendable {
        case ifServerRecordUnchanged = 0
        case changedKeys = 1
        case allKeys = 2
    }
}

/// `CKOperationGroup : NSObject <NSSecureCoding>`. Sendable only from macOS 13.3 / iOS 16.4.
@available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
open class CKOperationGroup: NSObject {}

/// `CKSubscription : NSObject <NSSecureCoding, NSCopying>` (abstract). NS_SWIFT_SENDABLE only
/// from macOS 14 / iOS 17.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKSubscription: NSObject {
    /// `- init` is NS_UNAVAILABLE; only subclasses' initializers create subscriptions.
    init(unavailable: Void) { fatalError() }
    /// `CKSubscriptionID` (NSString *).
    public typealias ID = String
    /// `@property (readonly, copy) CKSubscriptionID subscriptionID`.
    open var subscriptionID: CKSubscription.ID { fatalError() }
    /// `@property (nullable, copy) CKNotificationInfo *notificationInfo`.
    open var notificationInfo: CKSubscription.NotificationInfo? {
        get { fatalError() }
        set { fatalError() }
    }

    /// `CKNotificationInfo : NSObject` (NS_SWIFT_NAME(CKSubscription.NotificationInfo)).
    @available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 6.0, *)
    open class NotificationInfo: NSObject {
        public override init() { fatalError() }
        /// `@property (assign) BOOL shouldSendContentAvailable`.
        open var shouldSendContentAvailable: Bool {
            get { fatalError() }
            set { fatalError() }
        }
    }
}

/// `CKRecordZoneSubscription : CKSubscription`.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 6.0, *)
open class CKRecordZoneSubscription: CKSubscription {
    /// `- initWithZoneID:subscriptionID:` (NS_DESIGNATED_INITIALIZER).
    public init(zoneID: CKRecordZone.ID, subscriptionID: CKSubscription.ID) { fatalError() }
    /// `@property (readonly, copy, nonatomic) CKRecordZoneID *zoneID`.
    open var zoneID: CKRecordZone.ID { fatalError() }
}

/// `CKNotification : NSObject`.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKNotification: NSObject {
    @available(*, unavailable)
    public override init() { fatalError() }
    /// `+ notificationFromRemoteNotificationDictionary:` (nullable instancetype).
    public convenience init?(fromRemoteNotificationDictionary notificationDictionary: [AnyHashable: Any]) { fatalError() }
    /// `@property (nullable, readonly, copy) CKSubscriptionID subscriptionID`.
    open var subscriptionID: CKSubscription.ID? { fatalError() }
}

// MARK: - CKContainer, CKDatabase

/// `CKContainer : NSObject`. NS_SWIFT_SENDABLE.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKContainer: NSObject, @unchecked Sendable {
    @available(*, unavailable)
    public override init() { fatalError() }
    /// `+ defaultContainer`.
    open class func `default`() -> CKContainer { fatalError() }
    /// `+ containerWithIdentifier:`.
    public convenience init(identifier containerIdentifier: String) { fatalError() }
    open var containerIdentifier: String? { fatalError() }
    open var privateCloudDatabase: CKDatabase { fatalError() }
    open var publicCloudDatabase: CKDatabase { fatalError() }
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
    open var sharedCloudDatabase: CKDatabase { fatalError() }
}

/// `CKAccountStatus` (NSInteger).
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
public enum CKAccountStatus: Int, @unchecked Sendable {
    case couldNotDetermine = 0
    case available = 1
    case restricted = 2
    case noAccount = 3
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    case temporarilyUnavailable = 4
}

@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
extension CKContainer {
    /// `- accountStatusWithCompletionHandler:`, in its async form.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    public func accountStatus() async throws -> CKAccountStatus { fatalError() }
    /// `- fetchUserRecordIDWithCompletionHandler:`, in its async form.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    public func userRecordID() async throws -> CKRecord.ID { fatalError() }
}

/// `CKDatabase : NSObject`. NS_SWIFT_SENDABLE.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
open class CKDatabase: NSObject, @unchecked Sendable {
    @available(*, unavailable)
    public override init() { fatalError() }

    // Objective-C convenience methods, imported as `async throws` (and, like every imported
    // Objective-C method, with a discardable result).

    /// `- saveRecord:completionHandler:`.
    @discardableResult
    open func save(_ record: CKRecord) async throws -> CKRecord { fatalError() }
    /// `- saveRecordZone:completionHandler:`.
    @discardableResult
    open func save(_ zone: CKRecordZone) async throws -> CKRecordZone { fatalError() }
    /// `- saveSubscription:completionHandler:`.
    @discardableResult
    open func save(_ subscription: CKSubscription) async throws -> CKSubscription { fatalError() }
    /// `- deleteRecordZoneWithID:completionHandler:`, NS_SWIFT_ASYNC_NAME(deleteRecordZone(withID:)).
    @discardableResult
    open func deleteRecordZone(withID zoneID: CKRecordZone.ID) async throws -> CKRecordZone.ID { fatalError() }
}

@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension CKDatabase {
    /// Overlay.
    public enum RecordZoneChange {
        /// Declared `Sendable` in the overlay but with an explicitly unavailable Sendable
        /// conformance in the same interface; treated as not Sendable here.
        public struct Modification {
            public var record: CKRecord { fatalError() }
        }
        public struct Deletion: Sendable {
            public var recordID: CKRecord.ID { fatalError() }
            public var recordType: CKRecord.RecordType { fatalError() }
        }
    }

    /// Overlay (macOS 14, iOS 17): what changed in a database's zones.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public enum DatabaseChange {
        public struct Modification: Sendable {
            public var zoneID: CKRecordZone.ID { fatalError() }
        }
        public struct Deletion: Sendable {
            public var zoneID: CKRecordZone.ID { fatalError() }
            public var reason: CKDatabase.DatabaseChange.Deletion.Reason { fatalError() }
            public enum Reason: Sendable, Hashable {
                case deleted
                case purged
                case encryptedDataReset
            }
        }
    }

    /// Overlay.
    public func records(for ids: [CKRecord.ID], desiredKeys: [CKRecord.FieldKey]? = nil) async throws
        -> [CKRecord.ID: Result<CKRecord, any Error>] { fatalError() }

    /// Overlay.
    public func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
        savePolicy: CKModifyRecordsOperation.RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true
    ) async throws -> (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]) {
        fatalError()
    }

    /// Overlay.
    public func recordZoneChanges(
        inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?,
        desiredKeys: [CKRecord.FieldKey]? = nil, resultsLimit: Int? = nil
    ) async throws -> (modificationResultsByID: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>],
                       deletions: [CKDatabase.RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool) {
        fatalError()
    }
}

// MARK: - CKError

/// The struct Swift imports for `CKErrorCode` (NS_ERROR_ENUM in `CKErrorDomain`), with the
/// members a bridged error struct has, and the overlay's accessors.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
public struct CKError: Error, CustomNSError, Hashable {
    public init(_nsError: NSError) { fatalError() }
    public init(_ code: CKError.Code, userInfo: [String: Any] = [:]) { fatalError() }

    public static var errorDomain: String { fatalError() }
    public var errorCode: Int { fatalError() }
    public var errorUserInfo: [String: Any] { fatalError() }
    public var userInfo: [String: Any] { fatalError() }
    public var code: CKError.Code { fatalError() }

    /// `CKErrorCode`, NS_ENUM(NSInteger).
    public enum Code: Int, Sendable {
        case internalError = 1
        case partialFailure = 2
        case networkUnavailable = 3
        case networkFailure = 4
        case badContainer = 5
        case serviceUnavailable = 6
        case requestRateLimited = 7
        case missingEntitlement = 8
        case notAuthenticated = 9
        case permissionFailure = 10
        case unknownItem = 11
        case invalidArguments = 12
        @available(macOS, introduced: 10.10, deprecated: 10.12, message: "Will not be returned")
        @available(iOS, introduced: 8.0, deprecated: 10.0, message: "Will not be returned")
        @available(tvOS, introduced: 9.0, deprecated: 10.0, message: "Will not be returned")
        @available(watchOS, introduced: 3.0, deprecated: 3.0, message: "Will not be returned")
        case resultsTruncated = 13
        case serverRecordChanged = 14
        case serverRejectedRequest = 15
        case assetFileNotFound = 16
        case assetFileModified = 17
        case incompatibleVersion = 18
        case constraintViolation = 19
        case operationCancelled = 20
        case changeTokenExpired = 21
        case batchRequestFailed = 22
        case zoneBusy = 23
        case badDatabase = 24
        case quotaExceeded = 25
        case zoneNotFound = 26
        case limitExceeded = 27
        case userDeletedZone = 28
        @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
        case tooManyParticipants = 29
        @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
        case alreadyShared = 30
        @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
        case referenceViolation = 31
        @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
        case managedAccountRestricted = 32
        @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
        case participantMayNeedVerification = 33
        @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
        case serverResponseLost = 34
        @available(macOS 10.13, iOS 11.3, tvOS 11.3, watchOS 4.3, *)
        case assetNotAvailable = 35
        @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
        case accountTemporarilyUnavailable = 36

        /// `catch CKError.zoneBusy` (from `_ErrorCodeProtocol` on Apple platforms).
        public static func ~= (match: CKError.Code, error: any Error) -> Bool { fatalError() }
    }

    // The importer's static aliases, for `CKError.zoneBusy` and `catch CKError.zoneBusy`.
    public static var internalError: CKError.Code { fatalError() }
    public static var partialFailure: CKError.Code { fatalError() }
    public static var networkUnavailable: CKError.Code { fatalError() }
    public static var networkFailure: CKError.Code { fatalError() }
    public static var badContainer: CKError.Code { fatalError() }
    public static var serviceUnavailable: CKError.Code { fatalError() }
    public static var requestRateLimited: CKError.Code { fatalError() }
    public static var missingEntitlement: CKError.Code { fatalError() }
    public static var notAuthenticated: CKError.Code { fatalError() }
    public static var permissionFailure: CKError.Code { fatalError() }
    public static var unknownItem: CKError.Code { fatalError() }
    public static var invalidArguments: CKError.Code { fatalError() }
    public static var serverRecordChanged: CKError.Code { fatalError() }
    public static var serverRejectedRequest: CKError.Code { fatalError() }
    public static var assetFileNotFound: CKError.Code { fatalError() }
    public static var assetFileModified: CKError.Code { fatalError() }
    public static var incompatibleVersion: CKError.Code { fatalError() }
    public static var constraintViolation: CKError.Code { fatalError() }
    public static var operationCancelled: CKError.Code { fatalError() }
    public static var changeTokenExpired: CKError.Code { fatalError() }
    public static var batchRequestFailed: CKError.Code { fatalError() }
    public static var zoneBusy: CKError.Code { fatalError() }
    public static var badDatabase: CKError.Code { fatalError() }
    public static var quotaExceeded: CKError.Code { fatalError() }
    public static var zoneNotFound: CKError.Code { fatalError() }
    public static var limitExceeded: CKError.Code { fatalError() }
    public static var userDeletedZone: CKError.Code { fatalError() }
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
    public static var tooManyParticipants: CKError.Code { fatalError() }
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
    public static var alreadyShared: CKError.Code { fatalError() }
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
    public static var referenceViolation: CKError.Code { fatalError() }
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
    public static var managedAccountRestricted: CKError.Code { fatalError() }
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, *)
    public static var participantMayNeedVerification: CKError.Code { fatalError() }
    @available(macOS 10.13, iOS 11.0, tvOS 11.0, watchOS 4.0, *)
    public static var serverResponseLost: CKError.Code { fatalError() }
    @available(macOS 10.13, iOS 11.3, tvOS 11.3, watchOS 4.3, *)
    public static var assetNotAvailable: CKError.Code { fatalError() }
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    public static var accountTemporarilyUnavailable: CKError.Code { fatalError() }
}

/// Overlay: typed access to the error's `userInfo`.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 3.0, *)
extension CKError {
    /// `CKPartialErrorsByItemIDKey`; keys are `CKRecord.ID`s or `CKRecordZone.ID`s.
    public var partialErrorsByItemID: [AnyHashable: any Error]? { fatalError() }
    public var ancestorRecord: CKRecord? { fatalError() }
    public var serverRecord: CKRecord? { fatalError() }
    public var clientRecord: CKRecord? { fatalError() }
    public var retryAfterSeconds: Double? { fatalError() }
}

// MARK: - CKSyncEngine (macOS 14, iOS 17, tvOS 17, watchOS 10; Swift only)

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public final class CKSyncEngine: Sendable {
    public init(_ configuration: CKSyncEngine.Configuration) { fatalError() }
    public let database: CKDatabase
    public let state: CKSyncEngine.State

    public func fetchChanges(_ options: CKSyncEngine.FetchChangesOptions = .init()) async throws { fatalError() }
    public func sendChanges(_ options: CKSyncEngine.SendChangesOptions = .init()) async throws { fatalError() }
    public func cancelOperations() async { fatalError() }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public protocol CKSyncEngineDelegate: AnyObject, Sendable {
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async
    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch?
    func nextFetchChangesOptions(_ context: CKSyncEngine.FetchChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.FetchChangesOptions
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension CKSyncEngineDelegate {
    public func nextFetchChangesOptions(_ context: CKSyncEngine.FetchChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.FetchChangesOptions { fatalError() }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension CKSyncEngine {
    public struct Configuration: Sendable {
        public var database: CKDatabase
        public var stateSerialization: CKSyncEngine.State.Serialization?
        public var delegate: any CKSyncEngineDelegate {
            get { fatalError() }
            set { fatalError() }
        }
        public var automaticallySync: Bool
        public var subscriptionID: CKSubscription.ID?
        public init(database: CKDatabase, stateSerialization: CKSyncEngine.State.Serialization?, delegate: any CKSyncEngineDelegate) { fatalError() }
    }

    public final class State: Sendable {
        public var pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange] { fatalError() }
        public var pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange] { fatalError() }
        public var hasPendingUntrackedChanges: Bool {
            get { fatalError() }
            set { fatalError() }
        }
        public var zoneIDsWithUnfetchedServerChanges: [CKRecordZone.ID] { fatalError() }
        public func add(pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange]) { fatalError() }
        public func remove(pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange]) { fatalError() }
        public func add(pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange]) { fatalError() }
        public func remove(pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange]) { fatalError() }

        public struct Serialization: Codable, Sendable {
            public func encode(to encoder: any Encoder) throws { fatalError() }
            public init(from decoder: any Decoder) throws { fatalError() }
        }
    }

    public enum PendingRecordZoneChange: Sendable, Hashable {
        case saveRecord(CKRecord.ID)
        case deleteRecord(CKRecord.ID)
    }

    public enum PendingDatabaseChange: Sendable, Hashable {
        case saveZone(CKRecordZone)
        case deleteZone(CKRecordZone.ID)
        public static func == (lhs: CKSyncEngine.PendingDatabaseChange, rhs: CKSyncEngine.PendingDatabaseChange) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
    }

    public enum SyncReason: Sendable, Hashable {
        case scheduled
        case manual
    }

    public struct FetchChangesOptions: Sendable {
        public var scope: CKSyncEngine.FetchChangesOptions.Scope {
            get { fatalError() }
            set { fatalError() }
        }
        public var operationGroup: CKOperationGroup {
            get { fatalError() }
            set { fatalError() }
        }
        public var prioritizedZoneIDs: [CKRecordZone.ID]
        public enum Scope: Sendable, Equatable {
            case all
            case allExcluding([CKRecordZone.ID])
            case zoneIDs([CKRecordZone.ID])
            public func contains(_ zoneID: CKRecordZone.ID) -> Bool { fatalError() }
            public static func == (a: Scope, b: Scope) -> Bool { fatalError() }
        }
        public init(scope: CKSyncEngine.FetchChangesOptions.Scope = .all, operationGroup: CKOperationGroup? = nil) { fatalError() }
    }

    public struct FetchChangesContext: Sendable {
        public let reason: CKSyncEngine.SyncReason
        public let options: CKSyncEngine.FetchChangesOptions
    }

    public struct SendChangesOptions: Sendable {
        public var scope: CKSyncEngine.SendChangesOptions.Scope {
            get { fatalError() }
            set { fatalError() }
        }
        public var operationGroup: CKOperationGroup {
            get { fatalError() }
            set { fatalError() }
        }
        public enum Scope: Sendable, Equatable {
            case all
            case allExcluding([CKRecordZone.ID])
            case zoneIDs([CKRecordZone.ID])
            case recordIDs([CKRecord.ID])
            public func contains(_ recordID: CKRecord.ID) -> Bool { fatalError() }
            public func contains(_ pendingChange: CKSyncEngine.PendingRecordZoneChange) -> Bool { fatalError() }
            public static func == (a: Scope, b: Scope) -> Bool { fatalError() }
        }
        public init(scope: CKSyncEngine.SendChangesOptions.Scope = .all, operationGroup: CKOperationGroup? = nil) { fatalError() }
    }

    public struct SendChangesContext: Sendable {
        public let reason: CKSyncEngine.SyncReason
        public let options: CKSyncEngine.SendChangesOptions
    }

    public struct RecordZoneChangeBatch: Sendable {
        public var recordsToSave: [CKRecord]
        public var recordIDsToDelete: [CKRecord.ID]
        public var atomicByZone: Bool
        public init?(pendingChanges: [CKSyncEngine.PendingRecordZoneChange], recordProvider: @Sendable (CKRecord.ID) async -> CKRecord?) async { fatalError() }
        public init(recordsToSave: [CKRecord] = [], recordIDsToDelete: [CKRecord.ID] = [], atomicByZone: Bool = false) { fatalError() }
    }

    public enum Event: Sendable {
        case stateUpdate(CKSyncEngine.Event.StateUpdate)
        case accountChange(CKSyncEngine.Event.AccountChange)
        case fetchedDatabaseChanges(CKSyncEngine.Event.FetchedDatabaseChanges)
        case fetchedRecordZoneChanges(CKSyncEngine.Event.FetchedRecordZoneChanges)
        case sentDatabaseChanges(CKSyncEngine.Event.SentDatabaseChanges)
        case sentRecordZoneChanges(CKSyncEngine.Event.SentRecordZoneChanges)
        case willFetchChanges(CKSyncEngine.Event.WillFetchChanges)
        case willFetchRecordZoneChanges(CKSyncEngine.Event.WillFetchRecordZoneChanges)
        case didFetchRecordZoneChanges(CKSyncEngine.Event.DidFetchRecordZoneChanges)
        case didFetchChanges(CKSyncEngine.Event.DidFetchChanges)
        case willSendChanges(CKSyncEngine.Event.WillSendChanges)
        case didSendChanges(CKSyncEngine.Event.DidSendChanges)
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension CKSyncEngine.Event {
    public struct StateUpdate: Sendable {
        public let stateSerialization: CKSyncEngine.State.Serialization
    }
    public struct AccountChange: Sendable {
        public let changeType: CKSyncEngine.Event.AccountChange.ChangeType
        public enum ChangeType: Sendable {
            case signIn(currentUser: CKRecord.ID)
            case signOut(previousUser: CKRecord.ID)
            case switchAccounts(previousUser: CKRecord.ID, currentUser: CKRecord.ID)
        }
    }
    public struct FetchedDatabaseChanges: Sendable {
        public let modifications: [CKDatabase.DatabaseChange.Modification]
        public let deletions: [CKDatabase.DatabaseChange.Deletion]
    }
    public struct FetchedRecordZoneChanges: Sendable {
        public let modifications: [CKDatabase.RecordZoneChange.Modification]
        public let deletions: [CKDatabase.RecordZoneChange.Deletion]
    }
    public struct SentDatabaseChanges: Sendable {
        public let savedZones: [CKRecordZone]
        public let failedZoneSaves: [CKSyncEngine.Event.SentDatabaseChanges.FailedZoneSave]
        public let deletedZoneIDs: [CKRecordZone.ID]
        public let failedZoneDeletes: [CKRecordZone.ID: CKError]
        public struct FailedZoneSave: Sendable {
            public let zone: CKRecordZone
            public let error: CKError
        }
    }
    public struct SentRecordZoneChanges: Sendable {
        public let savedRecords: [CKRecord]
        public let failedRecordSaves: [CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave]
        public let deletedRecordIDs: [CKRecord.ID]
        public let failedRecordDeletes: [CKRecord.ID: CKError]
        public struct FailedRecordSave: Sendable {
            public let record: CKRecord
            public let error: CKError
        }
    }
    public struct WillFetchChanges: Sendable {}
    public struct WillFetchRecordZoneChanges: Sendable {
        public let zoneID: CKRecordZone.ID
    }
    public struct DidFetchRecordZoneChanges: Sendable {
        public let zoneID: CKRecordZone.ID
        public let error: CKError?
    }
    public struct DidFetchChanges: Sendable {}
    public struct WillSendChanges: Sendable {
        public let context: CKSyncEngine.SendChangesContext
    }
    public struct DidSendChanges: Sendable {
        public let context: CKSyncEngine.SendChangesContext
    }
}
