/// What the sync engine reads of one note without loading it.
package struct SyncNoteState: Sendable {
    package var name: String
    /// Bumped by every local change; a save confirms the revision it was built from.
    package var revision: UInt64
    /// Whether the server lacks some of the note's changes.
    package var unsaved: Bool
    /// The change tag of the server record the note was last synced with.
    package var serverTag: String?
    /// The app's fields with their stamps, and the stamps of removed ones.
    package var fields: [String: StampedField]
    package var removedFields: [String: HLCTimestamp]
}

/// One app field a sync takes from the server (nil value: removed there), with its stamp.
package struct SyncFieldUpdate: Sendable, Equatable {
    package var key: String
    package var value: NoteFieldValue?
    package var stamp: HLCTimestamp

    package init(key: String, value: NoteFieldValue?, stamp: HLCTimestamp) {
        self.key = key
        self.value = value
        self.stamp = stamp
    }
}

extension NoteLibrary {
    /// Runs `body` with the library to itself (this process's mutex, the folder's lock, other
    /// processes' appends read first), for one step of a sync; library failures become `E`s.
    package func withSyncAccess<R, E: Error>(_ wrap: (NoteLibraryError) -> E,
                                             _ body: (LibrarySyncAccess) throws(E) -> R) throws(E) -> R {
        try withAccess(wrap) { () throws(E) -> R in
            // Sync entries need this format's readers.
            do throws(NoteLibraryError) {
                try upgradeFormatIfOlder()
            } catch {
                throw wrap(error)
            }
            return try body(LibrarySyncAccess(library: self))
        }
    }
}

