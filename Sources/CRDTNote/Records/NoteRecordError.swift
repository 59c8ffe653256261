/// Why a note record could not be read, written or merged, and where (`field` names the
/// record field, e.g. `payload`). Nothing is written or changed when this is thrown.
public struct NoteRecordError: CRDTNoteError {
    /// The category of a note record error; new kinds can be added without breaking callers.
    public typealias Code = CRDTNoteErrorCode<NoteRecordError>

    /// The versions involved when a record or payload is newer than this library.
    public struct NewerVersion: Hashable, Sendable {
        /// The record's `version` field, if it is the newer part.
        public var recordVersion: Int64?
        /// The newest record version this library reads.
        public var supportedRecordVersion: Int64
        /// The payload's minimum reader version, if the payload is the newer part.
        public var payloadRequiredReader: UInt16?
        /// The payload reader version of this library.
        public var supportedReader: UInt16
    }

    /// The category.
    public var code: Code
    /// The record the error is about, if known.
    public var recordName: String?
    /// The field the error is about (e.g. `payloadAsset`), or empty for the whole record.
    public var field: String
    /// What is wrong, for people.
    public var message: String
    /// For `.newerVersion`: the versions found and supported.
    public var newerVersion: NewerVersion?

    /// An error of `code` about `field` of record `recordName`.
    package init(_ code: Code, recordName: String? = nil, field: String = "", _ message: String, newerVersion: NewerVersion? = nil) {
        self.code = code
        self.recordName = recordName
        self.field = field
        self.message = message
        self.newerVersion = newerVersion
    }

    /// "record 'name' field 'f'", "record 'name'" or "field 'f'"; nil when neither is known.
    public var subject: String? {
        let place = [recordName.map { "record '\($0)'" }, field.isEmpty ? nil : "field '\(field)'"].compactMap { $0 }
        return place.isEmpty ? nil : place.joined(separator: " ")
    }
}

extension CRDTNoteErrorCode<NoteRecordError> {
    /// The record or its payload was written by a newer crdtnote: "newer version available".
    /// `newerVersion` carries the versions. The record must be left alone.
    public static var newerVersion: Self { Self(rawValue: "newerVersion") }
    /// A note field has the wrong type or an impossible value (e.g. `version` 0).
    public static var invalidField: Self { Self(rawValue: "invalidField") }
    /// The payload bytes are not a valid snapshot (the message has the byte offset).
    public static var corruptPayload: Self { Self(rawValue: "corruptPayload") }
    /// The text (STRING mirror or ASSET) is not valid UTF-8.
    public static var invalidText: Self { Self(rawValue: "invalidText") }
    /// An ASSET field's bytes were not supplied or could not be read.
    public static var assetUnavailable: Self { Self(rawValue: "assetUnavailable") }
    /// Records given to one merge are not versions of the same note (different record names).
    public static var mismatchedRecords: Self { Self(rawValue: "mismatchedRecords") }
    /// A record is marked deleted; there is no note to merge.
    public static var deletedRecord: Self { Self(rawValue: "deletedRecord") }
    /// A merge was asked for with no records.
    public static var noRecords: Self { Self(rawValue: "noRecords") }
    /// Two payloads contradict each other (e.g. one replica id used for different text).
    public static var inconsistentStates: Self { Self(rawValue: "inconsistentStates") }
    /// The note or a field is beyond ``NoteLimits``: a record read would be refused, and a
    /// write or merge whose result would be refused changes nothing (the message says which
    /// limit and by how much).
    public static var limitExceeded: Self { Self(rawValue: "limitExceeded") }
}
