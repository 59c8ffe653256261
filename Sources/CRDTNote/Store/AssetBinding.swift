/// The asset rules shared by the stores: every ASSET field must have bytes, sent now (they get
/// a fresh store-controlled reference) or kept from the server's current version (same checksum).
package enum AssetBinding {
    /// Why a record's assets cannot be bound: an ASSET field without bytes that matches no asset
    /// on the server. A `RecordStore` reports it as `.invalidArguments` (``bind(_:current:)``).
    package struct Refusal: Error, Hashable, Sendable {
        /// The field and record, for people.
        package var message: String
    }

    /// The record with its asset fields bound, or why it cannot be.
    package static func bound(_ record: CloudRecord, current: CloudRecord?) -> Result<CloudRecord, Refusal> {
        var out = record
        for (field, value) in record.fields {
            guard case .asset(let ref) = value.value else { continue }
            if let bytes = ref.bytes {
                out[field: field] = .asset(.new(bytes, extra: ref.extra))
            } else if let current, case .asset(let serverRef)? = current[field: field],
                      serverRef.fileChecksum == ref.fileChecksum, serverRef.bytes != nil {
                out[field: field] = .asset(serverRef)
            } else {
                return .failure(Refusal(message:
                    "ASSET field '\(field)' of record '\(record.recordName)' has no bytes and matches no asset on the server"))
            }
        }
        return .success(out)
    }

    /// The record with its asset fields bound, or a `RecordStore`'s item error.
    package static func bind(_ record: CloudRecord, current: CloudRecord?) -> Result<CloudRecord, RecordStoreError> {
        bound(record, current: current).mapError { RecordStoreError(.invalidArguments, recordName: record.recordName, $0.message) }
    }
}
