/// Why a local edit was refused. The text is unchanged when this is thrown.
public struct NoteTextError: CRDTNoteError {
    /// The class of problem.
    public typealias Code = CRDTNoteErrorCode<NoteTextError>

    /// The class of problem.
    public var code: Code
    /// What is wrong, with the offending offsets.
    public var message: String
    /// For ``Code/corruptSnapshot``: what is wrong with the snapshot and at which byte.
    public var decodingError: BinaryDecodingError?

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A ``Code/corruptSnapshot`` error for the decoder's `error`.
    package init(corruptSnapshot error: BinaryDecodingError) {
        self.init(.corruptSnapshot, "the note's snapshot is corrupt: \(error)")
        decodingError = error
    }
}

extension CRDTNoteErrorCode<NoteTextError> {
    /// An offset or range lies outside the text.
    public static var outOfBounds: Self { Self(rawValue: "outOfBounds") }
    /// A UTF-16 offset falls between the two halves of a surrogate pair.
    public static var insideSurrogatePair: Self { Self(rawValue: "insideSurrogatePair") }
    /// The edit would grow the note past its limits: more elements (characters ever inserted,
    /// deleted ones included) than ``NoteLimits/maximumElements`` allows, 2^26 by default (a
    /// note loaded with ``NoteText/init(snapshot:replica:clock:limits:)`` uses the limits it was
    /// loaded with; ``NoteText/checkLimits(_:)`` checks the other limits); or, with limits set
    /// above the defaults, 2^32 bytes of text storage or 2^32 characters inserted by one replica.
    public static var tooLarge: Self { Self(rawValue: "tooLarge") }
    /// The note was loaded from a snapshot whose header, checksum, text and clock table are
    /// sound but whose runs are not (found when the index was first built, on this edit or
    /// merge); ``NoteTextError/decodingError`` says what and at which byte. Nothing was
    /// changed; every later edit or merge of the note fails the same way (reload it from
    /// another copy).
    public static var corruptSnapshot: Self { Self(rawValue: "corruptSnapshot") }
    /// Inserted bytes are not valid UTF-8 (only the package's own byte-level entry point takes bytes).
    package static var invalidUTF8: Self { Self(rawValue: "invalidUTF8") }
}
