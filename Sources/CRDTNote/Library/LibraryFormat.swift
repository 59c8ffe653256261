/// Versions and file names of a note library folder (Docs/LIBRARY.md, "Layout on disk").
enum LibraryFormat {
    /// The format this library writes.
    static let version: UInt16 = 7
    /// The oldest reader that can read what it writes (format 1 readers know no pack files,
    /// format 2 readers no fleet entries, format 3 readers no compacted or ledger entries,
    /// format 4 readers no history entries or history blobs, format 5 readers no formatted
    /// entries or formatting blobs, format 6 readers no re-pointed ids in ledger entries).
    static let minimumReader: UInt16 = 7
    /// The first format that stores formatting (older ones kept it in server metadata).
    static let formattingVersion: UInt16 = 6
    /// The layout of the history payloads its journal frames and history blobs hold: the newest
    /// (the library is one device).
    static let history: HistoryFormat = .version2
    /// Most notes one library holds.
    static let maximumNotes = 1_000_000

    static let indexFile = "index"
    static let lockFile = "lock"
    static let notesFolder = "notes"
    static func journalFile(_ generation: UInt64) -> String { "journal-\(generation)" }
    /// A format 1 note's snapshot, a file of its own (read; never written since format 2).
    static func snapshotFile(note: UInt32, generation: UInt64) -> String { "\(notesFolder)/\(note)-\(generation).snapshot" }
    static func packFile(_ generation: UInt64) -> String { "\(notesFolder)/pack-\(generation)" }
}

/// The bits of a note's flags byte in the index.
enum NoteFlags {
    static let unsaved: UInt8 = 1
    static let customTitle: UInt8 = 2
    /// Format 1: the snapshot is the file `notes/<number>-<generation>.snapshot`.
    static let snapshotFile: UInt8 = 4
    static let fields: UInt8 = 8
    /// The snapshot is a blob in a pack.
    static let snapshotBlob: UInt8 = 16
    /// The server metadata is a blob in a pack.
    static let serverBlob: UInt8 = 32
    /// The note's history is a blob in a pack (format 5).
    static let historyBlob: UInt8 = 64
    /// More flags follow, as a `VarUInt` (format 6): ``MoreNoteFlags``.
    static let more: UInt8 = 128
}

/// The bits of the `VarUInt` of further flags a note has in the index when its flags byte has
/// ``NoteFlags/more`` (format 6). A later format adds bits here; this reader refuses a bit it
/// does not know as damage (a library with one is written for a newer reader anyway).
enum MoreNoteFlags {
    /// The note's formatting is a blob in a pack.
    static let formattingBlob: UInt64 = 1
    /// Every bit this reader knows.
    static let known: UInt64 = 1
}

/// What the library knows of one note without loading it.
struct LibraryNote: Sendable, Equatable {
    /// Library-local number: names the note's files and its journal entries.
    var number: UInt32
    var name: String
    /// The first non-blank line of the text (``NoteTitle``).
    var derivedTitle: String
    /// The title the app set, listed instead of the derived one.
    var customTitle: String?
    /// Milliseconds since 1970.
    var created: Int64
    var modified: Int64
    /// Changed since a server last confirmed it.
    var unsaved: Bool
    /// Where compaction last wrote the note's snapshot; nil: the note's whole history is in
    /// the journal.
    var snapshot: SnapshotLocation?
    /// The sync engine's server metadata of the note (opaque here) as of the last compaction.
    var server: BlobRef?
    /// The app's fields (folder, pinned, tags, ...) with the stamp of each one's last change.
    var fields: [String: StampedField] = [:]
    /// The note's history (``HistoryBlob``) as of the last compaction, when it has any.
    var history: BlobRef?
    /// Not stored: the history payloads of its `.history` entries in the current journal.
    var historyJournal: [Range<Int>] = []
    /// The note's formatting (one formatting payload, Docs/FORMAT.md §10.7) as of the last
    /// compaction, when it has any (format 6).
    var formatting: BlobRef?
    /// Not stored: the formatting payloads of its `.formatted` entries in the current journal.
    var formattingJournal: [Range<Int>] = []
    /// Not stored: the bodies of its `.changed` entries in the current journal, in order (after
    /// ``journalBase`` when there is one).
    var journal: [Range<Int>] = []
    /// Not stored: the snapshot of its last `.compacted` entry in the current journal, which
    /// stands in for ``snapshot`` and the entries before it.
    var journalBase: Range<Int>?
    /// Not stored: the ledger of its last `.ledger` entry in the current journal after
    /// ``journalBase``, which replaces the ledger the rest gives.
    var journalLedger: Range<Int>?
    /// Not stored: the latest server metadata in the current journal, newer than ``server``.
    var serverJournal: Range<Int>?
    /// Not stored: why the note's journal entries could not all be read, when they could not.
    var damage: String?
    /// Bumped by every local change (every process replays the same journal, so every process
    /// counts the same); a server save confirms the revision it was built from.
    var revision: UInt64 = 0
    /// The change tag of the server record the note was last synced with.
    var serverTag: String?
    /// Stamps of app fields removed here or on the server, so an older set does not bring them back.
    var removedFields: [String: HLCTimestamp] = [:]

