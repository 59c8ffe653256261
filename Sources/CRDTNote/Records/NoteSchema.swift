/// The CloudKit schema of a note record (record type `Note`) and the size limits used when
/// writing one. See Docs/RECORD-FORMAT.md for the reasoning behind every number.
///
/// | field | type | meaning |
/// | --- | --- | --- |
/// | `version` | INT64 | 1 = legacy plain text, 2 = crdtnote |
/// | `text` | STRING or ASSET | v1: the note; v2: plain-text mirror for search and old clients |
/// | `modified` | TIMESTAMP | ms since 1970 of the latest edit (HLC physical part) |
/// | `payload` | BYTES | the encoded CRDT snapshot, when small enough |
/// | `payloadAsset` | ASSET | the encoded CRDT snapshot, when larger (then no `payload`) |
public enum NoteSchema {
    /// The CloudKit record type of notes.
    public static let recordType = "Note"

    /// Field names.
    public enum Field {
        /// INT64 schema version.
        public static let version = "version"
        /// STRING or ASSET text (v1 content, v2 mirror).
        public static let text = "text"
        /// TIMESTAMP of the latest edit.
        public static let modified = "modified"
        /// BYTES: inline encoded snapshot.
        public static let payload = "payload"
        /// ASSET: encoded snapshot too large to inline.
        public static let payloadAsset = "payloadAsset"
        /// Every field this library computes; all other fields belong to the app and are kept.
        public static let all: Set<String> = [version, text, modified, payload, payloadAsset]
    }

    /// Schema version of legacy plain-text note records.
    public static let legacyVersion: Int64 = 1
    /// Schema version written by this library (and the newest it reads).
    public static let currentVersion: Int64 = 2
}
