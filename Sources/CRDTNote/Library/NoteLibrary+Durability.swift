/// Making edits durable, compacting (NoteLibrary+Compaction.swift), closing.
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

    /// Rewrites every note changed since the last compaction as a snapshot, all of them in one
    /// new pack file, and the index, and starts an empty journal; the journal's entries are then
    /// no longer needed. Durable when it returns (every file is synced before the new index
    /// replaces the old one, and the index is the commit point: a crash before it leaves the old
    /// index, journal and packs in force).
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
}
