/// The shape of `CKDatabase`'s async API in portable types: per-item `Result`s, request-level
/// `CloudKitFailure`s. The Apple-only `CKDatabaseAdapter` is one conformance; CRDTNoteTesting's
/// `InMemoryCloudDatabase` is the other, so tests and simulations run `CloudKitStyleRecordStore`,
/// the code the adapter runs.
public protocol CloudKitStyleDatabase: Sendable {
    /// `CKDatabase.save(_: CKRecordZone)`.
    func saveZone(_ zone: RecordZoneID) async throws(CloudKitFailure)
    /// `CKDatabase.deleteRecordZone(withID:)`.
    func deleteZone(_ zone: RecordZoneID) async throws(CloudKitFailure)
    /// `CKDatabase.records(for:desiredKeys:)`.
    func records(named names: [String], in zone: RecordZoneID) async throws(CloudKitFailure) -> [String: Result<CloudRecord, CloudKitFailure>]
    /// `CKDatabase.modifyRecords(saving:deleting:savePolicy: .ifServerRecordUnchanged, atomically: false)`.
    func modifyRecords(saving: [CloudRecord], deleting: [String], in zone: RecordZoneID) async throws(CloudKitFailure)
        -> (saveResults: [String: Result<CloudRecord, CloudKitFailure>], deleteResults: [String: Result<Void, CloudKitFailure>])
    /// Saves a subscription (`subscriptionID`) to changes of `zone`, with silent notifications
    /// (`CKDatabase.save(_: CKSubscription)` with a `CKRecordZoneSubscription`). Every database
    /// implements it, as an `async` method; one without subscriptions throws `.invalidArguments`
    /// from its own implementation, and the sync engine then polls.
    func saveZoneSubscription(_ subscriptionID: String, for zone: RecordZoneID) async throws(CloudKitFailure)
    /// `CKDatabase.recordZoneChanges(inZoneWith:since:desiredKeys:resultsLimit:)`.
    func recordZoneChanges(in zone: RecordZoneID, since token: ChangeToken?, resultsLimit: Int) async throws(CloudKitFailure)
        -> (modifications: [String: Result<CloudRecord, CloudKitFailure>], deletions: [String], changeToken: ChangeToken, moreComing: Bool)
}

/// A `RecordStore` over any CloudKit-shaped database. All decisions of the CloudKit adapter
/// live here, in portable code: which per-item results become a partial failure, that a
/// missing record on fetch is absence rather than an error, how errors map.
public struct CloudKitStyleRecordStore<Database: CloudKitStyleDatabase>: RecordStore {
    /// The database.
    public let database: Database

    /// A store over `database`.
    public init(database: Database) { self.database = database }

    /// Creates the zone.
    public func createZone(_ zone: RecordZoneID) async throws(RecordStoreError) {
        do { try await database.saveZone(zone) } catch { throw RecordStoreError(cloudKit: error) }
    }

    /// Deletes the zone.
    public func deleteZone(_ zone: RecordZoneID) async throws(RecordStoreError) {
        do { try await database.deleteZone(zone) } catch { throw RecordStoreError(cloudKit: error) }
    }

    /// Fetches records; `unknownItem` per item means "absent".
    public func fetchRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) -> [String: CloudRecord] {
        let results: [String: Result<CloudRecord, CloudKitFailure>]
        do { results = try await database.records(named: names, in: zone) } catch { throw RecordStoreError(cloudKit: error) }
        var found: [String: CloudRecord] = [:]
        var failures: [String: RecordStoreError] = [:]
        for (name, result) in results {
            switch result {
            case .success(let stored): found[name] = stored
            case .failure(let failure) where failure.code == .unknownItem: continue
            case .failure(let failure): failures[name] = RecordStoreError(cloudKit: failure, recordName: name)
            }
        }
        if !failures.isEmpty { throw RecordStoreError.partialFailure(failures) }
        return found
    }

    /// Saves records non-atomically; failed items become one `.partialFailure` (or, for a
    /// whole-request CloudKit partial failure, the per-item errors it carries).
    public func saveRecords(_ records: [CloudRecord], in zone: RecordZoneID) async throws(RecordStoreError) -> [CloudRecord] {
        let results: [String: Result<CloudRecord, CloudKitFailure>]
        do {
            results = try await database.modifyRecords(saving: records, deleting: [], in: zone).saveResults
        } catch {
            throw RecordStoreError(cloudKit: error)
        }
        var saved: [CloudRecord] = []
        var failures: [String: RecordStoreError] = [:]
        for stored in records {
            switch results[stored.recordName] {
            case .success(let version)?: saved.append(version)
            case .failure(let failure)?: failures[stored.recordName] = RecordStoreError(cloudKit: failure, recordName: stored.recordName)
            case nil:
                failures[stored.recordName] = RecordStoreError(.serviceUnavailable, recordName: stored.recordName, "CloudKit returned no result for the record")
            }
        }
        if !failures.isEmpty { throw RecordStoreError.partialFailure(failures, saved: saved) }
        return saved
    }

    /// Deletes records; a record already gone (`unknownItem`) counts as deleted.
    public func deleteRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) {
        let results: [String: Result<Void, CloudKitFailure>]
        do {
            results = try await database.modifyRecords(saving: [], deleting: names, in: zone).deleteResults
        } catch {
            throw RecordStoreError(cloudKit: error)
        }
        var failures: [String: RecordStoreError] = [:]
        for (name, result) in results {
            if case .failure(let failure) = result, failure.code != .unknownItem {
                failures[name] = RecordStoreError(cloudKit: failure, recordName: name)
            }
        }
        if !failures.isEmpty { throw RecordStoreError.partialFailure(failures) }
    }

    /// A page of zone changes. Records CloudKit could not return are in `recordErrors` (the
    /// engine reads the page again for transient ones and passes permanent ones over, so one
    /// bad record cannot block the feed).
    public func fetchChanges(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) async throws(RecordStoreError) -> RecordChanges {
        let page: (modifications: [String: Result<CloudRecord, CloudKitFailure>], deletions: [String], changeToken: ChangeToken, moreComing: Bool)
        do {
            page = try await database.recordZoneChanges(in: zone, since: token, resultsLimit: limit)
        } catch {
            throw RecordStoreError(cloudKit: error)
        }
        var changed: [CloudRecord] = []
        var failures: [String: RecordStoreError] = [:]
        for (name, result) in page.modifications {
            switch result {
            case .success(let stored): changed.append(stored)
            case .failure(let failure): failures[name] = RecordStoreError(cloudKit: failure, recordName: name)
            }
        }
        changed.sort { $0.recordName < $1.recordName }
        return RecordChanges(changed: changed, deletedRecordNames: page.deletions, token: page.changeToken, moreComing: page.moreComing,
                             recordErrors: failures)
    }
}

extension CloudKitStyleRecordStore: RecordZoneSubscribing {
    /// Saves the zone subscription through the database (`CKRecordZoneSubscription` on CloudKit).
    public func saveZoneSubscription(_ subscriptionID: String, for zone: RecordZoneID) async throws(RecordStoreError) {
        do { try await database.saveZoneSubscription(subscriptionID, for: zone) } catch { throw RecordStoreError(cloudKit: error) }
    }
}
