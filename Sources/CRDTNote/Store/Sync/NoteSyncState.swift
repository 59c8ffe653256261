/// One note as a device holds it: its CRDT text, the server record it builds on, and whether
/// it has edits the server has not confirmed yet.
public struct LocalNote: Sendable {
    /// The note's text state.
    public var text: NoteText
    /// The server record the next save builds on (its change tag, app fields); nil: never saved
    /// or must be created again.
    public var base: CloudRecord?
    /// Whether the server lacks some of this note's edits.
    public var hasUnsavedChanges: Bool
    /// Bumped on every local change; a save confirms only the revision it carried.
    var revision: UInt64

    /// A note.
    public init(text: NoteText, base: CloudRecord?, hasUnsavedChanges: Bool) {
        self.text = text
        self.base = base
        self.hasUnsavedChanges = hasUnsavedChanges
        self.revision = 0
    }
}

/// Everything a `NoteSyncEngine` must persist to resume after a restart: the change token,
/// each note's snapshot and base record, unsaved flags and pending deletes.
public struct NoteSyncState: Hashable, Sendable {
    /// A note as persisted.
    public struct SavedNote: Hashable, Sendable {
        /// `NoteText.encodedSnapshot()` of the note.
        public var snapshot: [UInt8]
        /// The base record.
        public var base: CloudRecord?
        /// Whether it has unsaved edits.
        public var hasUnsavedChanges: Bool

        /// A persisted note.
        public init(snapshot: [UInt8], base: CloudRecord?, hasUnsavedChanges: Bool) {
            self.snapshot = snapshot
            self.base = base
            self.hasUnsavedChanges = hasUnsavedChanges
        }
    }

    /// The change-feed position.
    public var token: ChangeToken?
    /// Notes by record name.
    public var notes: [String: SavedNote]
    /// Notes deleted locally whose delete the server has not confirmed: record name -> change
    /// tag of the version deleted ("" when it had none).
    public var pendingDeletes: [String: String]

    /// A state.
    public init(token: ChangeToken? = nil, notes: [String: SavedNote] = [:], pendingDeletes: [String: String] = [:]) {
        self.token = token
        self.notes = notes
        self.pendingDeletes = pendingDeletes
    }
}

/// What one `sync()` call did.
public struct NoteSyncReport: Hashable, Sendable {
    /// Records received.
    public var fetched = 0
    /// Records saved.
    public var saved = 0
    /// Records deleted on the server.
    public var deleted = 0
    /// Conflicts merged.
    public var conflictsMerged = 0
    /// Notes that could not be saved (e.g. too large), left unsaved.
    public var failedNotes: [String] = []

    /// Nothing done.
    public init() {}

    /// Whether the call exchanged nothing with the server.
    public var isQuiet: Bool { fetched == 0 && saved == 0 && deleted == 0 && conflictsMerged == 0 }
}