    var title: String { customTitle ?? derivedTitle }

    /// Whether the current journal holds some of its state (the next compaction writes it).
    var changedInJournal: Bool { !journal.isEmpty || journalBase != nil || journalLedger != nil || !formattingJournal.isEmpty }

    /// Every pack blob the note refers to.
    var blobs: [BlobRef] { [snapshot?.blob, server, history, formatting].compactMap { $0 } }
}

/// The index file: every note's listing facts and where its state is, written whole (atomic
/// replace) by compaction; the journal of its generation holds everything since.
///
/// `"CRNL"`, versions (`UInt32` LE: writer version, minimum reader << 16), generation (`UInt64`
/// LE), next note number, the notes, the pending deletes, tagged sections (kept as they are by
/// readers that do not know them), CRC-32C of everything before it (`UInt32` LE).
struct LibraryIndex: Sendable, Equatable {
    static let magic: [UInt8] = [0x43, 0x52, 0x4E, 0x4C]

    var generation: UInt64 = 1
    var nextNote: UInt32 = 1
    var notes: [LibraryNote] = []
    /// Names of notes deleted here that a sync has not yet deleted on the server.
    var pendingDeletes: [String] = []
    /// Tagged sections (tag, bytes) for what later versions add; unknown tags are kept.
    var sections: [(tag: UInt64, bytes: [UInt8])] = []
    /// The change tag of the server version each pending delete deletes (sync section).
    var pendingDeleteTags: [String: String] = [:]
    /// The sync transport's state (sync section).
    var transport: [UInt8]?
    /// The sync engine's view of the devices in the zone (sync section).
    var fleet: [UInt8]?
    /// The minimum reader the index was written for (an older library's is lower; not compared).
    var writtenMinimumReader: UInt16 = LibraryFormat.minimumReader

    static func == (a: LibraryIndex, b: LibraryIndex) -> Bool {
        a.generation == b.generation && a.nextNote == b.nextNote && a.notes == b.notes
            && a.pendingDeletes == b.pendingDeletes && a.pendingDeleteTags == b.pendingDeleteTags && a.transport == b.transport && a.fleet == b.fleet
            && a.sections.elementsEqual(b.sections) { $0.tag == $1.tag && $0.bytes == $1.bytes }
    }

