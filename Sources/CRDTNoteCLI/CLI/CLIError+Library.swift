import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// Turns the library's typed errors into CLI errors, so every failure gets its exit status,
/// file and location in one place.
extension CLIError {
    /// A problem reading a record's JSON (or finding its asset files) in `file`.
    ///
    /// An asset file that is missing or unreadable is a missing input (66); every other problem,
    /// an asset whose size or checksum is wrong included, is bad data (65).
    static func recordJSON(_ error: RecordJSONError, file: String) -> CLIError {
        let code: Code
        let what: String
        switch error.code {
        case .assetNotFound: (code, what) = (.noInput, "missing asset file")
        case .assetIO: (code, what) = (.noInput, "unreadable asset file")
        case .assetMismatch: (code, what) = (.dataError, "asset file does not match the record")
        case .assetTooLarge: (code, what) = (.dataError, "asset file too large")
        case .assetOutsideFolder: (code, what) = (.dataError, "asset outside the record's folder")
        case .assetNotRegularFile: (code, what) = (.dataError, "asset is not a regular file")
        case .invalidJSON: (code, what) = (.dataError, "invalid JSON")
        case .invalidBase64: (code, what) = (.dataError, "invalid base64")
        case .serverError: (code, what) = (.dataError, "not a record")
        default: (code, what) = (.dataError, "invalid record")
        }
        return CLIError(code: code, message: "\(what): \(error.message)", file: file,
                        location: error.path.isEmpty ? nil : error.path)
    }

    /// A problem reading, writing or merging a note record from `file` (nil when it is not
    /// known which input is at fault).
    static func noteRecord(_ error: NoteRecordError, file: String?) -> CLIError {
        let location = error.field.isEmpty ? nil : "fields.\(error.field).value"
        switch error.code {
        case .newerVersion:
            return CLIError(code: .newerFormat, message: "\(error.message); update crdtnote to read it",
                            file: file, location: location)
        case .mismatchedRecords, .deletedRecord, .noRecords:
            return CLIError(code: .operationFailed, message: "merge refused: \(error.message)", file: file,
                            location: location)
        default:
            let what: String
            switch error.code {
            case .invalidField: what = "invalid field"
            case .corruptPayload: what = "corrupt payload"
            case .invalidText: what = "invalid text"
            case .assetUnavailable: what = "asset unavailable"
            case .inconsistentStates: what = "inconsistent note states"
            case .limitExceeded: what = "limit exceeded"
            default: what = error.code.rawValue
            }
            return CLIError(code: .dataError, message: "\(what): \(error.message)", file: file, location: location)
        }
    }

    /// A note library call on `folder` that failed: busy and newer formats are temporary (75),
    /// a missing library is a missing input (66), damaged files bad data (65), file-system
    /// failures unwritable output (73), a missing note or refused edit a failed operation (1).
    static func library(_ error: NoteLibraryError, folder: String) -> CLIError {
        let file = error.path ?? folder
        switch error.code {
        case .busy: return CLIError(code: .busy, message: error.message, file: file)
        case .newerFormat: return CLIError(code: .newerFormat, message: error.message, file: file)
        case .notALibrary: return CLIError(code: .noInput, message: error.message, file: file)
        case .corrupt: return CLIError(code: .dataError, message: error.message, file: file)
        case .storage, .alreadyExists: return CLIError(code: .cannotWrite, message: error.message, file: file)
        case .invalidName: return CLIError(code: .usage, message: error.message, file: file, helpCommand: "library")
        default: return CLIError(code: .operationFailed, message: error.message, file: file)
        }
    }

    /// A payload in `file` (at `location`, e.g. `fields.payload.value`) that cannot be read:
    /// a newer format is a temporary failure (75: update crdtnote), damaged bytes are bad data (65).
    static func payload(_ error: PayloadError, file: String, location: String?) -> CLIError {
        if error.code == .newerFormat {
            return CLIError(code: .newerFormat, message: "newer version available: \(error.message)", file: file,
                            location: location)
        }
        let detail = error.decodingError.map { "\($0)" } ?? error.message
        return CLIError(code: .dataError, message: "corrupt payload: \(detail)", file: file, location: location)
    }

    /// An editing trace in `file` that cannot be read or replayed. The trace's own message
    /// already says where (transaction, patch or byte position).
    static func trace(_ error: TraceError, file: String) -> CLIError {
        CLIError(code: .dataError, message: error.message, file: file)
    }
}
