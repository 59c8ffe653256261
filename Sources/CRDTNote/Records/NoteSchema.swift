/// The CloudKit schema of a note record (record type `Note`) and the size limits used when
/// writing one. See Docs/RECORD-FORMAT.md for the reasoning behind every number.
///
/// CloudKit fixes each field's type when it is first saved, so every field has one type for
/// the life of a container; `text`'s is the container's (``NoteTextMirror``).
///
/// | field | type | meaning |
/// | --- | --- | --- |
/// | `version` | INT64 | 1 = legacy plain text, 2 = crdtnote, 3 = crdtnote, encrypted layout |
/// | `text` | ASSET, or STRING in containers where it is one (one per container) | v1: the note; v2: plain-text mirror for old clients; v3: an ASSET mirror only |
/// | `modified` | TIMESTAMP | ms since 1970 of the latest edit (HLC physical part) |
/// | `payload` | BYTES | the encoded CRDT snapshot, when small enough (version 2) |
/// | `encryptedPayload` | BYTES, encrypted | the encoded CRDT snapshot, when small enough (version 3) |
/// | `payloadAsset` | ASSET | the encoded CRDT snapshot, when larger (then no `payload`) |
/// | `formatting` | BYTES | the note's formatting operations (Docs/FORMAT.md §10.7), only for a note that has any |
/// | `formattingAsset` | ASSET | the same, when too large to inline (then no `formatting`) |
/// | `history` | BYTES | the note's history: deletions with their stamps and text (Docs/FORMAT.md §11), never parsed when the note loads |
/// | `historyAsset` | ASSET | the same, when too large to inline (then no `history`) |
/// | `mirroredBytes` | INT64 | v2 only, when `text` does not mirror the whole note: how many leading UTF-8 bytes of it `text` showed (crdtnote writes 0: no `text`) |
public enum NoteSchema {
    /// The CloudKit record type of notes.
    public static let recordType = "Note"

    /// Field names.
    public enum Field {
        /// INT64 schema version.
        public static let version = "version"
        /// The text (v1 content, v2 mirror): an ASSET, or a STRING in containers where it is one.
        public static let text = "text"
        /// TIMESTAMP of the latest edit.
        public static let modified = "modified"
        /// BYTES: inline encoded snapshot.
        public static let payload = "payload"
        /// BYTES, encrypted (`CKRecord.encryptedValues`): the inline encoded snapshot of the
        /// encrypted layout (version 3), in place of `payload`.
        public static let encryptedPayload = "encryptedPayload"
        /// ASSET: encoded snapshot too large to inline.
        public static let payloadAsset = "payloadAsset"
        /// INT64, written with a v2 record whose `text` does not mirror the whole note: the
        /// number of leading UTF-8 bytes of the payload's text that `text` showed (crdtnote
        /// writes 0 and no `text`). Absent: `text`, when present, mirrors the whole note.
        public static let mirroredBytes = "mirroredBytes"
        /// BYTES: the stamps of the app fields a note library manages, so a conflict keeps the
        /// later change of each (Docs/RECORD-FORMAT.md, "App fields"). Written by the sync engine
        /// from the library, not part of ``all``.
        public static let fieldStamps = "fieldStamps"
        /// BYTES: the note's formatting operations (Docs/FORMAT.md §10.7), written only for a
        /// note that has formatting. Not part of ``all``: a copy that does not hold a note's
        /// formatting (a release before formatting, or one that cannot read this field's payload)
        /// keeps the field verbatim.
        public static let formatting = "formatting"
        /// ASSET: the formatting operations when too large to inline (then no `formatting`).
        public static let formattingAsset = "formattingAsset"
        /// BYTES: the note's history (Docs/FORMAT.md §11): deletions with their stamps and text.
        /// Not part of ``all``: loading a note never parses it; a copy without history to add
        /// keeps the field verbatim.
        public static let history = "history"
        /// ASSET: the history when too large to inline (then no `history`).
        public static let historyAsset = "historyAsset"
        /// Every field this library computes from the note's text; all other fields belong to
        /// the app and are kept, the formatting fields included, which are only ever added or
        /// replaced by a superset (``written``).
        public static let all: Set<String> = [version, text, modified, payload, encryptedPayload, payloadAsset, mirroredBytes]
        /// The formatting fields.
        public static let formattingFields: Set<String> = [formatting, formattingAsset]
        /// The history fields.
        public static let historyFields: Set<String> = [history, historyAsset]
        /// Every note field crdtnote writes: ``all``, the formatting and the history fields.
        /// Merges take none of them as an app field, and apps cannot name a field after one.
        public static let written: Set<String> = all.union(formattingFields).union(historyFields)
    }

    /// Schema version of legacy plain-text note records.
    package static let legacyVersion: Int64 = 1
    /// Schema version of the plain layout this library writes (``NoteRecordLayout/plain``).
    public static let currentVersion: Int64 = 2
    /// Schema version of the encrypted layout (``NoteRecordLayout/encrypted``): releases before
    /// it read up to 2 and refuse it at their version gate.
    public static let encryptedVersion: Int64 = 3
    /// The newest schema version this library reads.
    package static let newestVersion: Int64 = encryptedVersion
}
