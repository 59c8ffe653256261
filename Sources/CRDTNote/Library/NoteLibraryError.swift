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
public struct NoteLibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of problem; new kinds can be added without breaking callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// Another process held the library's lock for longer than the configured wait.
        public static let busy = Code(rawValue: "busy")
        /// The library was written by a newer crdtnote; it is left alone, never read or changed.
        public static let newerFormat = Code(rawValue: "newerFormat")
        /// A file of the library is damaged (``path`` names it, ``note`` the note when it is one
        /// note's data). Other notes stay usable.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The file system refused an operation (``path`` and the system's reason in the message).
        public static let storage = Code(rawValue: "storage")
        /// The folder holds no library (``NoteLibrary/create(folder:replica:options:)`` makes one).
        public static let notALibrary = Code(rawValue: "notALibrary")
        /// The folder already holds a library or other files.
        public static let alreadyExists = Code(rawValue: "alreadyExists")
        /// No note has this name.
        public static let noSuchNote = Code(rawValue: "noSuchNote")
        /// The name cannot name a note (empty, too long, or not valid as a CloudKit record name).
        public static let invalidName = Code(rawValue: "invalidName")
        /// An edit or merge of the note was refused (``textError`` or ``changeError`` says why);
        /// the note is unchanged.
        public static let editRefused = Code(rawValue: "editRefused")
        /// The library was closed.
        public static let closed = Code(rawValue: "closed")
    }

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

    package init(_ code: Code, _ message: String, path: String? = nil, note: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.note = note
    }

    /// "<code>: <message>".
    public var description: String { "\(code.rawValue): \(message)" }
}
