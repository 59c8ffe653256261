/// Why a note's history could not answer (``NoteText/text(at:)``, ``NoteText/versions(pause:)``,
/// ``NoteText/blame(utf16Range:)``) or a restore was refused (``NoteText/restore(to:)``). The
/// note is unchanged.
public struct NoteHistoryError: CRDTNoteError {
    /// The class of problem.
    public typealias Code = CRDTNoteErrorCode<NoteHistoryError>

    /// The class of problem.
    public var code: Code
    /// What is wrong.
    public var message: String
    /// For ``Code/corruptHistory``: what is wrong with the history payload and at which byte.
    public var decodingError: BinaryDecodingError?
    /// For ``Code/editRefused``: why the note refused the restoring edit.
    public var textError: NoteTextError?

    /// Creates an error.
    package init(_ code: Code, _ message: String, decodingError: BinaryDecodingError? = nil, textError: NoteTextError? = nil) {
        self.code = code
        self.message = message
        self.decodingError = decodingError
        self.textError = textError
    }
}

extension CRDTNoteErrorCode<NoteHistoryError> {
    /// The time is before what the kept history covers: before its oldest kept deletion
    /// when the note holds deletions the history has no time for (older than the retention
    /// window, made before history was kept, or by a copy that keeps none), or before the
    /// note's latest edit when compaction dropped deleted text (Docs/FORMAT.md §11.4).
    public static var notCovered: Self { Self(rawValue: "notCovered") }
    /// A history payload the note carries (from a record's `history` field) is corrupt;
    /// ``NoteHistoryError/decodingError`` says what and where.
    public static var corruptHistory: Self { Self(rawValue: "corruptHistory") }
    /// A history payload the note carries needs a newer crdtnote to read.
    public static var newerFormat: Self { Self(rawValue: "newerFormat") }
    /// The note's own snapshot is corrupt (found when its index was first built).
    public static var corruptSnapshot: Self { Self(rawValue: "corruptSnapshot") }
    /// A UTF-16 range beyond the text it names (the current text for blame, the past text for
    /// a passage restore).
    public static var invalidRange: Self { Self(rawValue: "invalidRange") }
    /// The restoring edit was refused (``NoteHistoryError/textError`` says why, e.g. the note
    /// would pass its limits); nothing changed.
    public static var editRefused: Self { Self(rawValue: "editRefused") }
}
