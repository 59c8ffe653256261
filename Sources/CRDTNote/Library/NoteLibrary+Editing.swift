/// Changing notes. Each call appends one journal frame holding what it changed, text and
/// formatting (never the whole note); the change is durable once ``flush()`` returns.
extension NoteLibrary {
    /// Creates the note `name` holding `text`. Throws ``NoteLibraryError/Code/alreadyExists``
    /// when there is one, ``NoteLibraryError/Code/invalidName`` for a name CloudKit would refuse.
    public func create(_ name: String, text: String = "") throws(NoteLibraryError) {
        try Self.checkName(name)
        try withAccess { () throws(NoteLibraryError) in
            guard state.numbers[name] == nil else {
                throw NoteLibraryError(.alreadyExists, "a note named \"\(name)\" exists in \(folder)", note: name)
            }
            var empty = NoteText(replica: replica, clock: newClock())
            adopt(&empty)
            var note = empty
            do throws(NoteTextError) {
                try note.setText(text)
            } catch {
                var failure = NoteLibraryError(.editRefused, "note \"\(name)\": \(error)", note: name)
                failure.textError = error
                throw failure
            }
            let number = state.index.nextNote
            let changes = try journalBytes(of: note, after: empty, name: name)
            let at = note.lastModified?.milliseconds ?? currentMilliseconds()
            let title = derivedTitle(note)
            try append(.created(note: number, name: name, at: Int64(at), title: title, changes: 0..<0), changes: changes)
            remember(note, as: number)
            notify(.created(name))
        }
    }

    /// Edits the note `name` in place: `body` gets the library's note, as this process's replica,
    /// built on every edit on disk (other processes' included), and what it changes (text and
    /// formatting, in one journal frame) is journaled when it returns. Throws ``NoteLibraryError/Code/editRefused`` (the note unchanged) when
    /// `body` throws, with its error in ``NoteLibraryError/textError`` when it is a ``NoteTextError``.
    ///
    /// ```swift
    /// try library.edit("groceries") { note in try note.replaceUTF16(in: 0..<4, with: "Oat milk") }
    /// ```
    @discardableResult
    public func edit<R, E: Error>(_ name: String, _ body: (inout NoteText) throws(E) -> R) throws(NoteLibraryError) -> R {
        try withAccess { () throws(NoteLibraryError) -> R in
            let number = try number(of: name)
            let before = try load(number)
            var note = before
            let result: R
            do throws(E) {
                result = try body(&note)
            } catch {
                var failure = NoteLibraryError(.editRefused, "note \"\(name)\": \(error)", note: name)
                failure.textError = error as? NoteTextError
                failure.changeError = error as? ChangeSetError
                throw failure
            }
            try journal(note, after: before, number: number)
            return result
        }
    }

