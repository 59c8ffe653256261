/// The CloudKit type of the plain-text mirror (`text`) a writer puts in note records, for
/// plain-text clients that predate crdtnote.
///
/// CloudKit fixes a field's type the first time a record of the type is saved with it (and a
/// deployed production schema never changes), so every record of one container must write
/// `text` with the same type, whatever the note's size. Pick the type the container already
/// has (the CloudKit Console shows it under Schema, record type `Note`):
///
/// | container | mirror |
/// | --- | --- |
/// | created by the classic CloudKit note app (it stored `text` as a `CKAsset`) | ``asset`` (the default) |
/// | whose `text` field is a STRING (e.g. written first by an earlier crdtnote release with a small note) | ``string`` |
/// | new, with no plain-text clients at all | ``off`` (or ``asset``) |
///
/// What an old client sees: with ``asset`` always the whole note. With ``string`` the whole
/// note while it fits a record (``NoteLimits/maxInlineText`` and the record budget); a note
/// larger than that has no `text` field, and the record says so in `mirroredBytes` (0), so
/// whatever an old client writes into `text` is added at the start of the note and nothing it
/// was not shown is ever deleted. With ``off`` the same as a ``string`` note that does not fit.
/// Docs/RECORD-FORMAT.md, "The text mirror", has the rules.
public enum NoteTextMirror: String, Hashable, Sendable, CaseIterable {
    /// `text` is an ASSET holding the whole note as UTF-8, whatever its size: the classic app's
    /// shape. Old clients always see the whole note. Assets do not count toward the record's
    /// 1 MB, so the mirror never pushes the payload out of the record.
    case asset
    /// `text` is a STRING holding the whole note when it fits (at most
    /// ``NoteLimits/maxInlineText`` UTF-8 bytes, and the record within
    /// ``NoteLimits/recordBudget``); otherwise the record has no `text` and `mirroredBytes` is 0.
    case string
    /// No `text` field; `mirroredBytes` is 0. For apps with no plain-text clients.
    case off

    /// The mirror type `record` has: ``string`` or ``asset`` by its `text` field's type, ``off``
    /// for a crdtnote record (one with a payload) without `text`; nil when the record does not
    /// tell (a legacy record without `text`, or a `text` of another type). The CLI writes records
    /// with their input's mirror type this way, so it never changes a field's type.
    package init?(of record: NoteRecord) {
        switch record.record[field: NoteSchema.Field.text] {
        case .string?: self = .string
        case .asset?: self = .asset
        case nil where record.hasPayload: self = .off
        default: return nil
        }
    }
}
