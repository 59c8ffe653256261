import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

/// Builders for note records in the shapes the merger meets.
enum NoteFixtures {
    static let name = "note-7F3A"
    /// Limits that push every payload and text into assets.
    static let assetLimits = NoteLimits(maxInlinePayload: 0, maxInlineText: 0)

    static func clock(_ ms: UInt64) -> HybridLogicalClock {
        HybridLogicalClock(physicalClock: .fixed(ms))
    }

    /// A legacy (v1) record as plain-text note apps write it.
    static func v1(_ text: String, modified: Int64 = 1_700_000_000_000, name: String = name) -> NoteRecord {
        var r = CloudRecord(recordName: name, recordType: "Note")
        r.recordChangeTag = "v1tag"
        r[field: "version"] = .int64(1)
        r[field: "text"] = .string(text)
        r[field: "modified"] = .timestamp(modified)
        return NoteRecord(r)
    }

    /// A crdtnote (v2) record holding `note`, its mirror of type `mirror`.
    static func v2(_ note: NoteText, asset: Bool = false, name: String = name, mirror: NoteTextMirror = .asset) throws -> NoteRecord {
        var r = try NoteRecord(recordName: name, note: note, limits: asset ? assetLimits : .default, mirror: mirror)
        r.record.recordChangeTag = "v2tag"
        return r
    }

    /// What an old plain-text client does to a v2 record: rewrites `text` (in the type it has:
    /// a STRING, or an ASSET with new bytes; a STRING when there is none) and `modified`, keeps the rest.
    static func clobbered(_ record: NoteRecord, text: String, modified: Int64) -> NoteRecord {
        var r = record
        if case .asset? = r.record[field: "text"] {
            r.record[field: "text"] = .asset(AssetReference(size: Int64(text.utf8.count), bytes: Array(text.utf8)))
        } else {
            r.record[field: "text"] = .string(text)
        }
        r.record[field: "modified"] = .timestamp(modified)
        return r
    }

    /// The payload bytes of a record (inline or asset).
    static func payload(of record: NoteRecord) -> [UInt8]? {
        if case .bytes(let b)? = record.record[field: "payload"] { return b }
        return record.record.assetBytes("payloadAsset")
    }

    /// `record` with the bytes of its note assets dropped (as if never loaded).
    static func withoutAssetBytes(_ record: NoteRecord) -> NoteRecord {
        var r = record
        for name in NoteSchema.Field.all {
            if case .asset(var ref)? = r.record[field: name] { ref.bytes = nil; r.record[field: name] = .asset(ref) }
        }
        return r
    }
}

/// An asset storage that must not be used: every call is a test failure.
struct UnusedAssetStorage: AssetStorage {
    struct Used: Error {}

    func readAsset(_ reference: AssetReference, field: String) throws(Used) -> [UInt8] {
        Issue.record("read asset of field \(field)")
        throw Used()
    }

    func writeAsset(_ bytes: [UInt8], field: String) throws(Used) -> AssetReference {
        Issue.record("wrote asset of field \(field)")
        throw Used()
    }
}