    /// Replaces the text of note `name` with `text` (a whole-text update: the difference is
    /// recorded as insertions and deletions), creating the note when there is none.
    public func setText(_ text: String, of name: String) throws(NoteLibraryError) {
        let exists = try summary(of: name) != nil
        if !exists {
            do {
                try create(name, text: text)
                return
            } catch where error.code == .alreadyExists {
                // Another process created it in between: edit theirs.
            }
        }
        try edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.setText(text) }
    }

    /// Merges `other`, a copy of note `name` edited elsewhere (an editor session's note, a
    /// copy received from another device), into the library's note, creating the note when
    /// there is none. Returns how the library's text changed. Copies edited by another process
    /// under the same ``ReplicaID`` can contradict each other (typed error, nothing changed):
    /// give every process its own replica.
    @discardableResult
    public func save(_ other: NoteText, as name: String) throws(NoteLibraryError) -> TextPatch {
        try Self.checkName(name)
        return try withAccess { () throws(NoteLibraryError) -> TextPatch in
            guard let number = state.numbers[name] else {
                var empty = NoteText(replica: replica, clock: newClock())
                adopt(&empty)
                var note = empty
                let patch = try merged(other, into: &note, name: name)
                let changes = try journalBytes(of: note, after: empty, name: name)
                let formatting = try formattingBytes(of: note, after: empty)
                let at = note.lastModified?.milliseconds ?? currentMilliseconds()
                let number = state.index.nextNote
                try append(.created(note: number, name: name, at: Int64(at), title: derivedTitle(note), changes: 0..<0),
                           changes: changes, formatting: formatting)
                try journalHistory(of: note, after: empty, number: number)
                try appendRepointed(note, number: number)
                remember(note, as: number)
                notify(.created(name))
                return patch
            }
            let before = try load(number)
            var note = before
            let patch = try merged(other, into: &note, name: name)
            try journal(note, after: before, number: number)
            try appendRepointed(note, number: number)
            return patch
        }
    }

    /// Sets the title note `name` lists with (nil: back to its first line).
    public func setTitle(_ title: String?, of name: String) throws(NoteLibraryError) {
        let trimmed = title.map { String($0.prefix(NoteTitle.maximumLength)) }
        try withAccess { () throws(NoteLibraryError) in
            let number = try number(of: name)
            guard state.notes[number]?.customTitle != trimmed else { return }
            try append(.titleSet(note: number, title: trimmed))
            notify(.changed(name))
        }
    }

    /// Deletes note `name` here; its name is kept in ``pendingDeletes`` until a sync deletes
    /// it on the server.
    public func delete(_ name: String) throws(NoteLibraryError) {
        try withAccess { () throws(NoteLibraryError) in
            let number = try number(of: name)
            try append(.deleted(note: number, at: Int64(currentMilliseconds())))
            notify(.deleted(name))
        }
    }

    /// Journals what `note` gained over `before` (the library's note numbered `number`), if
    /// anything, and keeps `note` as the library's note.
    private func journal(_ note: NoteText, after before: NoteText, number: UInt32) throws(NoteLibraryError) {
        guard let entry = state.notes[number] else { return }
        let changes = try journalBytes(of: note, after: before, name: entry.name)
        let formatting = try formattingBytes(of: note, after: before)
        // The history first: a change that survives a crash has the deletions it logged.
        try journalHistory(of: note, after: before, number: number)
        if !changes.isEmpty || !formatting.isEmpty {
            let title = derivedTitle(note)
            let at = note.lastModified?.milliseconds ?? currentMilliseconds()
            try append(.changed(note: number, at: Int64(at), title: title == entry.derivedTitle ? nil : title, changes: 0..<0),
                       changes: changes, formatting: formatting)
            notify(.changed(entry.name))
        }
        remember(note, as: number)  // also keeps undo history, which is never journaled
    }

    /// The change set `note` gained over `before`, encoded; empty when nothing changed.
    func journalBytes(of note: NoteText, after before: NoteText, name: String) throws(NoteLibraryError) -> [UInt8] {
        let changes: NoteChanges
        do {
            changes = try note.changes(after: before)
        } catch {
            var failure = NoteLibraryError(.editRefused, "note \"\(name)\": \(error)", note: name)
            failure.changeError = error
            throw failure
        }
        return changes.isEmpty ? [] : ChangeSetCoding.encode(changes.changeSet)
    }

    private func merged(_ other: NoteText, into note: inout NoteText, name: String) throws(NoteLibraryError) -> TextPatch {
        do {
            return try note.merge(other)
        } catch {
            var failure = NoteLibraryError(.editRefused, "note \"\(name)\": \(error)", note: name)
            failure.changeError = error
            throw failure
        }
    }

    /// Appends one entry's frame to the journal and applies it to the listing.
    func append(_ entry: JournalEntry, changes: [UInt8] = [], blob: [UInt8] = [], formatting: [UInt8] = []) throws(NoteLibraryError) {
        let body = JournalEntry.body(entry, changes: changes, blob: blob, formatting: formatting)
        guard body.count <= JournalFraming.maximumBody else {
            throw NoteLibraryError(.editRefused, "one change of \(body.count) bytes exceeds the journal's limit of \(JournalFraming.maximumBody)")
        }
        let frame = JournalFraming.frame(body)
        let start = state.journal.count
        try disk.append(frame, to: state.journalName)
        state.journal.append(contentsOf: frame)
        // The entry as read back: its change bytes are a range of the journal.
        let bodyStart = start + JournalFraming.frameHeaderSize
        let stored: JournalEntry
        do {
            stored = try JournalEntry.read(state.journal, body: bodyStart..<bodyStart + body.count)
        } catch {
            throw NoteLibraryError(.corrupt, "an entry this library wrote does not read back: \(error)")
        }
        replay(stored, ownAppend: true)
    }

    /// The title derived from the start of `note`'s text.
    func derivedTitle(_ note: NoteText) -> String {
        NoteTitle.derive(fromPrefix: note.utf8Prefix(maxBytes: NoteTitle.scanBytes))
    }

    /// Refuses names CloudKit refuses as record names: empty, over 255 characters, not
    /// printable ASCII, or starting with an underscore.
    static func checkName(_ name: String) throws(NoteLibraryError) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= JournalEntry.maximumNameBytes,
              bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), bytes[0] != UInt8(ascii: "_") else {
            throw NoteLibraryError(.invalidName, "\"\(name)\" cannot name a note: use 1 to 255 printable ASCII characters without spaces, not starting with \"_\"", note: name)
        }
    }
}

