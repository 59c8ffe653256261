/// A typed view of a CloudKit note record (record type `Note`, schema in ``NoteSchema``).
///
/// The underlying ``CloudRecord`` keeps everything: fields this library does not know, unknown
/// keys, system fields, and the bytes of ASSET fields. Reading never changes the record; writing
/// only touches the note fields (`version`, `text`, `modified`, `payload`, `encryptedPayload`,
/// `payloadAsset`, `mirroredBytes`), each in its one type (`text`'s is the container's:
/// ``NoteTextMirror``), in one of two layouts (``NoteRecordLayout``).
///
/// ```swift
/// let stored = try NoteRecord(record, loadingAssetsFrom: storage)   // or NoteRecord(fetched)
/// var note = try stored.read(as: myReplica).note
/// try note.setText(editedText)
/// let updated = try stored.writing(note, mirror: .asset)  // version 2, payload, mirror, modified
/// let saved = try updated.savingAssets(to: storage)       // large payloads and text assets
/// ```
public struct NoteRecord: Hashable, Sendable {
    /// The CloudKit record, all fields and keys (and held asset bytes) included.
    public var record: CloudRecord

    /// Wraps a record. ASSET note fields need their bytes (``AssetReference/bytes``), as records
    /// fetched from a ``RecordStore`` have; for others see ``init(_:loadingAssetsFrom:)``.
    public init(_ record: CloudRecord) {
        self.record = record
    }

    /// A new, empty note record (no fields yet; ``write(_:limits:mirror:)`` fills them).
    public init(recordName: String, zoneID: RecordZoneID? = nil) {
        var record = CloudRecord(recordName: recordName, recordType: NoteSchema.recordType)
        record.zoneID = zoneID
        self.init(record)
    }

    /// The record's name.
    public var recordName: String { record.recordName }

    /// The schema version: the `version` field, or when it is absent, 3 if the record has an
    /// `encryptedPayload`, 2 if it has another payload field and 1 otherwise. Throws
    /// `.invalidField` for a non-INT64 or non-positive value.
    public func schemaVersion() throws(NoteRecordError) -> Int64 {
        switch record[field: NoteSchema.Field.version] {
        case nil:
            if record[field: NoteSchema.Field.encryptedPayload] != nil { return NoteSchema.encryptedVersion }
            return hasPayload ? NoteSchema.currentVersion : NoteSchema.legacyVersion
        case .int64(let v)?:
            guard v >= 1 else {
                throw error(.invalidField, NoteSchema.Field.version, "schema version \(v) is not a valid version (1 or more)")
            }
            return v
        case let other?:
            throw error(.invalidField, NoteSchema.Field.version, "expected INT64, found \(other.defaultTypeName)")
        }
    }

    /// The `modified` field (ms since 1970), if it is a TIMESTAMP (or INT64).
    public var modifiedMilliseconds: Int64? {
        switch record[field: NoteSchema.Field.modified] {
        case .timestamp(let ms)?, .int64(let ms)?: return ms
        default: return nil
        }
    }

    /// Whether the record has a `payload`, `encryptedPayload` or `payloadAsset` field.
    package var hasPayload: Bool {
        Self.payloadFields.contains { record[field: $0] != nil }
    }

    /// The fields that can hold a snapshot, inline ones first.
    static let payloadFields = [NoteSchema.Field.payload, NoteSchema.Field.encryptedPayload, NoteSchema.Field.payloadAsset]

    /// The layout the record is in: encrypted for schema version 3 (a `version` of 3, or no
    /// `version` and an `encryptedPayload`), else plain.
    public var layout: NoteRecordLayout {
        switch record[field: NoteSchema.Field.version] {
        case .int64(NoteSchema.encryptedVersion)?: return .encrypted
        case nil: return record[field: NoteSchema.Field.encryptedPayload] != nil ? .encrypted : .plain
        default: return .plain
        }
    }

    /// The version gate: throws `.newerVersion` when the record's `version` is newer than
    /// `supported` (this library's newest by default; lower where a device plays an older
    /// release). (A payload needing a newer reader is found when it is read.)
    package func checkVersion(supported: Int64 = NoteSchema.newestVersion) throws(NoteRecordError) {
        let version = try schemaVersion()
        if version > supported {
            throw NoteRecordError(
                .newerVersion, recordName: recordName, field: NoteSchema.Field.version,
                "newer version available: the record has schema version \(version), this crdtnote reads up to \(supported)",
                newerVersion: .init(recordVersion: version, supportedRecordVersion: supported,
                                    payloadRequiredReader: nil, supportedReader: NoteFormat.readerVersion))
        }
    }

    /// Throws `.newerVersion` for a payload that needs a newer reader than `supportedReader`,
    /// reading only its header. Without `requireAssetBytes`, a `payloadAsset` whose bytes are
    /// missing is skipped.
    func checkPayloadVersions(requireAssetBytes: Bool, supportedReader: UInt16 = NoteFormat.readerVersion) throws(NoteRecordError) {
        if requireAssetBytes, case .asset? = record[field: NoteSchema.Field.payloadAsset],
           record.assetBytes(NoteSchema.Field.payloadAsset) == nil {
            throw error(.assetUnavailable, NoteSchema.Field.payloadAsset,
                        "the existing payload asset's bytes were not supplied, so its version cannot be checked before overwriting it")
        }
        for (field, required) in payloadReaderVersions() where required > supportedReader {
            throw NoteRecordError(
                .newerVersion, recordName: recordName, field: field,
                "newer version available: the payload needs reader version \(required), this crdtnote reads up to \(supportedReader); leaving it alone",
                newerVersion: .init(recordVersion: nil, supportedRecordVersion: NoteSchema.newestVersion,
                                    payloadRequiredReader: required, supportedReader: supportedReader))
        }
    }

    /// The minimum reader version each payload field at hand declares in its header (an asset
    /// without its bytes, or bytes without a header, are left out).
    func payloadReaderVersions() -> [(field: String, required: UInt16)] {
        var out: [(field: String, required: UInt16)] = []
        for field in [NoteSchema.Field.payload, NoteSchema.Field.encryptedPayload] {
            if case .bytes(let bytes)? = record[field: field], let required = PayloadHeader.requiredReaderVersion(of: bytes) {
                out.append((field, required))
            }
        }
        if let bytes = record.assetBytes(NoteSchema.Field.payloadAsset), let required = PayloadHeader.requiredReaderVersion(of: bytes) {
            out.append((NoteSchema.Field.payloadAsset, required))
        }
        return out
    }

    /// The newest minimum reader version among the record's payloads: the snapshot format it was
    /// written in (nil: no payload at hand, e.g. a legacy plain-text record).
    package var payloadReaderVersion: UInt16? {
        payloadReaderVersions().map(\.required).max()
    }

    /// Refuses (`.newerVersion`) a record a reader of payload version `readerVersion` and schema
    /// version `recordVersion` cannot read: the schema gate, then each payload's header. What a
    /// device announcing what it reads applies before reading or merging a record.
    package func checkReadable(by readerVersion: UInt16, recordVersion: Int64 = NoteSchema.newestVersion) throws(NoteRecordError) {
        try checkVersion(supported: recordVersion)
        try checkPayloadVersions(requireAssetBytes: false, supportedReader: readerVersion)
    }

    /// An error about `field` of this record.
    package func error(_ kind: NoteRecordError.Code, _ field: String, _ message: String) -> NoteRecordError {
        NoteRecordError(kind, recordName: recordName, field: field, message)
    }
}
