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

/// Size limits for the inline (non-asset) parts of a note record.
///
/// CloudKit refuses records over 1 MB, not counting assets. The defaults budget against
/// 1,000,000 bytes (not 1 MiB, for margin) in the most expensive form a record takes, the Web
/// Services JSON: BYTES grow by 4/3 in base64 and strings by their JSON escapes.
/// - payload inline up to 512,000 bytes (682,668 base64 characters);
/// - text mirror inline up to 196,608 bytes (192 KiB) of JSON-escaped UTF-8;
/// - which leaves over 120,000 bytes for the app's own fields and CloudKit's system fields.
/// On top of the static limits, the writer measures the app's other fields and moves the
/// mirror, then the payload, to assets when the whole record would pass `recordBudget`.
public struct NoteRecordLimits: Hashable, Sendable {
    /// Largest encoded snapshot stored inline as `payload` (raw bytes).
    public var maxInlinePayload: Int
    /// Largest text mirror stored inline as a STRING (UTF-8 bytes).
    public var maxInlineText: Int
    /// ``CloudRecord/size`` the whole record may reach, assets excluded; beyond it the text
    /// mirror, then the payload, move to assets.
    public var recordBudget: Int

    /// Custom limits (tests use tiny ones to force assets).
    public init(maxInlinePayload: Int, maxInlineText: Int, recordBudget: Int = 1_000_000) {
        self.maxInlinePayload = maxInlinePayload
        self.maxInlineText = maxInlineText
        self.recordBudget = recordBudget
    }

    /// Bytes kept free in the budget for the note fields' names and numbers and for system
    /// fields a server adds.
    static let reservedBytes = 4096

    /// The documented defaults: payload 512,000 bytes, text 196,608 bytes, budget 1,000,000.
    public static let standard = NoteRecordLimits(maxInlinePayload: 512_000, maxInlineText: 196_608)
}
