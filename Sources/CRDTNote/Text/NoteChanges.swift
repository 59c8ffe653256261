/// The operations one copy of a note has and another lacks: insert runs with their
/// origins and text, the deleted id ranges, and the clock stamps that go with them.
///
/// Get them with ``NoteText/changes(since:)`` and hand them to ``NoteText/apply(_:)``
/// on the other copy. Applying changes is idempotent and commutative, like merging.
public struct NoteChanges: Sendable, Equatable {
    @usableFromInline var changeSet: ChangeSet

    @usableFromInline init(changeSet: ChangeSet) { self.changeSet = changeSet }

    /// True when there is nothing to apply.
    public var isEmpty: Bool { changeSet.isEmpty }

    /// Number of characters inserted by these changes (deleted on arrival included).
    package var insertedCount: Int { changeSet.inserts.reduce(0) { $0 + Int($1.length) } }

    /// Number of deleted ids these changes carry.
    package var deletedCount: Int { changeSet.deletes.reduce(0) { $0 + Int($1.length) } }
}
