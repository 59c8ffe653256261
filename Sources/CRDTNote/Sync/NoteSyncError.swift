/// Why a sync step stopped. Local notes and unsaved edits are kept in every case; calling
/// `sync()` again later resumes.
public struct NoteSyncError: CRDTNoteError {
    /// The category of a sync error.
    public typealias Code = CRDTNoteErrorCode<NoteSyncError>

    /// The category.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// The note concerned, if one.
    public var noteName: String?
    /// The store error behind it, if any.
    public var storeError: RecordStoreError?
    /// The note library's error behind it, if any.
    public var libraryError: NoteLibraryError?

    /// A sync error.
    package init(_ code: Code, noteName: String? = nil, storeError: RecordStoreError? = nil, _ message: String) {
        self.code = code
        self.message = message
        self.noteName = noteName
        self.storeError = storeError
    }

    /// A sync error for a failure of the note library.
    init(library error: NoteLibraryError) {
        self.init(.persistFailed, noteName: error.note, "the note library failed: \(error)")
        libraryError = error
    }

    /// `error` as a sync error: itself when it is one, a library failure, or else a record of
    /// note `note` that could not be read.
    init(mixed error: any Error, note: String) {
        switch error {
        case let error as NoteSyncError: self = error
        case let error as NoteLibraryError: self.init(library: error)
        default: self.init(.recordUnreadable, noteName: note, "\(error)")
        }
    }

    /// "note 'name'"; nil when the error is about no one note.
    public var subject: String? { noteName.map { "note '\($0)'" } }
}

extension CRDTNoteErrorCode<NoteSyncError> {
    /// The store kept failing (network, throttling, conflicts) for `maxAttempts` tries.
    public static var attemptsExhausted: Self { Self(rawValue: "attemptsExhausted") }
    /// A note's record is over the store's per-record limit even alone.
    public static var recordTooLarge: Self { Self(rawValue: "recordTooLarge") }
    /// The zone was deleted and waits for the app's consent to be created again
    /// (`UserDeletedZonePolicy.waitForConsent`); nothing is sent until then.
    public static var zoneDeletedByUser: Self { Self(rawValue: "zoneDeletedByUser") }
    /// The account signed out (``NoteSyncCore/accountChanged(to:localNotes:)`` with nil):
    /// nothing syncs until an account signs in.
    public static var signedOut: Self { Self(rawValue: "signedOut") }
    /// A record could not be read or merged (corrupt payload, newer schema version, or a
    /// state that contradicts the local one).
    public static var recordUnreadable: Self { Self(rawValue: "recordUnreadable") }
    /// A record was written by a newer crdtnote; it is left alone (never downgraded) and the
    /// note is not synced until this library is updated.
    public static var newerVersionAvailable: Self { Self(rawValue: "newerVersionAvailable") }
    /// The store failed in a way retrying does not fix (quota, invalid arguments, I/O).
    public static var storeFailure: Self { Self(rawValue: "storeFailure") }
    /// Merging the note would take it beyond ``NoteLimits`` (a record no reader accepts): the
    /// local note and the server record are both left as they were.
    public static var limitExceeded: Self { Self(rawValue: "limitExceeded") }
    /// A record's asset file was not downloaded, and fetching the record again did not
    /// bring it; the note is left as it was and tried again on a later change.
    public static var assetUnavailable: Self { Self(rawValue: "assetUnavailable") }
    /// The task running the sync was cancelled; everything unsaved stays pending.
    public static var cancelled: Self { Self(rawValue: "cancelled") }
    /// A local edit was refused: out of bounds, or the note would exceed its size limits.
    public static var invalidEdit: Self { Self(rawValue: "invalidEdit") }
    /// The note library could not be read or written (``NoteSyncError/libraryError`` says
    /// why: busy, storage, damage); nothing it had not made durable was sent.
    public static var persistFailed: Self { Self(rawValue: "persistFailed") }
    /// The note does not exist locally.
    public static var unknownNote: Self { Self(rawValue: "unknownNote") }
}
