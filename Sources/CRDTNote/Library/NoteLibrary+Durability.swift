/// Making edits durable, compacting the journal into snapshot files, closing.
extension NoteLibrary {
    /// Makes every change made through this library so far durable (one `fsync` of the journal,
    /// or `F_FULLFSYNC` on Apple platforms with ``Durability/powerLoss``), then compacts when
    /// the journal has outgrown ``Options/compactionThreshold``. When it returns, those changes
    /// survive the process being killed and, per ``Options/durability``, a power loss.
    public func flush() throws(NoteLibraryError) {
        try withAccess { () throws(NoteLibraryError) in
            try syncJournal()
            if state.journal.count > options.compactionThreshold { try compactLocked() }
        }
    }

    /// Rewrites every note changed since the last compaction as a snapshot file, and the index,
    /// and starts an empty journal; the journal's entries are then no longer needed. Durable when
    /// it returns (every file is synced before the new index replaces the old one, and the index
    /// is the commit point: a crash before it leaves the old index and journal in force).
    public func compact() throws(NoteLibraryError) {
        try withAccess { () throws(NoteLibraryError) in
            try syncJournal()
            try compactLocked()
        }
    }

    /// Flushes, compacts when the journal holds anything, and closes the library; later calls
    /// throw ``NoteLibraryError/Code/closed``.
    public func close() throws(NoteLibraryError) {
        let watching = try withAccess { () throws(NoteLibraryError) -> [AsyncStream<NoteLibraryChange>.Continuation] in
            try syncJournal()
            if state.journal.count > JournalFraming.headerSize { try compactLocked() }
            state.cache = [:]
            state.cacheOrder = []
            state.closed = true
            defer { observers = [:] }
            return Array(observers.values)
        }
        // Outside the mutex: finishing runs each stream's termination handler, which takes it.
        for continuation in watching { continuation.finish() }
    }

    func syncJournal() throws(NoteLibraryError) {
        guard state.syncedEnd < state.journal.count else { return }
        try disk.sync(state.journalName)
        state.syncedEnd = state.journal.count
    }

    /// Compaction, with the lock held and the journal synced.
    private func compactLocked() throws(NoteLibraryError) {
        let generation = state.index.generation + 1
        var next = state.index
        next.generation = generation
        next.notes = []
        for number in state.notes.keys.sorted() {
            guard var entry = state.notes[number] else { continue }
            if !entry.journal.isEmpty || entry.snapshot == nil {
                let note = try load(number)
                let path = LibraryFormat.snapshotFile(note: number, generation: generation)
                try disk.writeAtomically(note.encodedSnapshot(), to: path)
                entry.snapshot = generation
            }
            if let range = entry.serverJournal { entry.storedServer = Array(state.journal[range]) }
            entry.serverJournal = nil
            entry.journal = []
            entry.damage = nil
            next.notes.append(entry)
        }
        let journalName = LibraryFormat.journalFile(generation)
        try disk.writeAtomically(JournalFraming.header(generation: generation), to: journalName)
        try disk.syncFolder(LibraryFormat.notesFolder)
        // Processes still reading the old journal find this mark and read the index again.
        try append(.superseded(generation: generation))
        try syncJournal()
        // The commit point: from here on the new index, its journal and snapshots are in force.
        try disk.writeAtomically(next.encoded(), to: LibraryFormat.indexFile)
        // Reading the new index back removes the old journal and the snapshots it superseded.
        let cache = state.cache
        let order = state.cacheOrder
        try reload(cleaning: true)
        // The notes in memory are the same states: keep them.
        state.cache = cache
        state.cacheOrder = order
    }
}
