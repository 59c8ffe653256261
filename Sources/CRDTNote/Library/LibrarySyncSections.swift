/// The index's sync sections (Docs/LIBRARY.md, "Layout on disk"): what the sync engine keeps
/// per note and for the library, written by compaction from the journal's sync entries.
///
/// - tag 1, notes: count, then per note its number, revision, change tag (optional string),
///   removed-field stamps (count, then name and stamp each) (the server metadata itself is a
///   blob of the pack, see ``LibraryNote/server``);
/// - tag 2, pending deletes' change tags: count, then name and tag each;
/// - tag 3, the transport's state: its bytes;
/// - tag 4, the fleet (the devices syncing the zone, as the sync engine last saw them): its bytes.
enum LibrarySyncSections {
    static let notes: UInt64 = 1
    static let pendingDeleteTags: UInt64 = 2
    static let transport: UInt64 = 3
    static let fleet: UInt64 = 4
    static let tags: Set<UInt64> = [notes, pendingDeleteTags, transport, fleet]
}

extension LibraryIndex {
    /// The sync sections of this index.
    func syncSections() -> [(tag: UInt64, bytes: [UInt8])] {
        var out: [(tag: UInt64, bytes: [UInt8])] = []
        var notesOut = ByteWriter(reservingCapacity: notes.count * 16)
        let synced = notes.filter { $0.revision != 0 || $0.serverTag != nil || !$0.removedFields.isEmpty }
        notesOut.writeVarUInt(UInt64(synced.count))
        for note in synced {
            notesOut.writeVarUInt(UInt64(note.number))
            notesOut.writeVarUInt(note.revision)
            Self.writeOptional(note.serverTag.map { Array($0.utf8) }, into: &notesOut)
            notesOut.writeVarUInt(UInt64(note.removedFields.count))
            for key in note.removedFields.keys.sorted() {
                notesOut.writeLengthPrefixed(Array(key.utf8))
                notesOut.writeVarUInt(note.removedFields[key]?.rawValue ?? 0)
            }
        }
        out.append((LibrarySyncSections.notes, notesOut.bytes))
        if !pendingDeleteTags.isEmpty {
            var tags = ByteWriter(reservingCapacity: pendingDeleteTags.count * 32)
            tags.writeVarUInt(UInt64(pendingDeleteTags.count))
            for name in pendingDeleteTags.keys.sorted() {
                tags.writeLengthPrefixed(Array(name.utf8))
                tags.writeLengthPrefixed(Array((pendingDeleteTags[name] ?? "").utf8))
            }
            out.append((LibrarySyncSections.pendingDeleteTags, tags.bytes))
        }
        if let transport { out.append((LibrarySyncSections.transport, transport)) }
        if let fleet { out.append((LibrarySyncSections.fleet, fleet)) }
        return out
    }

    /// Reads the sync sections into the notes and the index (damage: a decoding error).
    mutating func readSyncSections() throws(BinaryDecodingError) {
        var positions: [UInt32: Int] = [:]
        for (i, note) in notes.enumerated() { positions[note.number] = i }
        for section in sections where LibrarySyncSections.tags.contains(section.tag) {
            var reader = ByteReader(section.bytes)
            switch section.tag {
            case LibrarySyncSections.notes:
                let count = try reader.readCount("synced note count", minimumBytesEach: 4)
                for _ in 0..<count {
                    let offset = reader.offset
                    let number = UInt32(try reader.readVarUInt(max: UInt64(UInt32.max), "note number"))
                    guard let i = positions[number] else {
                        throw BinaryDecodingError(.invalidValue, at: offset, "the sync section names note \(number), which the index lacks")
                    }
                    notes[i].revision = try reader.readVarUInt()
                    notes[i].serverTag = try Self.readOptional(&reader, "change tag").map { String(decoding: $0, as: UTF8.self) }
                    let removed = try reader.readCount("removed field count", minimumBytesEach: 2)
                    for _ in 0..<removed {
                        let key = try JournalEntry.readString(&reader, max: NoteFieldValue.maximumKeyBytes, "field name")
                        notes[i].removedFields[key] = HLCTimestamp(rawValue: try reader.readVarUInt())
                    }
                }
            case LibrarySyncSections.pendingDeleteTags:
                let count = try reader.readCount("pending delete tag count", minimumBytesEach: 2)
                for _ in 0..<count {
                    let name = try JournalEntry.readString(&reader, max: JournalEntry.maximumNameBytes, "note name")
                    pendingDeleteTags[name] = try JournalEntry.readString(&reader, max: JournalEntry.maximumNameBytes, "change tag")
                }
            case LibrarySyncSections.fleet:
                fleet = section.bytes
                continue
            default:
                transport = section.bytes
                continue
            }
            try reader.expectEnd("sync section \(section.tag)")
        }
        // Read into the notes and the index; encoding writes them anew from there.
        sections.removeAll { LibrarySyncSections.tags.contains($0.tag) }
    }

    private static func writeOptional(_ bytes: [UInt8]?, into out: inout ByteWriter) {
        guard let bytes else { out.writeByte(0); return }
        out.writeByte(1)
        out.writeLengthPrefixed(bytes)
    }

    private static func readOptional(_ reader: inout ByteReader, _ what: String) throws(BinaryDecodingError) -> [UInt8]? {
        let offset = reader.offset
        switch try reader.readByte() {
        case 0: return nil
        case 1: return Array(try reader.readLengthPrefixed(what))
        case let other: throw BinaryDecodingError(.invalidValue, at: offset, "\(what) flag \(other) is neither 0 nor 1")
        }
    }
}
