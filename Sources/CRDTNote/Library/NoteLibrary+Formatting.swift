/// A note's formatting in the library (Docs/LIBRARY.md, "Formatting"): the operations a call
/// adds ride in the journal frame of its text change (a `.formatted` entry, one formatting
/// payload, Docs/FORMAT.md §10.7); compaction unites a note's payloads into one formatting blob
/// in its pack. Loading a note merges the blob's and the frames' operations into it after its
/// text, whose characters they name.
extension NoteLibrary {
    /// The formatting operations `note` gained over `before` (Docs/FORMAT.md §10), as one
    /// formatting payload for the frame of the same change; empty when there are none (a plain
    /// note's frames are what they were). The first such frame of a library an older crdtnote
    /// wrote compacts it to this format first (``upgradeFormatIfOlder()``).
    func formattingBytes(of note: NoteText, after before: NoteText) throws(NoteLibraryError) -> [UInt8] {
        guard note.formatting != before.formatting else { return [] }
        let gained = note.formatting.subtracting(before.formatting)
        guard !gained.isEmpty else { return [] }
        try upgradeFormatIfOlder()
        return gained.encoded()
    }

    /// Merges the formatting the library keeps for `entry` (its blob, then its frames) into
    /// `note`, the note's text already built. A blob or frame that does not decode is the note's
    /// damage.
    func loadFormatting(of entry: LibraryNote, into note: inout NoteText) throws(NoteLibraryError) {
        if let ref = entry.formatting {
            let bytes = try blob(ref, of: entry, "formatting")
            do throws(PayloadError) {
                note.mergeFormatting(try NoteFormatting(encoded: Array(bytes)))
            } catch {
                let path = LibraryFormat.packFile(ref.generation)
                throw damaged(entry, path: path, "its formatting in \(path) cannot be read: \(error)")
            }
        }
        for range in entry.formattingJournal {
            do throws(PayloadError) {
                note.mergeFormatting(try NoteFormatting(encoded: Array(state.journal[range])))
            } catch {
                throw damaged(entry, path: LibraryFormat.journalFile(state.index.generation),
                              "its formatting at offset \(range.lowerBound) of the journal cannot be read: \(error)")
            }
        }
    }

    /// The formatting blob compaction writes for `note`: all its operations as one formatting
    /// payload; nil for a note without formatting (no blob, no index bytes).
    static func formattingBlob(for note: NoteText) -> [UInt8]? {
        note.formatting.isEmpty ? nil : note.formatting.encoded()
    }

    /// For a note of a library an older crdtnote wrote (before format 6), which kept a record's
    /// formatting in the note's server metadata unparsed: the note with the formatting this
    /// release reads merged in, and the metadata without it, for compaction to write (the note
    /// then holds it, as this format's metadata expects). Nil when there is nothing to move, and
    /// when the metadata or the note cannot be read: then both stay as they are (the sync engine
    /// or the reader of the note reports the damage, and a later write unites the formatting).
    func noteWithServerFormatting(_ entry: LibraryNote) -> (note: NoteText, server: [UInt8])? {
        do {
            guard let bytes = try serverBlob(of: entry.number) else { return nil }
            let metadata = try ServerMetadata.decode(bytes[...])
            let record = NoteRecord(metadata.record)
            guard record.hasFormatting, case .success(let held) = record.readFormatting(), !held.isEmpty else { return nil }
            var stripped = metadata.record
            for name in NoteSchema.Field.formattingFields { stripped.fields[name] = nil }
            var note = try load(entry.number)
            note.mergeFormatting(held)
            return (note, try ServerMetadata(record: stripped).encoded())
        } catch {
            return nil
        }
    }
}
