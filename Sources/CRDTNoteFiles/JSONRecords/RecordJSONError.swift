import CRDTNoteSupport
import CRDTNote
/// Why a CloudKit record's JSON form could not be read (or an asset not found), and where:
/// `path` is a JSON path such as `records[0].fields.payload.value`.
public struct RecordJSONError: CRDTNoteError {
    /// The category of a record JSON error; new kinds can be added without breaking callers.
    public typealias Code = CRDTNoteErrorCode<RecordJSONError>

    /// The category.
    public var code: Code
    /// JSON path of the offending value; empty for the document itself.
    public var path: String
    /// What is wrong, for people.
    public var message: String

    /// An error of `code` at `path`.
    package init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The JSON path; nil for the document itself.
    public var subject: String? { path.isEmpty ? nil : path }
}

extension CRDTNoteErrorCode<RecordJSONError> {
    /// The bytes are not valid JSON (the message carries line:column).
    public static var invalidJSON: Self { Self(rawValue: "invalidJSON") }
    /// A required key such as `recordName` or a field's `value` is absent.
    public static var missingKey: Self { Self(rawValue: "missingKey") }
    /// A value has the wrong JSON type (a string where an INT64 number belongs).
    public static var wrongType: Self { Self(rawValue: "wrongType") }
    /// A value has the right JSON type but cannot be used (out of range, fractional INT64...).
    public static var invalidValue: Self { Self(rawValue: "invalidValue") }
    /// A BYTES value is not strict padded base64.
    public static var invalidBase64: Self { Self(rawValue: "invalidBase64") }
    /// The document holds no record dictionary.
    public static var notARecord: Self { Self(rawValue: "notARecord") }
    /// One record was expected but the document holds several (or none).
    public static var multipleRecords: Self { Self(rawValue: "multipleRecords") }
    /// The record entry is a CloudKit per-record error (`serverErrorCode`), not a record.
    public static var serverError: Self { Self(rawValue: "serverError") }
    /// No file was found for an asset.
    public static var assetNotFound: Self { Self(rawValue: "assetNotFound") }
    /// An asset file is larger than the configured limit.
    public static var assetTooLarge: Self { Self(rawValue: "assetTooLarge") }
    /// An asset file's size or checksum differs from its reference.
    public static var assetMismatch: Self { Self(rawValue: "assetMismatch") }
    /// An asset file exists but could not be read or written.
    public static var assetIO: Self { Self(rawValue: "assetIO") }
    /// An asset reference leads outside the record's folder and the assets folder (an
    /// absolute path, `..`, a `file://` URL or a symbolic link pointing elsewhere). Refused
    /// before the target is looked at: the error is the same whether it exists or not.
    public static var assetOutsideFolder: Self { Self(rawValue: "assetOutsideFolder") }
    /// An asset reference names a directory, FIFO, device or socket, not a regular file.
    public static var assetNotRegularFile: Self { Self(rawValue: "assetNotRegularFile") }
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
