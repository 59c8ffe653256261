import CRDTNoteSupport

/// One entry of a note library's journal: what one call changed. Entries are replayed in order
/// on top of the index when the library is opened (Docs/LIBRARY.md, "Layout on disk").
enum JournalEntry: Equatable, Sendable {
    /// A note was created: its library-local number (names its files), name, creation time,
    /// title, and its first text as operations (possibly none), so a note never exists on disk
    /// without the text it was created with.
    case created(note: UInt32, name: String, at: Int64, title: String, changes: Range<Int>)
    /// A note changed: its modification time, its new listed title when that changed, and the
    /// operations (a change set, Docs/FORMAT.md §5, without the payload header) as a range of
    /// the journal's bytes, read again only when the note is loaded.
    case changed(note: UInt32, at: Int64, title: String?, changes: Range<Int>)
    /// A note was deleted here; its name waits in the pending deletes until a sync removes it
    /// from the server.
    case deleted(note: UInt32, at: Int64)
    /// The app set (or, nil, cleared) the note's own title, which then lists instead of the
    /// derived one.
    case titleSet(note: UInt32, title: String?)
    /// The last entry of a journal a compaction replaced by the one of `generation`: a process
    /// that reads it reads the index again. (When the compaction did not reach its commit, the
    /// index still names this journal and the entry changes nothing.)
    case superseded(generation: UInt64)
    /// A note this library never held was deleted elsewhere on this device (an imported
    /// ``NoteSyncState``'s pending delete): its name waits in the pending deletes.
    case pendingDelete(name: String)
    /// The app set (or, nil, removed) one of the note's fields at `stamp`.
    case fieldSet(note: UInt32, key: String, value: NoteFieldValue?, stamp: HLCTimestamp)
    /// A sync brought the note in line with a server record: the record's metadata (`server`, a
    /// range of the journal's bytes: ``ServerMetadata``), the operations a merge added (possibly
    /// none), fields taken from the server, and whether the server now holds every local change
    /// (`confirms`: the note's revision the server holds; nil: the note stays unsaved).
    case synced(note: UInt32, at: Int64, title: String?, confirms: UInt64?, fields: [FieldUpdate], server: Range<Int>, changes: Range<Int>)
    /// The server confirmed the delete of a pending-deleted note.
    case deleteSent(name: String)
    /// The note was deleted on the server: it goes without becoming a pending delete.
    case removed(note: UInt32)
    /// The sync transport's own state (a change token, a `CKSyncEngine` state serialization),
    /// a range of the journal's bytes; the latest entry wins.
    case transport(Range<Int>)
    /// The sync engine's view of the devices syncing the zone (device records, the format the
    /// fleet reads), a range of the journal's bytes; the latest entry wins. Library format 3.
    case fleet(Range<Int>)
    /// The sync engine compacted the note (dropped tombstones every device has seen, Docs/FORMAT.md
    /// §4.7): its whole state as a snapshot payload (header included), a range of the journal's
    /// bytes, which stands in for everything before it. Not a change the server lacks: the note
    /// stays as saved or unsaved as it was. Library format 4.
    case compacted(note: UInt32, snapshot: Range<Int>)
    /// The note's compaction ledger changed without its text (Docs/FORMAT.md §4.7, "When tombstones
    /// settle"): the whole ledger (``ledgerBody(_:)``), a range of the journal's bytes; the latest
    /// such entry since the note's last snapshot wins. Library format 4.
    case ledger(note: UInt32, ledger: Range<Int>)
    /// Deletion events the note's history gained (Docs/FORMAT.md §11): one history payload
    /// (kind 4, header included), a range of the journal's bytes, united with the note's other
    /// history when it is asked for. Written before the frame of the change it belongs to, so a
    /// change that survives a crash has its history. Library format 5.
    case history(note: UInt32, payload: Range<Int>)
    /// A `.created`, `.changed` or `.synced` entry together with the formatting operations the
    /// same call added (Docs/FORMAT.md §10): one formatting payload (kind 3, header included), a
    /// range of the journal's bytes. One frame, so a crash keeps the text change and the
    /// operations that name its characters together or neither (ids a lost text change used are
    /// made again). A formatting-only change is a `.changed` entry without operations. Library
    /// format 6.
    indirect case formatted(JournalEntry, formatting: Range<Int>)

