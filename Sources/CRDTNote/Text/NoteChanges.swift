/// The operations one copy of a note has and another lacks: insert runs with their
/// origins and text, the deleted id ranges, the clock stamps that go with them, and the
/// formatting operations (marks, unmarks, paragraph attributes) the other copy lacks.
///
/// Get them with ``NoteText/changes(since:)`` and hand them to ``NoteText/apply(_:)``
/// on the other copy. Applying changes is idempotent and commutative, like merging.
public struct NoteChanges: Sendable, Equatable {
    @usableFromInline var changeSet: ChangeSet
    /// The formatting operations the receiver lacks (empty: the text changes alone, encoded as
    /// before formatting travelled in changes).
    var formatting = NoteFormatting()
    /// Per author of an operation in ``formatting``, the latest stamp of its formatting the
    /// receiver was known to hold when the changes were made (authors it held none of are
    /// absent): the receiver must hold that much, or it would miss the operations in between.
    var formattingBase: [ReplicaID: HLCTimestamp] = [:]

    @usableFromInline init(changeSet: ChangeSet) { self.changeSet = changeSet }

    init(changeSet: ChangeSet, formatting: NoteFormatting, formattingBase: [ReplicaID: HLCTimestamp]) {
        self.changeSet = changeSet
        self.formatting = formatting
        self.formattingBase = formattingBase
    }

    /// True when there is nothing to apply.
    public var isEmpty: Bool { changeSet.isEmpty && formatting.isEmpty }

    /// Number of characters inserted by these changes (deleted on arrival included).
    package var insertedCount: Int { changeSet.inserts.reduce(0) { $0 + Int($1.length) } }

    /// Number of deleted ids these changes carry.
    package var deletedCount: Int { changeSet.deletes.reduce(0) { $0 + Int($1.length) } }

    /// Number of formatting operations these changes carry.
    package var formattingOperationCount: Int { formatting.operationCount }
}
