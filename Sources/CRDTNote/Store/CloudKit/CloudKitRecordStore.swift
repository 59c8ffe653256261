// The CloudKit adapter: a thin mapping between CloudKit's types and the portable ones.
// Every decision (what a result means, how errors map, retries, merges) lives in portable code
// (`CloudKitStyleRecordStore`, `RecordStoreError(cloudKit:)`, `NoteSyncEngine`), which the Linux
// tests exercise through `InMemoryCloudDatabase`, a `CloudKitStyleDatabase` too. Only type
// conversion happens here.
// No `@available` in these files: every CloudKit API they use exists at the package's minimum
// platforms (Package.swift: macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1). Anything newer
// (CKSyncEngine: macOS 14, iOS 17) must say so. `.ci/typecheck-cloudkit` cannot check this.
#if canImport(CloudKit)
import CloudKit
import Foundation

/// A `RecordStore` backed by a CloudKit database (normally `container.privateCloudDatabase`).
///
/// ```swift
/// let store = CloudKitRecordStore(database: CKContainer.default().privateCloudDatabase)
/// ```
public typealias CloudKitRecordStore = CloudKitStyleRecordStore<CKDatabaseAdapter>

extension CloudKitStyleRecordStore where Database == CKDatabaseAdapter {
    /// A store over `database`; asset bytes are staged as files in `assetDirectory`.
    public init(database: CKDatabase, assetDirectory: URL = FileManager.default.temporaryDirectory) {
        self.init(database: CKDatabaseAdapter(database: database, assetDirectory: assetDirectory))
    }
}

/// `CKDatabase` seen as a `CloudKitStyleDatabase`. Sendable: `CKDatabase` is (NS_SWIFT_SENDABLE)
/// and the other properties are immutable values.
public struct CKDatabaseAdapter: CloudKitStyleDatabase, Sendable {
    /// The CloudKit database.
    public let database: CKDatabase
    /// Where asset bytes are written before upload (files are removed after the request).
    public let assetDirectory: URL

    /// An adapter over `database`.
    public init(database: CKDatabase, assetDirectory: URL) {
        self.database = database
        self.assetDirectory = assetDirectory
    }

    /// Creates the zone.
    public func saveZone(_ zone: RecordZoneID) async throws(CloudKitFailure) {
        do {
            _ = try await database.save(CKRecordZone(zoneID: CloudKitRecordMapping.zoneID(zone)))
        } catch {
            throw CloudKitRecordMapping.failure(error)
        }
    }

    /// Saves a `CKRecordZoneSubscription` on the zone whose notifications are silent
    /// (`shouldSendContentAvailable`): the app is woken in the background to fetch.
    public func saveZoneSubscription(_ subscriptionID: String, for zone: RecordZoneID) async throws(CloudKitFailure) {
        let subscription = CKRecordZoneSubscription(zoneID: CloudKitRecordMapping.zoneID(zone), subscriptionID: subscriptionID)
        let info = CKSubscription.NotificationInfo()
        info.shouldSendContentAvailable = true
        subscription.notificationInfo = info
        do {
            _ = try await database.save(subscription)
        } catch {
            throw CloudKitRecordMapping.failure(error)
        }
    }

    /// Deletes the zone.
    public func deleteZone(_ zone: RecordZoneID) async throws(CloudKitFailure) {
        do {
            _ = try await database.deleteRecordZone(withID: CloudKitRecordMapping.zoneID(zone))
        } catch {
            throw CloudKitRecordMapping.failure(error)
        }
    }

    /// Fetches records by name.
    public func records(named names: [String], in zone: RecordZoneID) async throws(CloudKitFailure) -> [String: Result<CloudRecord, CloudKitFailure>] {
        let zoneID = CloudKitRecordMapping.zoneID(zone)
        do {
            let results = try await database.records(for: names.map { CKRecord.ID(recordName: $0, zoneID: zoneID) }, desiredKeys: nil)
            var out: [String: Result<CloudRecord, CloudKitFailure>] = [:]
            for (id, result) in results {
                out[id.recordName] = result.map(CloudKitRecordMapping.cloudRecord).mapError(CloudKitRecordMapping.failure)
            }
            return out
        } catch {
            throw CloudKitRecordMapping.failure(error)
        }
    }

    /// Saves and deletes, non-atomically, only if the server records are unchanged.
    public func modifyRecords(saving: [CloudRecord], deleting: [String], in zone: RecordZoneID) async throws(CloudKitFailure)
        -> (saveResults: [String: Result<CloudRecord, CloudKitFailure>], deleteResults: [String: Result<Void, CloudKitFailure>]) {
        let zoneID = CloudKitRecordMapping.zoneID(zone)
        var staged: [URL] = []
        defer { for url in staged { try? FileManager.default.removeItem(at: url) } }
        var ckRecords: [CKRecord] = []
        for stored in saving {
            ckRecords.append(try CloudKitRecordMapping.ckRecord(from: stored, zoneID: zoneID, assetDirectory: assetDirectory, staged: &staged))
        }
        do {
            let result = try await database.modifyRecords(
                saving: ckRecords, deleting: deleting.map { CKRecord.ID(recordName: $0, zoneID: zoneID) },
                savePolicy: .ifServerRecordUnchanged, atomically: false)
            var saves: [String: Result<CloudRecord, CloudKitFailure>] = [:]
            for (id, outcome) in result.saveResults {
                saves[id.recordName] = outcome.map(CloudKitRecordMapping.cloudRecord).mapError(CloudKitRecordMapping.failure)
            }
            var deletes: [String: Result<Void, CloudKitFailure>] = [:]
            for (id, outcome) in result.deleteResults { deletes[id.recordName] = outcome.mapError(CloudKitRecordMapping.failure) }
            return (saves, deletes)
        } catch {
            throw CloudKitRecordMapping.failure(error)
        }
    }

    /// A page of zone changes; the `CKServerChangeToken` travels archived in `ChangeToken.bytes`.
    public func recordZoneChanges(in zone: RecordZoneID, since token: ChangeToken?, resultsLimit: Int) async throws(CloudKitFailure)
        -> (modifications: [String: Result<CloudRecord, CloudKitFailure>], deletions: [String], changeToken: ChangeToken, moreComing: Bool) {
        var serverToken: CKServerChangeToken?
        if let token {
            guard let decoded = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CKServerChangeToken.self, from: Data(token.bytes)) else {
                // Damaged, or not ours: the same as expired (the engine reads the feed from the start).
                throw CloudKitFailure(.changeTokenExpired, "the change token is not an archived CKServerChangeToken")
            }
            serverToken = decoded
        }
        do {
            let page = try await database.recordZoneChanges(
                inZoneWith: CloudKitRecordMapping.zoneID(zone), since: serverToken, desiredKeys: nil, resultsLimit: resultsLimit)
            var modifications: [String: Result<CloudRecord, CloudKitFailure>] = [:]
            for (id, outcome) in page.modificationResultsByID {
                modifications[id.recordName] = outcome.map { CloudKitRecordMapping.cloudRecord($0.record) }.mapError(CloudKitRecordMapping.failure)
            }
            let archived = try NSKeyedArchiver.archivedData(withRootObject: page.changeToken, requiringSecureCoding: true)
            return (modifications, page.deletions.map { $0.recordID.recordName }, ChangeToken(bytes: [UInt8](archived)), page.moreComing)
        } catch {
            throw CloudKitRecordMapping.failure(error)
        }
    }
}
#endif
