/// Request limits a store enforces, CloudKit's by default.
public struct RecordStoreLimits: Hashable, Sendable {
    /// Most records in one save or delete request (CloudKit: 400).
    public var maxRecordsPerRequest: Int
    /// Most bytes of record data in one request, assets excluded (CloudKit: 2 MB).
    public var maxRequestBytes: Int
    /// Most bytes of one record, assets excluded (CloudKit: 1 MB).
    public var maxRecordBytes: Int

    /// Limits; the defaults are CloudKit's.
    public init(maxRecordsPerRequest: Int = 400, maxRequestBytes: Int = 2_000_000, maxRecordBytes: Int = 1_000_000) {
        self.maxRecordsPerRequest = maxRecordsPerRequest
        self.maxRequestBytes = maxRequestBytes
        self.maxRecordBytes = maxRecordBytes
    }

    /// CloudKit's limits.
    public static let cloudKit = RecordStoreLimits()

    /// The size a record counts for (``CloudRecord/size``), assets excluded.
    static func size(of record: CloudRecord) -> Int { record.size }

    /// Why a request saving `records` is over a limit (nil: it is not). Limits are neutral: a
    /// `RecordStore` reports a violation as `.limitExceeded` (``requestError(records:)`` and its
    /// siblings), a CloudKit-shaped server as CloudKit's `limitExceeded`.
    package func requestViolation(records: [CloudRecord]) -> String? {
        if records.count > maxRecordsPerRequest {
            return "request has \(records.count) records, over the limit of \(maxRecordsPerRequest)"
        }
        var total = 0
        for stored in records { total += Self.size(of: stored) }
        if total > maxRequestBytes {
            return "request has \(total) bytes of record data, over the limit of \(maxRequestBytes)"
        }
        return nil
    }

    /// Why `record` alone is too large (nil: it is not).
    package func recordViolation(_ record: CloudRecord) -> String? {
        let size = Self.size(of: record)
        guard size > maxRecordBytes else { return nil }
        return "record '\(record.recordName)' has \(size) bytes without assets, over the limit of \(maxRecordBytes)"
    }

    /// Why a request deleting `count` records is over the limit (nil: it is not).
    package func deleteViolation(count: Int) -> String? {
        count > maxRecordsPerRequest ? "request deletes \(count) records, over the limit of \(maxRecordsPerRequest)" : nil
    }

    /// The whole-request error for `records`, if the request is over a limit.
    package func requestError(records: [CloudRecord]) -> RecordStoreError? {
        requestViolation(records: records).map { RecordStoreError(.limitExceeded, $0) }
    }

    /// The item error for `record`, if it alone is too large.
    package func recordError(_ record: CloudRecord) -> RecordStoreError? {
        recordViolation(record).map { RecordStoreError(.limitExceeded, recordName: record.recordName, $0) }
    }

    /// Whole-request error for a delete of `count` records.
    package func deleteError(count: Int) -> RecordStoreError? {
        deleteViolation(count: count).map { RecordStoreError(.limitExceeded, $0) }
    }
}