/// The library as a sync step sees it, valid only inside ``NoteLibrary/withSyncAccess(_:_:)``
/// (the lock is held; nothing here takes it again).
package struct LibrarySyncAccess {
    let library: NoteLibrary

    /// Names of the notes the server lacks changes of, sorted.
    package func unsavedNames() -> [String] {
        library.state.notes.values.filter(\.unsaved).map(\.name).sorted()
    }

    /// Every note's name, sorted.
    package func names() -> [String] {
        library.state.numbers.keys.sorted()
    }

    /// Notes deleted here whose delete the server has not confirmed, with the change tag of the
    /// version deleted (nil: it had none).
    package func pendingDeletes() -> [(name: String, changeTag: String?)] {
        library.state.index.pendingDeletes.map { ($0, library.state.index.pendingDeleteTags[$0]) }
    }

    /// The sync facts of note `name`, nil when there is none.
    package func state(of name: String) -> SyncNoteState? {
        guard let number = library.state.numbers[name], let note = library.state.notes[number] else { return nil }
        return SyncNoteState(name: name, revision: note.revision, unsaved: note.unsaved, serverTag: note.serverTag,
                             fields: note.fields, removedFields: note.removedFields)
    }

    /// Note `name`'s listed title, nil when there is no such note.
    package func title(of name: String) -> String? {
        library.state.numbers[name].flatMap { library.state.notes[$0]?.title }
    }

    /// Note `name`'s text state.
    package func note(_ name: String) throws(NoteLibraryError) -> NoteText {
        try library.load(library.number(of: name))
    }

    /// The server record note `name` was last synced with, its note fields stripped
    /// (``ServerMetadata``), nil when it was never synced.
    package func server(of name: String) throws(NoteLibraryError) -> CloudRecord? {
        guard let bytes = try library.serverBlob(of: library.number(of: name)) else { return nil }
        do {
            return try ServerMetadata.decode(bytes[...]).record
        } catch {
            throw NoteLibraryError(.corrupt, "note \"\(name)\": its server metadata cannot be read: \(error)", note: name)
        }
    }

    /// Records that note `name` is in line with `server` (kept as ``ServerMetadata``): `merged`
    /// (when given) is the note with the server's operations merged in, `fields` the app fields
    /// taken from the server, `confirms` the revision the server now holds (nil: the note stays
    /// unsaved). `server`'s formatting, when this release reads it, is united into the note
    /// (the metadata then keeps none). One journal frame, so a crash keeps all of it or none.
    package func recordSynced(_ name: String, merged: NoteText?, fields: [SyncFieldUpdate], confirms: UInt64?,
                              server: CloudRecord) throws(NoteLibraryError) {
        let number = try library.number(of: name)
        guard let entry = library.state.notes[number] else { return }
        // The server metadata keeps no formatting this release reads (``ServerMetadata``): the
        // note holds it, united in with this same frame.
        var merged = merged
        if NoteRecord(server).hasFormatting, case .success(let held) = NoteRecord(server).readFormatting() {
            var note: NoteText
            if let merged { note = merged } else { note = try library.load(number) }
            if !held.subtracting(note.formatting).isEmpty {
                note.mergeFormatting(held)
                merged = note
            }
        }
        var changes: [UInt8] = []
        var formatting: [UInt8] = []
        var title: String?
        var at = Int64(currentMilliseconds())
        var previous: NoteText?
        // A received record brings its whole history: decoded once, here, so what it adds is
        // journaled from the decoded events and payloads do not pile up to be decoded at every
        // write (only those this release cannot read stay waiting, and are journaled verbatim).
        merged?.history.absorbReadable()
        if let merged {
            let before = try library.load(number)
            previous = before
            changes = try library.journalBytes(of: merged, after: before, name: name)
            formatting = try library.formattingBytes(of: merged, after: before)
            try library.journalHistory(of: merged, after: before, number: number)
            let derived = library.derivedTitle(merged)
            if derived != entry.derivedTitle { title = derived }
            if let modified = merged.lastModified?.milliseconds { at = Int64(modified) }
        }
        let blob = try ServerMetadata(of: server).encoded()
        let updates = fields.map { JournalEntry.FieldUpdate(key: $0.key, value: $0.value, stamp: $0.stamp) }
        // This process's later field changes must be stamped after the ones it takes in, even
        // when the sender's clock is ahead of this one (else they lose to what they replaced).
        for field in fields { library.fieldClock.receive(field.stamp) }
        try library.append(.synced(note: number, at: at, title: title, confirms: confirms, fields: updates, server: 0..<0, changes: 0..<0),
                           changes: changes, blob: blob, formatting: formatting)
        if let merged, let previous { try library.appendLedger(of: merged, after: previous, number: number) }
        if let merged { library.remember(merged, as: number) }
        if !changes.isEmpty || !formatting.isEmpty || !fields.isEmpty || title != nil { library.notify(.changed(name)) }
    }

    /// Adds note `name`, received from the server as `note`, in line with `server` (`unsaved`:
    /// still to be sent, e.g. for its compaction ledger).
    package func createSynced(_ name: String, note: NoteText, fields: [SyncFieldUpdate], server: CloudRecord,
                              unsaved: Bool = false) throws(NoteLibraryError) {
        try NoteLibrary.checkName(name)
        guard library.state.numbers[name] == nil else {
            throw NoteLibraryError(.alreadyExists, "a note named \"\(name)\" exists in \(library.folder)", note: name)
        }
        let empty = NoteText(replica: library.replica, clock: library.newClock())
        let changes = try library.journalBytes(of: note, after: empty, name: name)
        let formatting = try library.formattingBytes(of: note, after: empty)
        let at = note.lastModified?.milliseconds ?? currentMilliseconds()
        let number = library.state.index.nextNote
        try library.append(.created(note: number, name: name, at: Int64(at), title: library.derivedTitle(note), changes: 0..<0),
                           changes: changes, formatting: formatting)
        try library.journalHistory(of: note, after: empty, number: number)
        try library.appendLedger(of: note, after: empty, number: number)
        library.remember(note, as: number)
        library.notify(.created(name))
        try recordSynced(name, merged: nil, fields: fields, confirms: unsaved ? nil : 1, server: server)
    }

    /// The server deleted note `name`: it goes, without becoming a pending delete.
    package func removeDeletedOnServer(_ name: String) throws(NoteLibraryError) {
        guard let number = library.state.numbers[name] else { return }
        try library.append(.removed(note: number))
        library.notify(.deleted(name))
    }

    /// The server confirmed the delete of pending-deleted note `name`.
    package func deleteWasSent(_ name: String) throws(NoteLibraryError) {
        guard library.state.index.pendingDeletes.contains(name) else { return }
        try library.append(.deleteSent(name: name))
    }

    /// Makes every change so far durable (no compaction).
    package func flush() throws(NoteLibraryError) {
        try library.syncJournal()
    }

    /// The transport's saved state, nil when none (or cleared: ``clearTransportState()``).
    package var transportState: [UInt8]? { library.state.index.transport.flatMap { $0.isEmpty ? nil : $0 } }

    /// Forgets the transport's state (its account or zone went away); durable with the next flush.
    package func clearTransportState() throws(NoteLibraryError) {
        guard transportState != nil else { return }
        try library.append(.transport(0..<0), blob: [])
    }

    /// Saves the transport's state durably, after every change before it: a crash can leave
    /// notes newer than the state (a page fetched again, which merging absorbs), never a state
    /// newer than the notes. One flush does it: the state's frame follows the notes' frames in
    /// the journal, and a journal is read up to its first frame that is not whole, so a state
    /// that survives a crash has every frame before it.
    package func saveTransportState(_ bytes: [UInt8]) throws(NoteLibraryError) {
        try library.append(.transport(0..<0), blob: bytes)
        try library.syncJournal()
    }

    /// The sync engine's saved view of the devices in the zone, nil when none.
    package var fleetState: [UInt8]? { library.state.index.fleet }

    /// Keeps the sync engine's view of the devices in the zone; durable with the next flush.
    package func saveFleetState(_ bytes: [UInt8]) throws(NoteLibraryError) {
        try library.append(.fleet(0..<0), blob: bytes)
    }
}