    /// One app field a sync set from the server (nil value: removed there), with its stamp.
    struct FieldUpdate: Equatable, Sendable {
        var key: String
        var value: NoteFieldValue?
        var stamp: HLCTimestamp
    }

    enum Kind: UInt8 {
        case created = 1, changed = 2, deleted = 3, titleSet = 4, superseded = 5, pendingDelete = 6, fieldSet = 7
        case synced = 8, deleteSent = 9, removed = 10, transport = 11, fleet = 12, compacted = 13, ledger = 14, history = 15
        case formatted = 16
    }

    /// Most UTF-8 bytes of a note name (CloudKit record names: 255 ASCII characters).
    static let maximumNameBytes = 255
    /// Most UTF-8 bytes of a stored title (100 characters of up to 4 bytes, plus combining marks).
    static let maximumTitleBytes = 1024

    /// The entry's body as written in a frame; `changes` are the change-set bytes of `.created`,
    /// `.changed` and `.synced`, `blob` the server metadata of `.synced`, the state of
    /// `.transport` and `.fleet`, the snapshot of `.compacted`, the ledger of `.ledger` or the
    /// history payload of `.history` (their ranges are ignored here). Non-empty `formatting` (a
    /// formatting payload) makes a `.formatted` frame of a `.created`, `.changed` or `.synced`
    /// entry: the kind byte 16, the payload length-prefixed, then the entry's own body.
    static func body(_ entry: JournalEntry, changes: [UInt8] = [], blob: [UInt8] = [], formatting: [UInt8] = []) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: 24 + changes.count + formatting.count)
        if !formatting.isEmpty {
            out.writeByte(Kind.formatted.rawValue)
            out.writeLengthPrefixed(formatting)
        }
        switch entry {
        case .formatted(let inner, _):
            return body(inner, changes: changes, blob: blob, formatting: formatting)
        case .created(let note, let name, let at, let title, _):
            out.writeByte(Kind.created.rawValue)
            out.writeVarUInt(UInt64(note))
            out.writeVarInt(at)
            out.writeLengthPrefixed(Array(name.utf8))
            out.writeLengthPrefixed(Array(title.utf8))
            out.writeBytes(changes)
        case .changed(let note, let at, let title, _):
            out.writeByte(Kind.changed.rawValue)
            out.writeVarUInt(UInt64(note))
            out.writeVarInt(at)
            writeOptional(title, into: &out)
            out.writeBytes(changes)
        case .deleted(let note, let at):
            out.writeByte(Kind.deleted.rawValue)
            out.writeVarUInt(UInt64(note))
            out.writeVarInt(at)
        case .titleSet(let note, let title):
            out.writeByte(Kind.titleSet.rawValue)
            out.writeVarUInt(UInt64(note))
            writeOptional(title, into: &out)
        case .superseded(let generation):
            out.writeByte(Kind.superseded.rawValue)
            out.writeVarUInt(generation)
        case .pendingDelete(let name):
            out.writeByte(Kind.pendingDelete.rawValue)
            out.writeLengthPrefixed(Array(name.utf8))
        case .fieldSet(let note, let key, let value, let stamp):
            out.writeByte(Kind.fieldSet.rawValue)
            out.writeVarUInt(UInt64(note))
            out.writeLengthPrefixed(Array(key.utf8))
            out.writeVarUInt(stamp.rawValue)
            if let value { value.write(into: &out) } else { out.writeByte(0) }
        case .synced(let note, let at, let title, let confirms, let fields, _, _):
            out.writeByte(Kind.synced.rawValue)
            out.writeVarUInt(UInt64(note))
            out.writeVarInt(at)
            writeOptional(title, into: &out)
            out.writeVarUInt(confirms.map { $0 &+ 1 } ?? 0)
            out.writeVarUInt(UInt64(fields.count))
            for field in fields {
                out.writeLengthPrefixed(Array(field.key.utf8))
                out.writeVarUInt(field.stamp.rawValue)
                if let value = field.value { value.write(into: &out) } else { out.writeByte(0) }
            }
            out.writeLengthPrefixed(blob)
            out.writeBytes(changes)
        case .deleteSent(let name):
            out.writeByte(Kind.deleteSent.rawValue)
            out.writeLengthPrefixed(Array(name.utf8))
        case .removed(let note):
            out.writeByte(Kind.removed.rawValue)
            out.writeVarUInt(UInt64(note))
        case .transport:
            out.writeByte(Kind.transport.rawValue)
            out.writeBytes(blob)
        case .fleet:
            out.writeByte(Kind.fleet.rawValue)
            out.writeBytes(blob)
        case .compacted(let note, _):
            out.writeByte(Kind.compacted.rawValue)
            out.writeVarUInt(UInt64(note))
            out.writeBytes(blob)
        case .ledger(let note, _):
            out.writeByte(Kind.ledger.rawValue)
            out.writeVarUInt(UInt64(note))
            out.writeBytes(blob)
        case .history(let note, _):
            out.writeByte(Kind.history.rawValue)
            out.writeVarUInt(UInt64(note))
            out.writeBytes(blob)
        }
        return out.bytes
    }

    /// Reads the body held in `bytes[range]` (its frame already checked); offsets in errors are
    /// offsets of the journal file.
    static func read(_ bytes: [UInt8], body range: Range<Int>) throws(BinaryDecodingError) -> JournalEntry {
        var reader = ByteReader(bytes, range: range)
        let kindOffset = reader.offset
        let kindByte = try reader.readByte()
        guard let kind = Kind(rawValue: kindByte) else {
            throw BinaryDecodingError(.invalidValue, at: kindOffset, "unknown journal entry kind \(kindByte)")
        }
        switch kind {
        case .created:
            let note = try readNote(&reader)
            let at = try reader.readVarInt()
            let name = try readString(&reader, max: maximumNameBytes, "note name")
            let title = try readString(&reader, max: maximumTitleBytes, "title")
            return .created(note: note, name: name, at: at, title: title, changes: reader.offset..<range.upperBound)
        case .changed:
            let note = try readNote(&reader)
            let at = try reader.readVarInt()
            let title = try readOptional(&reader)
            return .changed(note: note, at: at, title: title, changes: reader.offset..<range.upperBound)
        case .deleted:
            let note = try readNote(&reader)
            let at = try reader.readVarInt()
            try reader.expectEnd("journal entry")
            return .deleted(note: note, at: at)
        case .titleSet:
            let note = try readNote(&reader)
            let title = try readOptional(&reader)
            try reader.expectEnd("journal entry")
            return .titleSet(note: note, title: title)
        case .superseded:
            let generation = try reader.readVarUInt()
            try reader.expectEnd("journal entry")
            return .superseded(generation: generation)
        case .pendingDelete:
            let name = try readString(&reader, max: maximumNameBytes, "note name")
            try reader.expectEnd("journal entry")
            return .pendingDelete(name: name)
        case .fieldSet:
            let note = try readNote(&reader)
            let key = try readString(&reader, max: NoteFieldValue.maximumKeyBytes, "field name")
            let stamp = HLCTimestamp(rawValue: try reader.readVarUInt())
            let value = try NoteFieldValue.readOptional(&reader)
            try reader.expectEnd("journal entry")
            return .fieldSet(note: note, key: key, value: value, stamp: stamp)
        case .synced:
            let note = try readNote(&reader)
            let at = try reader.readVarInt()
            let title = try readOptional(&reader)
            let confirms = try reader.readVarUInt()
            let count = try reader.readCount("field count", minimumBytesEach: 3)
            guard count <= NoteFieldValue.maximumFields * 2 else {
                throw BinaryDecodingError(.lengthTooLarge, at: reader.offset, "\(count) field updates exceed \(NoteFieldValue.maximumFields * 2)")
            }
            var fields: [FieldUpdate] = []
            for _ in 0..<count {
                let key = try readString(&reader, max: NoteFieldValue.maximumKeyBytes, "field name")
                let stamp = HLCTimestamp(rawValue: try reader.readVarUInt())
                fields.append(FieldUpdate(key: key, value: try NoteFieldValue.readOptional(&reader), stamp: stamp))
            }
            let blobLength = try reader.readCount("server metadata", minimumBytesEach: 1)
            let blobStart = reader.offset
            _ = try reader.readBytes(blobLength)
            return .synced(note: note, at: at, title: title, confirms: confirms == 0 ? nil : confirms - 1, fields: fields,
                           server: blobStart..<blobStart + blobLength, changes: reader.offset..<range.upperBound)
        case .deleteSent:
            let name = try readString(&reader, max: maximumNameBytes, "note name")
            try reader.expectEnd("journal entry")
            return .deleteSent(name: name)
        case .removed:
            let note = try readNote(&reader)
            try reader.expectEnd("journal entry")
            return .removed(note: note)
        case .transport:
            return .transport(reader.offset..<range.upperBound)
        case .fleet:
            return .fleet(reader.offset..<range.upperBound)
        case .compacted:
            let note = try readNote(&reader)
            return .compacted(note: note, snapshot: reader.offset..<range.upperBound)
        case .ledger:
            let note = try readNote(&reader)
            return .ledger(note: note, ledger: reader.offset..<range.upperBound)
        case .history:
            let note = try readNote(&reader)
            return .history(note: note, payload: reader.offset..<range.upperBound)
        case .formatted:
            let length = try reader.readCount("formatting", minimumBytesEach: 1)
            let start = reader.offset
            _ = try reader.readBytes(length)
            let innerOffset = reader.offset
            let inner = try read(bytes, body: innerOffset..<range.upperBound)
            switch inner {
            case .created, .changed, .synced:
                return .formatted(inner, formatting: start..<start + length)
            default:
                throw BinaryDecodingError(.invalidValue, at: innerOffset, "a formatted journal entry holds an entry of kind \(bytes[innerOffset])")
            }
        }
    }

    /// The note a `.created`, `.changed` or `.synced` entry (possibly `.formatted`) changes.
    var changedNote: UInt32? {
        switch self {
        case .created(let note, _, _, _, _), .changed(let note, _, _, _), .synced(let note, _, _, _, _, _, _): return note
        case .formatted(let inner, _): return inner.changedNote
        default: return nil
        }
    }

    private static func readNote(_ reader: inout ByteReader) throws(BinaryDecodingError) -> UInt32 {
        UInt32(try reader.readVarUInt(max: UInt64(UInt32.max), "note number"))
    }

    private static func writeOptional(_ text: String?, into out: inout ByteWriter) {
        guard let text else { out.writeByte(0); return }
        out.writeByte(1)
        out.writeLengthPrefixed(Array(text.utf8))
    }

    private static func readOptional(_ reader: inout ByteReader) throws(BinaryDecodingError) -> String? {
        let offset = reader.offset
        switch try reader.readByte() {
        case 0: return nil
        case 1: return try readString(&reader, max: maximumTitleBytes, "title")
        case let other: throw BinaryDecodingError(.invalidValue, at: offset, "title flag \(other) is neither 0 nor 1")
        }
    }

    /// A length-prefixed UTF-8 string of at most `max` bytes.
    static func readString(_ reader: inout ByteReader, max: Int, _ what: String) throws(BinaryDecodingError) -> String {
        let offset = reader.offset
        let bytes = try reader.readLengthPrefixed(what)
        guard bytes.count <= max else {
            throw BinaryDecodingError(.lengthTooLarge, at: offset, "\(what) of \(bytes.count) bytes exceeds \(max)")
        }
        if let bad = UTF8Validation.firstInvalidByte(bytes) {
            throw BinaryDecodingError(.invalidValue, at: offset, "\(what) is not valid UTF-8 (byte \(bad - bytes.startIndex))")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
