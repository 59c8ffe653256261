/// What a note library lists about one note, read without loading the note.
public struct NoteSummary: Hashable, Sendable {
    /// The note's name (its CloudKit record name).
    public var name: String
    /// The title the app set (``NoteLibrary/setTitle(_:of:)``), else the first non-blank line
    /// of the text, trimmed, at most 100 characters (of the text's first 4 KB); "" when none.
    public var title: String
    /// When the note was created here or first received, in milliseconds since 1970.
    public var created: Int64
    /// The time of its latest change, in milliseconds since 1970 (its clock's physical part).
    public var modified: Int64
    /// True while the note has changes no server has confirmed.
    public var unsaved: Bool
    /// The app's fields (``NoteLibrary/setField(_:to:of:)``): a folder, pinned, tags.
    public var fields: [String: NoteFieldValue] = [:]
}

/// One change a note library saw, from this process or, once it reads the journal again,
/// from another process sharing the folder.
public enum NoteLibraryChange: Hashable, Sendable {
    /// A note was created.
    case created(String)
    /// A note's text or title changed.
    case changed(String)
    /// A note was deleted.
    case deleted(String)
    /// Another process compacted the library; lists should be read again.
    case reloaded
}
