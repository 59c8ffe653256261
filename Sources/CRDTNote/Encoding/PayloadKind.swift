/// What a payload holds.
package enum PayloadKind: UInt8, Sendable, Hashable {
    /// The full state of a note.
    case snapshot = 1
    /// The operations a peer lacks (``NoteChanges``).
    case changes = 2
    /// A note's formatting operations (Docs/FORMAT.md §10.7), in a record's `formatting` field.
    case formatting = 3
    /// A note's history: deletions with their stamps and text (Docs/FORMAT.md §11), in a
    /// record's `history` field.
    case history = 4
}
