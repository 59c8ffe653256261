/// The asset rules shared by the stores: every ASSET field must have bytes, sent now (they get
/// a fresh store-controlled reference) or kept from the server's current version (same checksum).
package enum AssetBinding {
    /// The record with its asset fields bound, or an item error.
    package static func bind(_ record: CloudRecord, current: CloudRecord?) -> Result<CloudRecord, RecordStoreError> {
        var out = record
        for (field, value) in record.fields {
            guard case .asset(let ref) = value.value else { continue }
            if let bytes = ref.bytes {
                out[field: field] = .asset(.new(bytes, extra: ref.extra))
            } else if let current, case .asset(let serverRef)? = current[field: field],
                      serverRef.fileChecksum == ref.fileChecksum, serverRef.bytes != nil {
                out[field: field] = .asset(serverRef)
            } else {
                return .failure(RecordStoreError(.invalidArguments, recordName: record.recordName,
                    "ASSET field '\(field)' of record '\(record.recordName)' has no bytes and matches no asset on the server"))
            }
        }
        return .success(out)
    }
}
