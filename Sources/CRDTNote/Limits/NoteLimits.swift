/// The one set of limits a note and its record must stay within, shared by every reader and
/// every writer: the payload decoder refuses input beyond them, and `NoteRecord.write`,
/// `RecordMerger`, the sync engine and the CLI refuse (changing nothing) to write a note or
/// record beyond them, so every record crdtnote writes can be read back by crdtnote.
///
/// The content limits (`maximum…`) bound memory on untrusted input; the layout limits
/// (`maxInline…`, `recordBudget`) decide which note fields move to CloudKit assets.
///
/// CloudKit refuses records over 1 MB, not counting assets. The layout defaults budget against
/// 1,000,000 bytes (not 1 MiB, for margin) in the most expensive form a record takes, the Web
/// Services JSON: BYTES grow by 4/3 in base64 and strings by their JSON escapes.
/// - payload inline up to 512,000 bytes (682,668 base64 characters);
/// - text mirror inline up to 196,608 bytes (192 KiB) of UTF-8;
/// - which leaves over 120,000 bytes for the app's own fields and CloudKit's system fields.
/// On top of the static limits, the writer measures the app's other fields and moves the
/// mirror, then the payload, to assets when the whole record would pass `recordBudget`.
/// Docs/FORMAT.md ("Decoding limits") and Docs/RECORD-FORMAT.md explain every number.
public struct NoteLimits: Sendable, Hashable {
    /// Most element ids (characters ever inserted, tombstones included) a note may hold; the
    /// sum of a snapshot's id counts and of a change set's insert lengths.
    public var maximumElements: Int
    /// Most replicas a note may list.
    public var maximumReplicas: Int
    /// Most runs (stretches of ids stored as one unit) a snapshot or change set may hold.
    public var maximumRuns: Int
    /// Most UTF-8 bytes of visible text: the payload's text, the `text` field and its asset.
    public var maximumTextBytes: Int
    /// Most bytes of one encoded payload (inline or `payloadAsset`) and of any ASSET note field.
    public var maximumAssetBytes: Int
    /// Most formatting operations (marks, unmarks, paragraph attributes) a note may hold: its
    /// `formatting` field refuses more, and local formatting past it is refused.
    public var maximumFormattingOperations: Int
    /// Most deletion events a note's history (its `history` field, Docs/FORMAT.md §11) may hold;
    /// the deleted text it keeps is bounded by ``maximumTextBytes``.
    public var maximumHistoryEvents: Int
    /// Largest encoded snapshot stored inline as `payload` (raw bytes).
    public var maxInlinePayload: Int
    /// Largest text mirror stored inline as a STRING (UTF-8 bytes).
    public var maxInlineText: Int
    /// ``CloudRecord/size`` the whole record may reach, assets excluded; beyond it the text
    /// mirror, then the payload, move to assets.
    public var recordBudget: Int

    /// Limits; every value defaults to the documented standard.
    public init(maximumElements: Int = 1 << 26, maximumReplicas: Int = 1 << 16, maximumRuns: Int = 1 << 21,
                maximumTextBytes: Int = 1 << 24, maximumAssetBytes: Int = 1 << 25,
                maxInlinePayload: Int = 512_000, maxInlineText: Int = 196_608, recordBudget: Int = 1_000_000,
                maximumFormattingOperations: Int = 1 << 20, maximumHistoryEvents: Int = 1 << 21) {
        self.maximumElements = maximumElements
        self.maximumReplicas = maximumReplicas
        self.maximumRuns = maximumRuns
        self.maximumTextBytes = maximumTextBytes
        self.maximumAssetBytes = maximumAssetBytes
        self.maxInlinePayload = maxInlinePayload
        self.maxInlineText = maxInlineText
        self.recordBudget = recordBudget
        self.maximumFormattingOperations = maximumFormattingOperations
        self.maximumHistoryEvents = maximumHistoryEvents
    }

    /// Standard limits with other inline sizes (tests use tiny ones to force assets).
    package init(maxInlinePayload: Int, maxInlineText: Int, recordBudget: Int = 1_000_000) {
        self.init(maximumElements: 1 << 26, maxInlinePayload: maxInlinePayload, maxInlineText: maxInlineText,
                  recordBudget: recordBudget)
    }

    /// The documented defaults: 2^26 = 67,108,864 elements, 65,536 replicas, 2^21 = 2,097,152
    /// runs, 16 MiB of text, 32 MiB per payload or asset, 2^20 = 1,048,576 formatting operations,
    /// 2^21 = 2,097,152 history deletion events; payload inline up to 512,000 bytes,
    /// text up to 196,608 bytes, record budget 1,000,000 bytes.
    public static let `default` = NoteLimits()
    /// Bytes kept free in the record budget for the note fields' names and numbers and for
    /// system fields a server adds.
    static let reservedBytes = 4096
}
