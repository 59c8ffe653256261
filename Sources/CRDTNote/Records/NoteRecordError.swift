/// Why a note record could not be read, written or merged, and where (`field` names the
/// record field, e.g. `payload`). Nothing is written or changed when this is thrown.
public struct NoteRecordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of a note record error; new kinds can be added without breaking callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public var rawValue: String
        /// A kind with the given name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// The record or its payload was written by a newer crdtnote: "newer version available".
        /// `newerVersion` carries the versions. The record must be left alone.
        public static let newerVersion = Code(rawValue: "newerVersion")
        /// A note field has the wrong type or an impossible value (e.g. `version` 0).
        public static let invalidField = Code(rawValue: "invalidField")
        /// The payload bytes are not a valid snapshot (the message has the byte offset).
        public static let corruptPayload = Code(rawValue: "corruptPayload")
        /// The text (STRING mirror or ASSET) is not valid UTF-8.
        public static let invalidText = Code(rawValue: "invalidText")
        /// An ASSET field's bytes were not supplied or could not be read.
        public static let assetUnavailable = Code(rawValue: "assetUnavailable")
        /// Records given to one merge are not versions of the same note (different record names).
        public static let mismatchedRecords = Code(rawValue: "mismatchedRecords")
        /// A record is marked deleted; there is no note to merge.
        public static let deletedRecord = Code(rawValue: "deletedRecord")
        /// A merge was asked for with no records.
        public static let noRecords = Code(rawValue: "noRecords")
        /// Two payloads contradict each other (e.g. one replica id used for different text).
        public static let inconsistentStates = Code(rawValue: "inconsistentStates")
        /// The note or a field is beyond ``NoteLimits``: a record read would be refused, and a
        /// write or merge whose result would be refused changes nothing (the message says which
        /// limit and by how much).
        public static let limitExceeded = Code(rawValue: "limitExceeded")
    }

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
    public init(_ code: Code, recordName: String? = nil, field: String = "", _ message: String, newerVersion: NewerVersion? = nil) {
        self.code = code
        self.recordName = recordName
        self.field = field
        self.message = message
        self.newerVersion = newerVersion
    }

    /// "code in record 'name' field 'f': message".
    public var description: String {
        var place = ""
        if let recordName { place += " in record '\(recordName)'" }
        if !field.isEmpty { place += " field '\(field)'" }
        return "\(code)\(place): \(message)"
    }
}
