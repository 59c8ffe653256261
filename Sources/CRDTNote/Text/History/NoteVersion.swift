import Foundation

/// One editing session of one replica (``NoteText/versions(pause:)``): what a "version history"
/// screen lists. A session ends where the replica paused longer than the pause asked for.
public struct NoteVersion: Sendable, Hashable {
    /// The replica that edited.
    public var replica: ReplicaID
    /// Its first edit of the session (insertions to within a second, by the note's clock log;
    /// deletions by the history's stamps).
    public var start: Date
    /// Its last edit of the session.
    public var end: Date
    /// Unicode scalars it inserted in the session (those deleted since included).
    public var inserted: Int
    /// Unicode scalars it deleted in the session (those the kept history logged).
    public var deleted: Int

    /// A session.
    public init(replica: ReplicaID, start: Date, end: Date, inserted: Int, deleted: Int) {
        self.replica = replica
        self.start = start
        self.end = end
        self.inserted = inserted
        self.deleted = deleted
    }
}

/// Who inserted a stretch of the visible text, and when (``NoteText/blame(utf16Range:)``).
public struct NoteBlameSpan: Sendable, Hashable {
    /// The stretch, in UTF-16 offsets of the current text.
    public var utf16Range: Range<Int>
    /// The replica that typed it.
    public var replica: ReplicaID
    /// When, to within a second (nil: before the note's clock log, e.g. text a legacy plain
    /// record held).
    public var inserted: Date?

    /// A span.
    public init(utf16Range: Range<Int>, replica: ReplicaID, inserted: Date?) {
        self.utf16Range = utf16Range
        self.replica = replica
        self.inserted = inserted
    }
}
