/// The outcome of a record merge: the record to save and the merged note.
public struct RecordMergeResult: Sendable {
    /// The merged record, built on the server record (its change tag and system fields), with
    /// the bytes of its note assets; new ones are ``NoteRecord/assetsToSave``.
    public var record: NoteRecord
    /// The merged note. Its replica is internal to the merge: fork it (``NoteText/forked(as:clock:)``)
    /// before editing.
    public var note: NoteText
    /// True when the merged record equals the server record: the server already has
    /// everything, there is nothing to save.
    public var serverUnchanged: Bool
    /// What the merge did beyond a plain union, for logs and the CLI (e.g. "client: legacy
    /// text folded in as edits"). Empty for a union of two crdtnote records.
    package var notes: [String]
}
