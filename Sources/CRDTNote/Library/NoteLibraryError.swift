/// Why a note library operation failed. Nothing was changed on disk when this is thrown, except
/// where a code says otherwise.
///
/// ```swift
/// do {
///     let library = try NoteLibrary(folder: folder, replica: replica)
/// } catch where error.code == .busy {
///     // another process holds the library; try again shortly
/// }
/// ```
public struct NoteLibraryError: CRDTNoteError {
    /// The class of problem; new kinds can be added without breaking callers.
    public typealias Code = CRDTNoteErrorCode<NoteLibraryError>

    /// The class of problem.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// The file involved, when there is one.
    public var path: String?
    /// The note involved, when there is one.
    public var note: String?
    /// For ``Code/editRefused``: the edit's own error.
    public var textError: NoteTextError?
    /// For ``Code/editRefused``: the merge's own error.
    public var changeError: ChangeSetError?

    /// An error of `code` about the file at `path` or the note `note`.
    package init(_ code: Code, _ message: String, path: String? = nil, note: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.note = note
    }

    /// "note 'name'", "file 'path'", or both; nil when the error names neither.
    public var subject: String? {
        let names = [note.map { "note '\($0)'" }, path.map { "file '\($0)'" }].compactMap { $0 }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }
}

extension CRDTNoteErrorCode<NoteLibraryError> {
    /// Another process held the library's lock for longer than the configured wait.
    public static var busy: Self { Self(rawValue: "busy") }
    /// The library was written by a newer crdtnote; it is left alone, never read or changed.
    public static var newerFormat: Self { Self(rawValue: "newerFormat") }
    /// A file of the library is damaged (``NoteLibraryError/path`` names it,
    /// ``NoteLibraryError/note`` the note when it is one note's data). Other notes stay usable.
    public static var corrupt: Self { Self(rawValue: "corrupt") }
    /// The file system refused an operation (``NoteLibraryError/path``, and the system's
    /// reason in the message).
    public static var storage: Self { Self(rawValue: "storage") }
    /// The folder holds no library (``NoteLibrary/create(folder:replica:options:)`` makes one).
    public static var notALibrary: Self { Self(rawValue: "notALibrary") }
    /// The folder already holds a library or other files.
    public static var alreadyExists: Self { Self(rawValue: "alreadyExists") }
    /// No note has this name.
    public static var noSuchNote: Self { Self(rawValue: "noSuchNote") }
    /// The name cannot name a note (empty, too long, or not valid as a CloudKit record name).
    public static var invalidName: Self { Self(rawValue: "invalidName") }
    /// An edit or merge of the note was refused (``NoteLibraryError/textError`` or
    /// ``NoteLibraryError/changeError`` says why); the note is unchanged.
    public static var editRefused: Self { Self(rawValue: "editRefused") }
    /// The library was closed.
    public static var closed: Self { Self(rawValue: "closed") }
}
