/// Listing and reading notes. Listing never decodes a note; reading decodes one (its snapshot
/// blob and its journal entries) the first time it is asked for.
extension NoteLibrary {
    /// Every note, most recently modified first (then by name). Reads other processes' appends
    /// first.
    public func list() throws(NoteLibraryError) -> [NoteSummary] {
        try withAccess { () throws(NoteLibraryError) -> [NoteSummary] in
            state.notes.values.map(summary).sorted { a, b in
                a.modified != b.modified ? a.modified > b.modified : a.name < b.name
            }
        }
    }

    /// The listing facts of the note named `name`, or nil when there is none.
    public func summary(of name: String) throws(NoteLibraryError) -> NoteSummary? {
        try withAccess { () throws(NoteLibraryError) -> NoteSummary? in
            state.numbers[name].flatMap { state.notes[$0] }.map(summary)
        }
    }

    /// The note named `name`, as this process's replica edits it (throws
    /// ``NoteLibraryError/Code/noSuchNote`` when there is none). A copy: change the library's
    /// note with ``edit(_:_:)`` or ``save(_:as:)``.
    public func note(_ name: String) throws(NoteLibraryError) -> NoteText {
        try withAccess { () throws(NoteLibraryError) -> NoteText in try load(number(of: name)) }
    }

    /// The text of the note named `name`.
    public func text(of name: String) throws(NoteLibraryError) -> String {
        try note(name).string
    }

    /// Names of notes deleted here whose deletion no server has confirmed yet.
    public var pendingDeletes: [String] {
        get throws(NoteLibraryError) {
            try withAccess { () throws(NoteLibraryError) -> [String] in state.index.pendingDeletes }
        }
    }

    /// Lets go of every decoded note held in memory (call it when memory is short); they are
    /// read from disk again when asked for.
    public func releaseCachedNotes() {
        locked {
            state.cache = [:]
            state.cacheOrder = []
        }
    }

    func summary(_ note: LibraryNote) -> NoteSummary {
        NoteSummary(name: note.name, title: note.title, created: note.created, modified: note.modified, unsaved: note.unsaved,
                    fields: note.fields.mapValues(\.value))
    }

    func number(of name: String) throws(NoteLibraryError) -> UInt32 {
        guard let number = state.numbers[name] else {
            throw NoteLibraryError(.noSuchNote, "no note named \"\(name)\" in \(folder)", note: name)
        }
        return number
    }

    /// The note numbered `number`, decoded from its snapshot file and journal entries unless it
    /// is in memory already.
    func load(_ number: UInt32) throws(NoteLibraryError) -> NoteText {
        if let cached = state.cache[number] {
            touch(number)
            return cached
        }
        guard let entry = state.notes[number] else {
            throw NoteLibraryError(.noSuchNote, "no note numbered \(number) in \(folder)")
        }
        var note = NoteText(replica: replica, clock: newClock())
        if let base = entry.journalBase {
            do {
                note = try NoteText(snapshot: Array(state.journal[base]), replica: replica, clock: newClock())
            } catch {
                throw damaged(entry, path: LibraryFormat.journalFile(state.index.generation),
                              "its compacted state at offset \(base.lowerBound) cannot be read: \(error)")
            }
        } else if let (bytes, path) = try snapshotBytes(of: entry) {
            do {
                note = try NoteText(snapshot: Array(bytes), replica: replica, clock: newClock())
            } catch {
                throw damaged(entry, path: path, "its snapshot cannot be read: \(error)")
            }
        }
        for range in entry.journal {
            do {
                try note.apply(try decodeChanges(range))
            } catch {
                throw damaged(entry, path: LibraryFormat.journalFile(state.index.generation),
                              "its journal entry at offset \(range.lowerBound) cannot be applied: \(error)")
            }
        }
        if let range = entry.journalLedger {
            do {
                note.ledger = try JournalLedger.decode(state.journal, range)
            } catch {
                throw damaged(entry, path: LibraryFormat.journalFile(state.index.generation),
                              "its ledger entry at offset \(range.lowerBound) cannot be read: \(error)")
            }
        }
        try loadFormatting(of: entry, into: &note)
        try loadHistory(of: entry, into: &note)
        adopt(&note)
        remember(note, as: number)
        return note
    }

    /// Keeps `note` decoded in memory, letting the least recently used go beyond the limit.
    func remember(_ note: NoteText, as number: UInt32) {
        var note = note
        adopt(&note)
        state.cache[number] = note
        touch(number)
        while state.cacheOrder.count > max(options.cachedNotes, 1) {
            state.cache[state.cacheOrder.removeFirst()] = nil
        }
    }

    /// Gives `note` the library's history policy and physical clock.
    func adopt(_ note: inout NoteText) {
        note.historyRetention = options.historyRetention
        note.clock.physicalClock = physicalClock
    }

    /// A clock reading the library's physical clock, for a note it makes or loads (a note's
    /// clock takes in the note's stamps as it is made, on the clock it is given).
    func newClock() -> HybridLogicalClock {
        HybridLogicalClock(physicalClock: physicalClock)
    }

    private func touch(_ number: UInt32) {
        if let i = state.cacheOrder.lastIndex(of: number) { state.cacheOrder.remove(at: i) }
        state.cacheOrder.append(number)
    }
}
