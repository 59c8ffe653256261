/// Reading the blobs packs hold: a note's snapshot, its server metadata. Called with the
/// folder's lock held.
extension NoteLibrary {
    /// The bytes of `entry`'s snapshot (from its pack, or from its format 1 file), or nil when
    /// it has none. Throws the note's damage (reported in ``openReport``) when they are missing
    /// or fail their check.
    func snapshotBytes(of entry: LibraryNote) throws(NoteLibraryError) -> (bytes: ArraySlice<UInt8>, path: String)? {
        switch entry.snapshot {
        case nil:
            return nil
        case .file(let generation):
            let path = LibraryFormat.snapshotFile(note: entry.number, generation: generation)
            guard let bytes = try disk.read(path) else { throw damaged(entry, path: path, "its snapshot file is missing") }
            return (bytes[...], path)
        case .blob(let ref):
            return (try blob(ref, of: entry, "snapshot"), LibraryFormat.packFile(ref.generation))
        }
    }

    /// The latest server metadata of the note numbered `number` (what the sync engine stored
    /// last: from the current journal when an entry there set it, else from the pack of the
    /// last compaction), or nil when it has none. Call with the folder's lock held
    /// (``withAccess(_:)``). Missing or damaged bytes are the note's damage.
    func serverBlob(of number: UInt32) throws(NoteLibraryError) -> [UInt8]? {
        guard let entry = state.notes[number] else {
            throw NoteLibraryError(.noSuchNote, "no note numbered \(number) in \(folder)")
        }
        if let range = entry.serverJournal { return Array(state.journal[range]) }
        guard let ref = entry.server else { return nil }
        return Array(try blob(ref, of: entry, "server metadata"))
    }

    /// The blob `ref` names, read alone (one ranged read) and checked against its record's
    /// length and checksum.
    func blob(_ ref: BlobRef, of entry: LibraryNote, _ what: String) throws(NoteLibraryError) -> ArraySlice<UInt8> {
        let path = LibraryFormat.packFile(ref.generation)
        guard let record = try disk.read(path, offset: ref.offset, count: ref.recordBytes) else {
            throw damaged(entry, path: path, "its \(what) is in \(path), which is missing")
        }
        do {
            return try PackFormat.blob(in: record, for: ref)
        } catch {
            let why: String
            switch error {
            case .damaged(let text): why = text
            case .newer(let reader): why = "it needs reader version \(reader)"
            }
            throw damaged(entry, path: path, "its \(what) in \(path) cannot be read: \(why)")
        }
    }

    /// Records that `entry` cannot be read, and the error saying so.
    func damaged(_ entry: LibraryNote, path: String, _ why: String) -> NoteLibraryError {
        state.report.damagedNotes[entry.name] = why
        return NoteLibraryError(.corrupt, "note \"\(entry.name)\": \(why)", path: disk.path(path), note: entry.name)
    }
}
