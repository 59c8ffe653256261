import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// What `crdtnote show` reports about one record, computed once and printed as text or JSON.
struct RecordSummary: Sendable {
    /// The encoded CRDT payload of a record.
    struct Payload: Sendable {
        /// `payload` (inline BYTES), `encryptedPayload` (inline encrypted BYTES) or `payloadAsset`.
        var field: String
        /// Whether the bytes are inline in the record or in an asset file.
        var inline: Bool
        /// Size of the encoded snapshot in bytes.
        var encodedBytes: Int
        /// The format version that wrote it.
        var formatVersion: UInt16
        /// The oldest reader version that can decode it.
        var minimumReaderVersion: UInt16
    }

    /// Which record it is.
    var identity: RecordIdentity
    /// The schema version (1 legacy, 2 crdtnote, 3 crdtnote's encrypted layout).
    var schemaVersion: Int64
    /// Where the note's state came from.
    var origin: NoteOrigin
    /// The payload fields present (none for a legacy record).
    var payloads: [Payload]
    /// `inline`, `asset` or `absent`: how the `text` field (v1 text or v2 mirror) is stored.
    var textStorage: String
    /// Text length in Unicode scalars.
    var scalars: Int
    /// Text length in UTF-16 code units.
    var utf16: Int
    /// Text length in UTF-8 bytes.
    var utf8: Int
    /// Runs in the CRDT structure, tombstones included.
    var runs: Int
    /// Every replica that edited the note, by id.
    var replicas: [ReplicaHistory]
    /// The record's `modified` field, ms since 1970.
    var modifiedField: Int64?

    /// Reads and summarizes `file`; fails like every other command on a bad record.
    init(_ file: RecordFile) throws(CLIError) {
        let reading = try file.read()
        let note = reading.note
        let record = file.record
        identity = RecordIdentity(record.record, file: file.displayName)
        do {
            schemaVersion = try record.schemaVersion()
        } catch {
            throw .noteRecord(error, file: file.displayName)
        }
        origin = reading.origin
        payloads = try Self.payloads(of: record, file: file.displayName)
        switch record.record[field: NoteSchema.Field.text] {
        case .asset?: textStorage = "asset"
        case nil: textStorage = "absent"
        default: textStorage = "inline"
        }
        scalars = note.scalarCount
        utf16 = note.utf16Count
        utf8 = note.utf8.count
        runs = note.runCount
        replicas = note.replicaHistories
        modifiedField = record.modifiedMilliseconds
    }

    /// The earliest first insertion of any replica.
    var earliest: HLCTimestamp? { replicas.compactMap(\.firstInsertion).min() }
    /// The latest edit of any replica.
    var latest: HLCTimestamp? { replicas.compactMap(\.latestEdit).max() }

    /// The payload fields with their header versions (already checked when the note was read).
    private static func payloads(of record: NoteRecord, file: String) throws(CLIError) -> [Payload] {
        var out: [Payload] = []
        var found: [(String, Bool, [UInt8])] = []
        for field in [NoteSchema.Field.payload, NoteSchema.Field.encryptedPayload] {
            if case .bytes(let bytes)? = record.record[field: field] { found.append((field, true, bytes)) }
        }
        if let bytes = record.record.assetBytes(NoteSchema.Field.payloadAsset) {
            found.append((NoteSchema.Field.payloadAsset, false, bytes))
        }
        for (field, inline, bytes) in found {
            do throws(PayloadError) {
                let header = try PayloadHeader.read(bytes)
                out.append(Payload(field: field, inline: inline, encodedBytes: bytes.count,
                                   formatVersion: header.formatVersion, minimumReaderVersion: header.minimumReaderVersion))
            } catch {
                throw .payload(error, file: file, location: "fields.\(field).value")
            }
        }
        return out
    }
}

/// ISO 8601 dates for reports.
enum ReportDate {
    /// `2026-11-21T12:00:00.123Z`: a stamp's physical time (its counter is left out).
    static func iso(_ stamp: HLCTimestamp) -> String {
        let text = stamp.description
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }

    /// The date of `milliseconds` since 1970; negative values (before 1970) are shown as numbers.
    static func iso(milliseconds: Int64) -> String {
        guard milliseconds >= 0 else { return "\(milliseconds) ms" }
        return iso(HLCTimestamp(clampingMilliseconds: UInt64(milliseconds), counter: 0))
    }
}
