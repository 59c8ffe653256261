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

    /// The whole-request error for `records`, if the request is over a limit.
    package func requestError(records: [CloudRecord]) -> RecordStoreError? {
        if records.count > maxRecordsPerRequest {
            return RecordStoreError(.limitExceeded,
                "request has \(records.count) records, over the limit of \(maxRecordsPerRequest)")
        }
        var total = 0
        for stored in records { total += Self.size(of: stored) }
        if total > maxRequestBytes {
            return RecordStoreError(.limitExceeded,
                "request has \(total) bytes of record data, over the limit of \(maxRequestBytes)")
        }
        return nil
    }

    /// The item error for `record`, if it alone is too large.
    package func recordError(_ record: CloudRecord) -> RecordStoreError? {
        let size = Self.size(of: record)
        guard size > maxRecordBytes else { return nil }
        return RecordStoreError(.limitExceeded, recordName: record.recordName,
            "record '\(record.recordName)' has \(size) bytes without assets, over the limit of \(maxRecordBytes)")
    }

    /// Whole-request error for a delete of `count` records.
    package func deleteError(count: Int) -> RecordStoreError? {
        count > maxRecordsPerRequest
            ? RecordStoreError(.limitExceeded, "request deletes \(count) records, over the limit of \(maxRecordsPerRequest)")
            : nil
    }
}
