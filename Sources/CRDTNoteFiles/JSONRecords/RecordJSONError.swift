import CRDTNoteSupport
import CRDTNote
/// Why a CloudKit record's JSON form could not be read (or an asset not found), and where:
/// `path` is a JSON path such as `records[0].fields.payload.value`.
public struct RecordJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of a record JSON error; new kinds can be added without breaking callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public var rawValue: String
        /// A kind with the given name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// The bytes are not valid JSON (the message carries line:column).
        public static let invalidJSON = Code(rawValue: "invalidJSON")
        /// A required key such as `recordName` or a field's `value` is absent.
        public static let missingKey = Code(rawValue: "missingKey")
        /// A value has the wrong JSON type (a string where an INT64 number belongs).
        public static let wrongType = Code(rawValue: "wrongType")
        /// A value has the right JSON type but cannot be used (out of range, fractional INT64...).
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// A BYTES value is not strict padded base64.
        public static let invalidBase64 = Code(rawValue: "invalidBase64")
        /// The document holds no record dictionary.
        public static let notARecord = Code(rawValue: "notARecord")
        /// One record was expected but the document holds several (or none).
        public static let multipleRecords = Code(rawValue: "multipleRecords")
        /// The record entry is a CloudKit per-record error (`serverErrorCode`), not a record.
        public static let serverError = Code(rawValue: "serverError")
        /// No file was found for an asset.
        public static let assetNotFound = Code(rawValue: "assetNotFound")
        /// An asset file is larger than the configured limit.
        public static let assetTooLarge = Code(rawValue: "assetTooLarge")
        /// An asset file's size or checksum differs from its reference.
        public static let assetMismatch = Code(rawValue: "assetMismatch")
        /// An asset file exists but could not be read or written.
        public static let assetIO = Code(rawValue: "assetIO")
        /// An asset reference leads outside the record's folder and the assets folder (an
        /// absolute path, `..`, a `file://` URL or a symbolic link pointing elsewhere). Refused
        /// before the target is looked at: the error is the same whether it exists or not.
        public static let assetOutsideFolder = Code(rawValue: "assetOutsideFolder")
        /// An asset reference names a directory, FIFO, device or socket, not a regular file.
        public static let assetNotRegularFile = Code(rawValue: "assetNotRegularFile")
    }

    /// The category.
    public var code: Code
    /// JSON path of the offending value; empty for the document itself.
    public var path: String
    /// What is wrong, for people.
    public var message: String

    /// An error of `code` at `path`.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// "kind at path: message".
    public var description: String {
        path.isEmpty ? "\(code): \(message)" : "\(code) at \(path): \(message)"
    }
}

/// JSON path building for error messages.
enum JSONPath {
    static func member(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    static func element(_ path: String, _ index: Int) -> String {
        "\(path)[\(index)]"
    }
}
