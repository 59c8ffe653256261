// Public CKRecord / CKError conversions for apps that drive CloudKit themselves.
#if canImport(CloudKit)
import CloudKit
import Foundation

/// Public conversions for apps that drive CloudKit themselves (e.g. with `CKSyncEngine`).
extension CloudRecord {
    /// A record as CloudKit returned it: mapped fields, asset bytes, and the archived system
    /// fields that carry its change tag.
    public init(_ ckRecord: CKRecord) {
        self = CloudKitRecordMapping.cloudRecord(ckRecord)
    }

    /// The `CKRecord` to save: rebuilt from the archived system fields when present (so the
    /// save is checked against the change tag this record was based on), with every mapped
    /// field set. Asset bytes are written as files in `assetDirectory`; remove `stagedFiles`
    /// once CloudKit has finished with the record.
    public func makeCKRecord(zoneID: CKRecordZone.ID, assetDirectory: URL) throws(CloudKitFailure) -> (record: CKRecord, stagedFiles: [URL]) {
        var staged: [URL] = []
        let record = try CloudKitRecordMapping.ckRecord(from: self, zoneID: zoneID, assetDirectory: assetDirectory, staged: &staged)
        return (record, staged)
    }
}

extension RecordStoreError {
    /// The store error for an error CloudKit reported (about `recordName`, for item errors):
    /// `serverRecordChanged` with its three records, `partialFailure` per item, retry delays.
    public init(cloudKitError error: any Error, recordName: String? = nil) {
        self.init(cloudKit: CloudKitRecordMapping.failure(error), recordName: recordName)
    }
}
#endif
