/// Compaction: every note changed since the last one is written as a snapshot blob into one new
/// pack file (one flush however many notes), then a new journal, the superseded mark, and the
/// new index, the commit point; files no note refers to any more are removed after it.
extension NoteLibrary {
    /// How much bigger than the live blobs the packs may grow before a compaction copies every
    /// live blob into its new pack, so the old packs can go.
    static let repackRatio = 1.25

    /// Compaction, with the lock held and the journal synced.
    func compactLocked() throws(NoteLibraryError) {
        let generation = state.index.generation + 1
        var pack = PackWriter(disk: disk, generation: generation)
        var notes: [LibraryNote] = []
        notes.reserveCapacity(state.notes.count)
        // A library an older crdtnote wrote kept records' formatting in server metadata: this
        // compaction, the first of format 6, moves it into the notes.
        let movingServerFormatting = state.index.writtenMinimumReader < LibraryFormat.formattingVersion
        for number in state.notes.keys.sorted() {
            guard var entry = state.notes[number] else { continue }
            if entry.changedInJournal || entry.snapshot == nil {
                let note = try load(number)
                entry.snapshot = .blob(try pack.add(note.encodedSnapshot()))
            } else if case .file(let old) = entry.snapshot, let bytes = try disk.read(LibraryFormat.snapshotFile(note: number, generation: old)) {
                // A format 1 snapshot file moves into the pack as it is (a missing one stays
                // named, and the note reports it).
                entry.snapshot = .blob(try pack.add(bytes))
            }
            if movingServerFormatting, let moved = noteWithServerFormatting(entry) {
                remember(moved.note, as: number)
                entry.formattingJournal = []
                entry.formatting = try pack.add(moved.note.formatting.encoded())
                entry.server = try pack.add(moved.server)
            } else if let range = entry.serverJournal {
                entry.server = try pack.add(state.journal[range])
            }
            if !entry.historyJournal.isEmpty {
                let blob = historyBlob(for: try load(number))
                entry.history = nil
                if let blob { entry.history = try pack.add(blob) }
            }
            if !entry.formattingJournal.isEmpty {
                let blob = Self.formattingBlob(for: try load(number))
                entry.formatting = nil
                if let blob { entry.formatting = try pack.add(blob) }
            }
            entry.formattingJournal = []
            entry.historyJournal = []
            entry.serverJournal = nil
            entry.journal = []
            entry.journalBase = nil
            entry.journalLedger = nil
            entry.damage = nil
            notes.append(entry)
        }
        if try shouldRepack(notes, adding: pack) {
            for i in notes.indices {
                if let ref = notes[i].snapshot?.blob, ref.generation != generation,
                   let copied = try copy(ref, into: &pack) {
                    notes[i].snapshot = .blob(copied)
                }
                if let ref = notes[i].server, ref.generation != generation, let copied = try copy(ref, into: &pack) {
                    notes[i].server = copied
                }
                if let ref = notes[i].history, ref.generation != generation, let copied = try copy(ref, into: &pack) {
                    notes[i].history = copied
                }
                if let ref = notes[i].formatting, ref.generation != generation, let copied = try copy(ref, into: &pack) {
                    notes[i].formatting = copied
                }
            }
        }
        _ = try pack.finish()

        var next = state.index
        next.generation = generation
        next.notes = notes
        let journalName = LibraryFormat.journalFile(generation)
        try disk.writeAtomically(JournalFraming.header(generation: generation), to: journalName)
        try disk.syncFolder(LibraryFormat.notesFolder)
        // Processes still reading the old journal find this mark and read the index again.
        try append(.superseded(generation: generation))
        try syncJournal()
        // The commit point: from here on the new index, its journal and packs are in force.
        try disk.writeAtomically(next.encoded(), to: LibraryFormat.indexFile)
        // Reading the new index back removes the old journal and the packs no note refers to.
        let cache = state.cache
        let order = state.cacheOrder
        try reload(cleaning: true)
        // The notes in memory are the same states: keep them.
        state.cache = cache
        state.cacheOrder = order
    }

    /// Whether the packs `notes` would refer to after this compaction (older packs, and `pack`
    /// as it stands) would hold more than ``repackRatio`` times the bytes of the blobs they
    /// refer to, one pack header included.
    private func shouldRepack(_ notes: [LibraryNote], adding pack: PackWriter) throws(NoteLibraryError) -> Bool {
        var live = PackFormat.headerSize
        var older = Set<UInt64>()
        for note in notes {
            for ref in note.blobs {
                live += ref.recordBytes
                if ref.generation != pack.generation { older.insert(ref.generation) }
            }
        }
        guard !older.isEmpty else { return false }
        var packed = pack.count > 0 ? pack.size : 0
        for generation in older {
            packed += try disk.size(LibraryFormat.packFile(generation)) ?? 0
        }
        return Double(packed) > Self.repackRatio * Double(live)
    }

    /// Copies the record `ref` names into `pack` as its bytes are (no decoding: a damaged blob
    /// stays detectably damaged); nil, keeping the old reference, when the record is not all
    /// there (the note reports it when read).
    private func copy(_ ref: BlobRef, into pack: inout PackWriter) throws(NoteLibraryError) -> BlobRef? {
        guard let record = try disk.read(LibraryFormat.packFile(ref.generation), offset: ref.offset, count: ref.recordBytes),
              record.count == ref.recordBytes else { return nil }
        return try pack.addRecord(record, length: ref.length)
    }
}