func currentMilliseconds() -> UInt64 {
    PhysicalClock.system.now()
}

extension NoteLibrary {
    /// Keeps `name` among the pending deletes (deleting the note when the library has it).
    package func recordPendingDelete(_ name: String) throws(NoteLibraryError) {
        if try summary(of: name) != nil {
            try delete(name)
            return
        }
        try withAccess { () throws(NoteLibraryError) in
            guard !state.index.pendingDeletes.contains(name) else { return }
            try append(.pendingDelete(name: name))
        }
    }
}

extension NoteLibrary {
    /// Sets the app field `key` of note `name` (a folder, a pinned flag, tags; nil removes it),
    /// stamped with this process's hybrid logical clock so a sync can keep the later change of
    /// each field. Lists carry the fields (``NoteSummary/fields``) without loading the note.
    /// Throws ``NoteLibraryError/Code/editRefused`` for a value beyond the limits of
    /// ``NoteFieldValue``, a key that is empty, longer than 64 bytes or not printable ASCII, or
    /// a key naming a record field crdtnote writes itself (`version`, `text`, `payload`, ...,
    /// `fieldStamps`: Docs/RECORD-FORMAT.md, "App fields"), and for a 33rd field of a note.
    public func setField(_ key: String, to value: NoteFieldValue?, of name: String) throws(NoteLibraryError) {
        let keyBytes = Array(key.utf8)
        guard !keyBytes.isEmpty, keyBytes.count <= NoteFieldValue.maximumKeyBytes, keyBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw NoteLibraryError(.editRefused, "\"\(key)\" cannot name a field: use 1 to \(NoteFieldValue.maximumKeyBytes) printable ASCII characters", note: name)
        }
        guard !NoteFieldValue.reservedKeys.contains(key) else {
            throw NoteLibraryError(.editRefused, "\"\(key)\" names a field crdtnote writes itself (\(NoteFieldValue.reservedKeys.sorted().joined(separator: ", ")))", note: name)
        }
        if let problem = value?.problem {
            throw NoteLibraryError(.editRefused, "field \"\(key)\" of note \"\(name)\" cannot hold \(problem)", note: name)
        }
        try withAccess { () throws(NoteLibraryError) in
            let number = try number(of: name)
            guard let entry = state.notes[number], entry.fields[key]?.value != value else { return }
            if entry.fields[key] == nil, value != nil, entry.fields.count >= NoteFieldValue.maximumFields {
                throw NoteLibraryError(.editRefused, "note \"\(name)\" has \(NoteFieldValue.maximumFields) fields, the most a note carries", note: name)
            }
            try append(.fieldSet(note: number, key: key, value: value, stamp: fieldClock.tick()))
            notify(.changed(name))
        }
    }

    /// The app fields of note `name`.
    public func fields(of name: String) throws(NoteLibraryError) -> [String: NoteFieldValue] {
        try withAccess { () throws(NoteLibraryError) -> [String: NoteFieldValue] in
            (state.notes[try number(of: name)]?.fields ?? [:]).mapValues(\.value)
        }
    }
}
