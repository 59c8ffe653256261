/// What apps persisted before the note library: every note's snapshot and base record, the
/// change token, unsaved flags and pending deletes, as JSON. Read it once and bring it into a
/// library with ``NoteLibrary/importNotes(from:)``; nothing writes it any more. `version`
/// lets a newer crdtnote change the layout: decoding a state of a newer version fails instead
/// of guessing.
public struct NoteSyncState: Hashable, Sendable {
    /// The layout version this crdtnote writes and the newest it reads.
    public static let currentVersion = 1

    /// A note as persisted.
    public struct SavedNote: Hashable, Sendable {
        /// `NoteText.encodedSnapshot()` of the note.
        public var snapshot: [UInt8]
        /// The base record (with its asset bytes).
        public var base: CloudRecord?
        /// Whether it has unsaved edits.
        public var hasUnsavedChanges: Bool

        /// A persisted note.
        package init(snapshot: [UInt8], base: CloudRecord?, hasUnsavedChanges: Bool) {
            self.snapshot = snapshot
            self.base = base
            self.hasUnsavedChanges = hasUnsavedChanges
        }
    }

    /// A note deleted on this device whose delete the server has not confirmed.
    public struct PendingDelete: Hashable, Sendable {
        /// The change tag of the version deleted; nil when that version had none.
        public var changeTag: String?

        /// A pending delete of the version with `changeTag`.
        package init(changeTag: String?) { self.changeTag = changeTag }
    }

    /// The layout version of this state (``currentVersion`` for states made by this crdtnote).
    public var version: Int
    /// The change-feed position.
    public var token: ChangeToken?
    /// Notes by record name.
    public var notes: [String: SavedNote]
    /// Notes deleted locally whose delete the server has not confirmed, by record name.
    public var pendingDeletes: [String: PendingDelete]
    /// The change-notification subscription saved on the server for the notes zone (see
    /// `NoteSyncConfiguration.subscriptionID`); nil: none yet, or the zone was recreated since.
    /// Optional in the Codable form: states written before it decode with nil.
    public var subscriptionID: String?

    /// A state.
    package init(token: ChangeToken? = nil, notes: [String: SavedNote] = [:], pendingDeletes: [String: PendingDelete] = [:]) {
        self.version = Self.currentVersion
        self.token = token
        self.notes = notes
        self.pendingDeletes = pendingDeletes
    }
}

/// What changed, visibly, in one note because of other devices (or the server), relative to
/// this device's copy before. Apps update open editors from it instead of reloading every note.
public enum NoteSyncChange: Hashable, Sendable {
    /// A note this device did not have (new, or brought back).
    case added
    /// The note's text is different now.
    case textChanged
    /// The note was removed (deleted elsewhere).
    case removed
}

/// What one `sync()` call (or, for ``NoteSyncCore``, the events since `takeReport()`) did.
public struct NoteSyncReport: Hashable, Sendable {
    /// Records received.
    public var fetched = 0
    /// Records saved.
    public var saved = 0
    /// Records deleted on the server.
    public var deleted = 0
    /// Conflicts merged.
    public var conflictsMerged = 0
    /// The visible change of each note that changed, by note name.
    public var changes: [String: NoteSyncChange] = [:]
    /// Notes that could not be read, merged or saved, and why. Their local data and their
    /// server record are left as they were; the rest of the sync went on.
    public var failures: [String: NoteSyncError] = [:]
    /// Failures not about one note that stopped a step (`.stop` decisions: quota full, the
    /// library cannot be written), in order.
    public var errors: [NoteSyncError] = []
    /// Pending deletes dropped because an edit made on another device after the version
    /// deleted here brought the note back: a transport with its own queue removes them from it.
    public var droppedDeletes: Set<String> = []

    /// Nothing done.
    package init() {}

    /// Names of the notes that changed visibly, sorted.
    public var changedNotes: [String] { changes.keys.sorted() }

    /// Names of the notes in ``failures``, sorted.
    public var failedNotes: [String] { failures.keys.sorted() }

    /// Whether records arrived from the server (what a background fetch reports as new data).
    public var receivedNewData: Bool { fetched > 0 || !changes.isEmpty }

    /// Whether the call exchanged nothing with the server.
    package var isQuiet: Bool { fetched == 0 && saved == 0 && deleted == 0 && conflictsMerged == 0 }

    /// Records that `name` changed visibly: `added` then `textChanged` stays `added`, `added`
    /// then `removed` cancels out.
    mutating func noteChanged(_ name: String, _ change: NoteSyncChange) {
        switch (changes[name], change) {
        case (.added?, .textChanged): break
        case (.added?, .removed): changes[name] = nil
        case (.removed?, .added), (.removed?, .textChanged): changes[name] = .textChanged
        default: changes[name] = change
        }
    }
}
