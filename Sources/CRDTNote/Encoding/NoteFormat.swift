/// Versions of crdtnote's binary payload format (see Docs/FORMAT.md).
public enum NoteFormat {
    /// The newest format version this library can write (snapshots in ``SnapshotFormat/version2``).
    /// What it writes by default is ``NoteLimits/snapshotFormat``: version 1.
    public static let version: UInt16 = 2
    /// The newest "minimum reader version" this library can decode (it reads versions 1 and 2).
    /// A payload that requires a newer reader is refused with a ``PayloadError`` whose code is
    /// ``PayloadError/Code/newerFormat``.
    public static let readerVersion: UInt16 = 2
    /// The four magic bytes every payload starts with: "CRNT".
    public static let magic: [UInt8] = [0x43, 0x52, 0x4E, 0x54]
    /// Size of the fixed header in bytes.
    public static let headerSize = 18
}

/// The layout a snapshot is written in (Docs/FORMAT.md, "Runs, version 1" and "Runs, version 2").
/// Both are read by this library; which one it writes is ``NoteLimits/snapshotFormat``.
///
/// - ``version1`` is read by every crdtnote release: the default.
/// - ``version2`` stores the run table in predicted, entropy-coded columns: 25–40% smaller
///   snapshots of long-edited notes, but releases before format 2 refuse it (``PayloadError/Code/newerFormat``).
///   Switch to it only once every device that syncs the app's notes runs a release that reads it
///   (Docs/FORMAT.md, "Mixed fleets").
///
/// Only versions this library can write exist: `SnapshotFormat(rawValue: 3)` is nil.
public struct SnapshotFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The format version written in the payload header; also its minimum reader version.
    public let rawValue: UInt16

    /// The format numbered `rawValue`, or nil when this library cannot write it (only 1 and 2).
    public init?(rawValue: UInt16) {
        guard rawValue >= 1, rawValue <= NoteFormat.version else { return nil }
        self.rawValue = rawValue
    }

    private init(known: UInt16) { rawValue = known }

    /// Format 1: plain run columns; every crdtnote release reads it. The default.
    public static let version1 = SnapshotFormat(known: 1)
    /// Format 2: predicted, rANS-coded run columns; needs a reader of version 2 or newer.
    public static let version2 = SnapshotFormat(known: 2)

    /// "1" or "2".
    public var description: String { String(rawValue) }
}

/// What a payload holds.
package enum PayloadKind: UInt8, Sendable, Hashable {
    /// The full state of a note.
    case snapshot = 1
    /// The operations a peer lacks (``NoteChanges``).
    case changes = 2
}

/// Why a payload could not be read. Nothing is decoded when this is thrown.
///
/// Two kinds, told apart by ``code``:
/// - ``Code/newerFormat``: the payload was written by a newer crdtnote and declares a minimum
///   reader version above ``NoteFormat/readerVersion``. Leave the data alone (never overwrite
///   it with an older state) and ask the user to update. ``requiredReader`` and
///   ``supportedReader`` hold the two versions.
/// - ``Code/corrupt``: the bytes are damaged or not a crdtnote payload. ``decodingError`` says
///   what is wrong and at which byte.
///
/// ```swift
/// do throws(PayloadError) {
///     note = try NoteText(snapshot: bytes, replica: device)
/// } catch {
///     if error.code == .newerFormat {
///         // keep the record as it is; offer an update
///     } else {
///         print(error)   // "corrupt: checksumMismatch at byte 14: body checksum is 0x…, header says 0x…"
///     }
/// }
/// ```
public struct PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of a payload error; new kinds can be added without breaking callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// The payload needs a newer crdtnote; nothing was decoded. Leave the data alone.
        public static let newerFormat = Code(rawValue: "newerFormat")
        /// The bytes are damaged or not a crdtnote payload.
        public static let corrupt = Code(rawValue: "corrupt")
    }

    /// The category.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// For ``Code/newerFormat``: the minimum reader version the payload declares.
    public var requiredReader: UInt16?
    /// For ``Code/newerFormat``: the newest reader version this library implements.
    public var supportedReader: UInt16?
    /// For ``Code/corrupt``: what is wrong and at which byte.
    public var decodingError: BinaryDecodingError?

    /// An error of `code` described by `message`, with the data that goes with its kind.
    public init(_ code: Code, _ message: String, requiredReader: UInt16? = nil, supportedReader: UInt16? = nil,
                decodingError: BinaryDecodingError? = nil) {
        self.code = code
        self.message = message
        self.requiredReader = requiredReader
        self.supportedReader = supportedReader
        self.decodingError = decodingError
    }

    /// A ``Code/newerFormat`` error: the payload needs reader version `requiredReader`, this
    /// library reads up to `supportedReader`.
    public static func newerFormat(requiredReader: UInt16, supportedReader: UInt16 = NoteFormat.readerVersion) -> PayloadError {
        PayloadError(.newerFormat,
                     "this payload needs reader version \(requiredReader), this crdtnote reads up to \(supportedReader); update crdtnote",
                     requiredReader: requiredReader, supportedReader: supportedReader)
    }

    /// A ``Code/corrupt`` error wrapping the decoder's `error`.
    public static func corrupt(_ error: BinaryDecodingError) -> PayloadError {
        PayloadError(.corrupt, error.description, decodingError: error)
    }

    /// "<code>: <message>", e.g. `"corrupt: badMagic at byte 0: not a crdtnote payload (expected magic "CRNT")"`.
    public var description: String { "\(code.rawValue): \(message)" }
}

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
    /// The snapshot format every writer uses (`NoteRecord.write`, `RecordMerger`, the sync engine,
    /// the CLI's `--format`): ``SnapshotFormat/version1`` by default, which every crdtnote release
    /// reads. Set ``SnapshotFormat/version2`` (smaller snapshots) only once every device that
    /// syncs these notes runs a release that reads format 2 (Docs/FORMAT.md, "Mixed fleets").
    /// Readers accept both whatever this says.
    public var snapshotFormat: SnapshotFormat
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
                snapshotFormat: SnapshotFormat = .version1) {
        self.maximumElements = maximumElements
        self.maximumReplicas = maximumReplicas
        self.maximumRuns = maximumRuns
        self.maximumTextBytes = maximumTextBytes
        self.maximumAssetBytes = maximumAssetBytes
        self.maxInlinePayload = maxInlinePayload
        self.maxInlineText = maxInlineText
        self.recordBudget = recordBudget
        self.snapshotFormat = snapshotFormat
    }

    /// Standard limits with other inline sizes (tests use tiny ones to force assets).
    public init(maxInlinePayload: Int, maxInlineText: Int, recordBudget: Int = 1_000_000) {
        self.init(maximumElements: 1 << 26, maxInlinePayload: maxInlinePayload, maxInlineText: maxInlineText,
                  recordBudget: recordBudget)
    }

    /// The documented defaults: 2^26 = 67,108,864 elements, 65,536 replicas, 2^21 = 2,097,152
    /// runs, 16 MiB of text, 32 MiB per payload or asset; payload inline up to 512,000 bytes,
    /// text up to 196,608 bytes, record budget 1,000,000 bytes; snapshots written in format 1.
    public static let `default` = NoteLimits()
    /// The same as ``default``.
    public static let standard = NoteLimits()

    /// Bytes kept free in the record budget for the note fields' names and numbers and for
    /// system fields a server adds.
    static let reservedBytes = 4096
}
