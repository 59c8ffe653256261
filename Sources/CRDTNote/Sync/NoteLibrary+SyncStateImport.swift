/// The one-time move from a `NoteSyncState` (what apps persisted before the note library) into
/// a library.
extension NoteLibrary {
    /// Brings every note of `state` into this library, merged into the note of the same name
    /// when there is one (never overwriting), and its pending deletes; returns how many notes it
    /// imported. Call it once, after decoding the state the app saved as the docs showed until
    /// now (`JSONDecoder().decode(NoteSyncState.self, from: data)`), then delete that file.
    ///
    /// Nothing typed is lost: every note's full state comes over, marked unsaved. The state's
    /// server bookkeeping (change token, base records) is not carried over: the next sync reads
    /// the server's records again and merges each with its note, which merging absorbs.
    /// Throws ``NoteLibraryError/Code/corrupt`` naming the note whose snapshot cannot be read,
    /// having imported the notes before it; importing again is harmless (merges are idempotent).
    /// A state of a newer layout than this crdtnote reads (``NoteSyncState/currentVersion``)
    /// throws ``NoteLibraryError/Code/newerFormat`` before importing anything.
    @discardableResult
    public func importNotes(from state: NoteSyncState) throws(NoteLibraryError) -> Int {
        guard state.version <= NoteSyncState.currentVersion else {
            throw NoteLibraryError(.newerFormat, "the saved state has layout version \(state.version); this crdtnote reads up to "
                                   + "\(NoteSyncState.currentVersion): update crdtnote, and keep the state until then")
        }
        var imported = 0
        for name in state.notes.keys.sorted() {
            guard let saved = state.notes[name] else { continue }
            let note: NoteText
            do {
                note = try NoteText(snapshot: saved.snapshot, replica: replica)
            } catch where error.code == .newerFormat {
                throw NoteLibraryError(.newerFormat, "the saved state's note \"\(name)\" was written by a newer crdtnote: \(error)", note: name)
            } catch {
                throw NoteLibraryError(.corrupt, "the saved state's note \"\(name)\" cannot be read: \(error)", note: name)
            }
            try save(note, as: name)
            imported += 1
        }
        for name in state.pendingDeletes.keys.sorted() {
            try recordPendingDelete(name)
        }
        try flush()
        return imported
    }
}