    func encoded() -> [UInt8] {
        var out = ByteWriter(reservingCapacity: 64 + notes.count * 64)
        out.writeBytes(Self.magic)
        out.writeUInt32LE(UInt32(LibraryFormat.version) | UInt32(LibraryFormat.minimumReader) << 16)
        out.writeUInt64LE(generation)
        out.writeVarUInt(UInt64(nextNote))
        out.writeVarUInt(UInt64(notes.count))
        for note in notes {
            out.writeVarUInt(UInt64(note.number))
            out.writeLengthPrefixed(Array(note.name.utf8))
            out.writeLengthPrefixed(Array(note.derivedTitle.utf8))
            var flags: UInt8 = note.unsaved ? NoteFlags.unsaved : 0
            if note.customTitle != nil { flags |= NoteFlags.customTitle }
            switch note.snapshot {
            case .file?: flags |= NoteFlags.snapshotFile
            case .blob?: flags |= NoteFlags.snapshotBlob
            case nil: break
            }
            if note.server != nil { flags |= NoteFlags.serverBlob }
            if note.history != nil { flags |= NoteFlags.historyBlob }
            if !note.fields.isEmpty { flags |= NoteFlags.fields }
            // Further flags only when one is set: a note without formatting is written as before.
            let more: UInt64 = note.formatting != nil ? MoreNoteFlags.formattingBlob : 0
            if more != 0 { flags |= NoteFlags.more }
            out.writeByte(flags)
            if more != 0 { out.writeVarUInt(more) }
            if let custom = note.customTitle { out.writeLengthPrefixed(Array(custom.utf8)) }
            out.writeVarInt(note.created)
            out.writeVarInt(note.modified)
            switch note.snapshot {
            case .file(let generation)?: out.writeVarUInt(generation)
            case .blob(let ref)?: Self.write(ref, into: &out)
            case nil: break
            }
            if let server = note.server { Self.write(server, into: &out) }
            if !note.fields.isEmpty {
                out.writeVarUInt(UInt64(note.fields.count))
                for key in note.fields.keys.sorted() {
                    guard let field = note.fields[key] else { continue }
                    out.writeLengthPrefixed(Array(key.utf8))
                    out.writeVarUInt(field.stamp.rawValue)
                    field.value.write(into: &out)
                }
            }
            if let history = note.history { Self.write(history, into: &out) }
            if let formatting = note.formatting { Self.write(formatting, into: &out) }
        }
        out.writeVarUInt(UInt64(pendingDeletes.count))
        for name in pendingDeletes { out.writeLengthPrefixed(Array(name.utf8)) }
        let sections = syncSections() + self.sections.filter { !LibrarySyncSections.tags.contains($0.tag) }
        out.writeVarUInt(UInt64(sections.count))
        for section in sections {
            out.writeVarUInt(section.tag)
            out.writeLengthPrefixed(section.bytes)
        }
        out.writeUInt32LE(CRC32C.checksum(out.bytes))
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(LibraryFileError) -> LibraryIndex {
        guard bytes.count >= 20, Array(bytes[0..<4]) == magic else {
            throw .damaged("not a note library index (bad magic or too short)")
        }
        do {
            var reader = ByteReader(bytes, range: 4..<bytes.count - 4)
            let versions = try reader.readUInt32LE()
            let minimumReader = UInt16(versions >> 16)
            if minimumReader > LibraryFormat.version { throw LibraryFileError.newer(minimumReader) }
            var tail = ByteReader(bytes, range: bytes.count - 4..<bytes.count)
            let stored = try tail.readUInt32LE()
            guard CRC32C.checksum(bytes[0..<bytes.count - 4]) == stored else {
                throw LibraryFileError.damaged("the index fails its checksum")
            }
            var index = LibraryIndex()
            index.writtenMinimumReader = minimumReader
            index.generation = try reader.readUInt64LE()
            index.nextNote = UInt32(try reader.readVarUInt(max: UInt64(UInt32.max), "next note number"))
            let count = try reader.readCount("note count", minimumBytesEach: 7)
            guard count <= LibraryFormat.maximumNotes else {
                throw BinaryDecodingError(.lengthTooLarge, at: reader.offset, "\(count) notes exceed the limit of \(LibraryFormat.maximumNotes)")
            }
            index.notes.reserveCapacity(count)
            var numbers = Set<UInt32>(), names = Set<String>()
            for _ in 0..<count {
                let offset = reader.offset
                let number = UInt32(try reader.readVarUInt(max: UInt64(UInt32.max), "note number"))
                let name = try JournalEntry.readString(&reader, max: JournalEntry.maximumNameBytes, "note name")
                let derived = try JournalEntry.readString(&reader, max: JournalEntry.maximumTitleBytes, "title")
                let flagsOffset = reader.offset
                let flags = try reader.readByte()
                guard flags & NoteFlags.snapshotFile == 0 || flags & NoteFlags.snapshotBlob == 0 else {
                    throw BinaryDecodingError(.invalidValue, at: flagsOffset, "note flags \(flags)")
                }
                let moreOffset = reader.offset
                let more = flags & NoteFlags.more != 0 ? try reader.readVarUInt() : 0
                guard more & ~MoreNoteFlags.known == 0 else {
                    throw BinaryDecodingError(.invalidValue, at: moreOffset, "further note flags \(more)")
                }
                let custom = flags & NoteFlags.customTitle != 0 ? try JournalEntry.readString(&reader, max: JournalEntry.maximumTitleBytes, "title") : nil
                let created = try reader.readVarInt()
                let modified = try reader.readVarInt()
                var snapshot: SnapshotLocation?
                if flags & NoteFlags.snapshotFile != 0 {
                    snapshot = .file(generation: try reader.readVarUInt())
                } else if flags & NoteFlags.snapshotBlob != 0 {
                    snapshot = .blob(try readRef(&reader, below: index.generation, "snapshot"))
                }
                let server = flags & NoteFlags.serverBlob != 0 ? try readRef(&reader, below: index.generation, "server metadata") : nil
                var fields: [String: StampedField] = [:]
                if flags & NoteFlags.fields != 0 {
                    let count = try reader.readCount("field count", minimumBytesEach: 3)
                    guard count <= NoteFieldValue.maximumFields else {
                        throw BinaryDecodingError(.lengthTooLarge, at: reader.offset, "\(count) fields exceed \(NoteFieldValue.maximumFields)")
                    }
                    for _ in 0..<count {
                        let key = try JournalEntry.readString(&reader, max: NoteFieldValue.maximumKeyBytes, "field name")
                        let stamp = HLCTimestamp(rawValue: try reader.readVarUInt())
                        fields[key] = StampedField(value: try NoteFieldValue.read(&reader), stamp: stamp)
                    }
                }
                let history = flags & NoteFlags.historyBlob != 0 ? try readRef(&reader, below: index.generation, "history") : nil
                let formatting = more & MoreNoteFlags.formattingBlob != 0 ? try readRef(&reader, below: index.generation, "formatting") : nil
                guard number < index.nextNote, numbers.insert(number).inserted, names.insert(name).inserted else {
                    throw BinaryDecodingError(.invalidValue, at: offset, "note \(number) \"\(name)\" is listed twice or beyond the next number")
                }
                index.notes.append(LibraryNote(number: number, name: name, derivedTitle: derived, customTitle: custom,
                                               created: created, modified: modified, unsaved: flags & NoteFlags.unsaved != 0, snapshot: snapshot,
                                               server: server, fields: fields, history: history, formatting: formatting))
            }
            let deletes = try reader.readCount("pending delete count", minimumBytesEach: 1)
            for _ in 0..<deletes {
                index.pendingDeletes.append(try JournalEntry.readString(&reader, max: JournalEntry.maximumNameBytes, "note name"))
            }
            let sections = try reader.readCount("section count", minimumBytesEach: 2)
            for _ in 0..<sections {
                let tag = try reader.readVarUInt()
                index.sections.append((tag, Array(try reader.readLengthPrefixed("section"))))
            }
            try reader.expectEnd("index")
            try index.readSyncSections()
            return index
        } catch let error as LibraryFileError {
            throw error
        } catch {
            throw .damaged("\(error)")
        }
    }

    /// A blob reference: generation, offset of the record, length of the blob (`VarUInt`s).
    static func write(_ ref: BlobRef, into out: inout ByteWriter) {
        out.writeVarUInt(ref.generation)
        out.writeVarUInt(UInt64(ref.offset))
        out.writeVarUInt(UInt64(ref.length))
    }

    /// Reads a blob reference of a note in the index of `generation`: its pack is one an earlier
    /// compaction wrote, and its record lies past the pack's header.
    static func readRef(_ reader: inout ByteReader, below generation: UInt64, _ what: String) throws(BinaryDecodingError) -> BlobRef {
        let offset = reader.offset
        let packGeneration = try reader.readVarUInt()
        let start = try reader.readVarUInt(max: UInt64(Int.max / 2), "blob offset")
        let length = try reader.readVarUInt(max: UInt64(PackFormat.maximumBlob), "blob length")
        guard packGeneration <= generation, start >= UInt64(PackFormat.headerSize) else {
            throw BinaryDecodingError(.invalidValue, at: offset, "\(what) at offset \(start) of pack \(packGeneration), in the index of generation \(generation)")
        }
        return BlobRef(generation: packGeneration, offset: Int(start), length: Int(length))
    }
}
