import CRDTNoteSupport

/// The asset rules shared by the stores: bytes in `assets` become `.asset` fields, and every
/// ASSET field must have bytes (sent now, or kept from the server's current version).
package enum AssetBinding {
    /// The record with asset fields bound to `assets`, or an item error.
    package static func bind(_ stored: StoredRecord, current: StoredRecord?) -> Result<StoredRecord, RecordStoreError> {
        var out = stored
        for (field, bytes) in stored.assets {
            let checksum = AssetChecksum.fnv1a64Hex(bytes)
            var extra = JSONObject()
            if case .asset(let old)? = stored.record[field: field] { extra = old.extra }
            out.record[field: field] = .asset(AssetReference(fileChecksum: checksum, size: Int64(bytes.count), extra: extra))
        }
        for (field, value) in stored.record.fields where out.assets[field] == nil {
            guard case .asset(let ref) = value.value else { continue }
            if let current, case .asset(let serverRef)? = current.record[field: field],
               serverRef.fileChecksum == ref.fileChecksum, let bytes = current.assets[field] {
                out.assets[field] = bytes
                out.record[field: field] = .asset(serverRef)
            } else {
                return .failure(RecordStoreError(.invalidArguments, recordName: stored.recordName,
                    "ASSET field '\(field)' of record '\(stored.recordName)' has no bytes and matches no asset on the server"))
            }
        }
        return .success(out)
    }
}
