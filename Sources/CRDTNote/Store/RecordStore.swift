/// Where note records live: CloudKit's private database (or the in-memory simulator, which has
/// its shape) through `CloudKitStyleRecordStore`, or a folder.
///
/// Semantics follow CloudKit's private database with custom zones:
/// - **Optimistic concurrency.** `saveRecords` saves a record only if its `recordChangeTag`
///   equals the server's current tag (or, for a record that does not exist yet, is nil).
///   Otherwise the item fails with `.serverRecordChanged`, carrying the ancestor (the server's
///   version with the client's base tag, when still known), the client's and the server's record.
/// - **Batches are not atomic.** Whole-request failures (network, throttling, zone, limits)
///   are thrown as they are; when only some items fail, `.partialFailure` carries one error per
///   failed record name plus the records that were saved.
/// - **Assets** travel inside the record: each ASSET field's `AssetReference` holds its bytes.
///   On save a store stores them and gives the field a reference it controls (an ASSET field
///   without bytes must match the server's current asset); on fetch every ASSET field has its bytes.
/// - **Change feed.** `fetchChanges` returns records changed and deleted since a token, oldest
///   first, in pages of at most `limit` records.
public protocol RecordStore: Sendable {
    /// Creates `zone`; creating an existing zone succeeds and changes nothing.
    func createZone(_ zone: RecordZoneID) async throws(RecordStoreError)

    /// Deletes `zone` and every record in it. Change tokens of the zone expire.
    func deleteZone(_ zone: RecordZoneID) async throws(RecordStoreError)

    /// Fetches the current versions of the named records; names that do not exist are absent
    /// from the result.
    func fetchRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) -> [String: CloudRecord]

    /// Saves records with change-tag checks; returns the saved versions (new change tags,
    /// store-controlled asset references) in request order.
    func saveRecords(_ records: [CloudRecord], in zone: RecordZoneID) async throws(RecordStoreError) -> [CloudRecord]

    /// Deletes the named records unconditionally; deleting a missing record succeeds.
    func deleteRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError)

    /// Changes in `zone` since `token` (nil: from the beginning), at most `limit` records per page.
    func fetchChanges(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) async throws(RecordStoreError) -> RecordChanges
}

/// A store that can notify devices of changes: `CloudKitStyleRecordStore`, over CloudKit (a
/// `CKRecordZoneSubscription` with silent pushes) or the in-memory database.
public protocol RecordZoneSubscribing: RecordStore {
    /// Saves (creates or replaces) the subscription `subscriptionID` for changes to any record
    /// of `zone`, delivered as silent notifications. Fails with `.zoneNotFound` when the zone
    /// does not exist; a zone's subscriptions are deleted with it.
    func saveZoneSubscription(_ subscriptionID: String, for zone: RecordZoneID) async throws(RecordStoreError)
}

extension RecordStore {
    /// Saves one record. A failure of the record itself is thrown as that item's error
    /// (e.g. `.serverRecordChanged`), not wrapped in `.partialFailure`.
    public func save(_ record: CloudRecord, in zone: RecordZoneID) async throws(RecordStoreError) -> CloudRecord {
        let saved: [CloudRecord]
        do {
            saved = try await saveRecords([record], in: zone)
        } catch {
            throw error.itemError(for: record.recordName) ?? error
        }
        guard let first = saved.first else {
            throw RecordStoreError(.unknownItem, recordName: record.recordName, "the store returned no saved record")
        }
        return first
    }

    /// Fetches one record; nil when it does not exist.
    public func fetchRecord(named name: String, in zone: RecordZoneID) async throws(RecordStoreError) -> CloudRecord? {
        try await fetchRecords(named: [name], in: zone)[name]
    }

    /// Every change since `token`, following `moreComing` until the feed is drained.
    /// A record changed and then deleted appears only as deleted.
    public func fetchAllChanges(in zone: RecordZoneID, since token: ChangeToken?, pageLimit: Int = 400) async throws(RecordStoreError) -> RecordChanges {
        var changed: [String: CloudRecord] = [:]
        var order: [String] = []
        var deleted: [String] = []
        var recordErrors: [String: RecordStoreError] = [:]
        var current = token
        while true {
            let page = try await fetchChanges(in: zone, since: current, limit: pageLimit)
            for stored in page.changed {
                if changed.updateValue(stored, forKey: stored.recordName) == nil { order.append(stored.recordName) }
                deleted.removeAll { $0 == stored.recordName }
            }
            recordErrors.merge(page.recordErrors) { _, new in new }
            for name in page.deletedRecordNames {
                if changed.removeValue(forKey: name) != nil { order.removeAll { $0 == name } }
                if !deleted.contains(name) { deleted.append(name) }
            }
            current = page.token
            if !page.moreComing {
                return RecordChanges(changed: order.compactMap { changed[$0] }, deletedRecordNames: deleted, token: page.token, moreComing: false,
                                     recordErrors: recordErrors)
            }
        }
    }
}
