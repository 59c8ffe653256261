/// Reading the index and the journal into memory, at open and whenever another process has
/// appended or compacted. Called with the folder's lock held.
extension NoteLibrary {
    /// Reads the index and its journal from scratch; with `cleaning` (after a compaction),
    /// removes files the index does not refer to (what the compaction replaced, and what an
    /// earlier compaction cut short by a crash left).
    func reload(cleaning: Bool) throws(NoteLibraryError) {
        guard let bytes = try disk.read(LibraryFormat.indexFile) else {
            throw NoteLibraryError(.notALibrary, "\(folder) holds no note library (no \(LibraryFormat.indexFile) file)", path: folder)
        }
        let index: LibraryIndex
        do {
            index = try LibraryIndex.decode(bytes)
        } catch {
            throw disk.error(error, file: LibraryFormat.indexFile)
        }
        state.index = index
        state.notes = [:]
        state.numbers = [:]
        for note in index.notes {
            state.notes[note.number] = note
            state.numbers[note.name] = note.number
        }
        state.cache = [:]
        state.cacheOrder = []
        state.report.damagedNotes = [:]
        let name = LibraryFormat.journalFile(index.generation)
        guard let journal = try disk.read(name) else {
            throw NoteLibraryError(.corrupt, "\(disk.path(name)), the journal the index names, is missing", path: disk.path(name))
        }
        do {
            try JournalFraming.checkHeader(journal, generation: index.generation)
        } catch {
            throw disk.error(error, file: name)
        }
        state.journalName = name
        state.journal = Array(journal[0..<JournalFraming.headerSize])
        _ = try absorb(journal, from: JournalFraming.headerSize, notify: false)
        // Nothing read is known to be on disk: a process that died may have left unflushed
        // frames, which the next flush must make durable before it acknowledges anything.
        state.syncedEnd = 0
        // The next field change is stamped after every stamp the library holds, whatever the
        // physical clock says after a restart.
        for note in state.notes.values {
            for field in note.fields.values { fieldClock.receive(field.stamp) }
            for stamp in note.removedFields.values { fieldClock.receive(stamp) }
        }
        if cleaning { try removeUnreferencedFiles() }
    }

    /// Reads what other processes appended to the journal, or the whole library again when one
    /// of them compacted it.
    func catchUp() throws(NoteLibraryError) {
        let size = try disk.size(state.journalName)
        guard size != state.journal.count else { return }
        guard let size, size > state.journal.count, let bytes = try disk.read(state.journalName), bytes.count >= state.journal.count else {
            // Replaced by a compaction (and removed), or shorter than what this process read.
            try reload(cleaning: false)
            notify(.reloaded)
            return
        }
        if try absorb(bytes, from: state.journal.count, notify: true) {
            try reload(cleaning: false)
            notify(.reloaded)
        }
    }

    /// Replays the frames of `bytes` (the whole journal) from `start`, keeps the sound ones in
    /// `state.journal`, and cuts a torn end from the file. Returns whether it met the mark of a
    /// compaction (``JournalEntry/superseded(generation:)``): then, when `notify` (catching
    /// up), it stops there so the caller reads the index again.
    private func absorb(_ bytes: [UInt8], from start: Int, notify: Bool) throws(NoteLibraryError) -> Bool {
        let scan = JournalFraming.scan(bytes, from: start)
        state.journal = Array(bytes[0..<scan.end])
        for body in scan.bodies {
            let entry: JournalEntry
            do {
                entry = try JournalEntry.read(state.journal, body: body)
            } catch {
                // A sound frame this library cannot read: keep going, and say where it was.
                state.report.damagedNotes["journal entry at offset \(body.lowerBound)"] = "\(error)"
                continue
            }
            if case .superseded = entry {
                if notify { return true }
                continue
            }
            let change = replay(entry)
            if notify, let change { self.notify(change) }
        }
        if let reason = scan.tornTail {
            state.report.tornBytesCut += bytes.count - scan.end
            state.report.tornReason = reason
            // Never append after bytes that are not frames: keep the sound part only.
            try disk.writeAtomically(state.journal, to: state.journalName)
        }
        return false
    }

    /// Applies one journal entry to the listing, and, when another process appended it, to the
    /// note if it is decoded in memory (this process keeps the notes it edits itself).
    @discardableResult
    func replay(_ entry: JournalEntry, ownAppend: Bool = false) -> NoteLibraryChange? {
        switch entry {
        case .created(let number, let name, let at, let title, let changes):
            guard state.notes[number] == nil, state.numbers[name] == nil else {
                state.report.damagedNotes[name] = "created twice in the journal"
                return nil
            }
            var note = LibraryNote(number: number, name: name, derivedTitle: title, created: at, modified: at, unsaved: true)
            note.revision = 1
            if !changes.isEmpty { note.journal.append(changes) }
            state.notes[number] = note
            state.numbers[name] = number
            state.index.nextNote = max(state.index.nextNote, number &+ 1)
            state.index.pendingDeletes.removeAll { $0 == name }
            state.index.pendingDeleteTags[name] = nil
            return .created(name)
        case .changed(let number, let at, let title, let changes):
            guard var note = state.notes[number] else { return nil }
            // A formatting-only change (in a `.formatted` entry) has no operations.
            if !changes.isEmpty { note.journal.append(changes) }
            note.modified = max(note.modified, at)
            if let title { note.derivedTitle = title }
            note.unsaved = true
            note.revision &+= 1
            state.notes[number] = note
            if !ownAppend, !changes.isEmpty { applyToCached(number, changes) }
            return .changed(note.name)
        case .deleted(let number, _):
            guard let note = state.notes.removeValue(forKey: number) else { return nil }
            state.numbers[note.name] = nil
            state.cache[number] = nil
            if !state.index.pendingDeletes.contains(note.name) { state.index.pendingDeletes.append(note.name) }
            state.index.pendingDeleteTags[note.name] = note.serverTag
            return .deleted(note.name)
        case .titleSet(let number, let title):
            guard var note = state.notes[number] else { return nil }
            note.customTitle = title
            state.notes[number] = note
            return .changed(note.name)
        case .superseded:
            return nil
        case .fieldSet(let number, let key, let value, let stamp):
            guard var note = state.notes[number] else { return nil }
            note.fields[key] = value.map { StampedField(value: $0, stamp: stamp) }
            note.removedFields[key] = value == nil ? stamp : nil
            note.unsaved = true
            note.revision &+= 1
            state.notes[number] = note
            return .changed(note.name)
        case .synced(let number, let at, let title, let confirms, let fields, let server, let changes):
            guard var note = state.notes[number] else { return nil }
            if !changes.isEmpty {
                note.journal.append(changes)
                note.modified = max(note.modified, at)
                if !ownAppend { applyToCached(number, changes) }
            }
            if let title { note.derivedTitle = title }
            for field in fields {
                note.fields[field.key] = field.value.map { StampedField(value: $0, stamp: field.stamp) }
                note.removedFields[field.key] = field.value == nil ? field.stamp : nil
            }
            note.serverJournal = server
            note.serverTag = ServerMetadata.changeTag(in: state.journal[server])
            note.unsaved = confirms != note.revision
            state.notes[number] = note
            return changes.isEmpty && fields.isEmpty && title == nil ? nil : .changed(note.name)
        case .deleteSent(let name):
            state.index.pendingDeletes.removeAll { $0 == name }
            state.index.pendingDeleteTags[name] = nil
            return nil
        case .removed(let number):
            guard let note = state.notes.removeValue(forKey: number) else { return nil }
            state.numbers[note.name] = nil
            state.cache[number] = nil
            state.cacheOrder.removeAll { $0 == number }
            return .deleted(note.name)
        case .transport(let range):
            state.index.transport = Array(state.journal[range])
            return nil
        case .fleet(let range):
            state.index.fleet = Array(state.journal[range])
            return nil
        case .compacted(let number, let snapshot):
            guard var note = state.notes[number] else { return nil }
            note.journalBase = snapshot
            note.journal = []
            note.journalLedger = nil
            state.notes[number] = note
            if !ownAppend { forgetCached(number) }
            return nil
        case .ledger(let number, let ledger):
            guard var note = state.notes[number] else { return nil }
            note.journalLedger = ledger
            state.notes[number] = note
            if !ownAppend { forgetCached(number) }
            return nil
        case .history(let number, let payload):
            guard var note = state.notes[number] else { return nil }
            note.historyJournal.append(payload)
            state.notes[number] = note
            if !ownAppend, var cached = state.cache[number] {
                cached.history.addPending(Array(state.journal[payload]))
                state.cache[number] = cached
            }
            return nil
        case .pendingDelete(let name):
            if state.numbers[name] == nil, !state.index.pendingDeletes.contains(name) { state.index.pendingDeletes.append(name) }
            return nil
        case .formatted(let inner, let formatting):
            // The text change first: its operations name the characters it made.
            let change = replay(inner, ownAppend: ownAppend)
            // A creation refused as damage (a number or name created twice) takes nothing.
            if case .created = inner, change == nil { return nil }
            guard let number = inner.changedNote, var note = state.notes[number] else { return change }
            note.formattingJournal.append(formatting)
            state.notes[number] = note
            if !ownAppend { applyFormattingToCached(number, formatting) }
            return change ?? .changed(note.name)
        }
    }

    /// Merges another process's formatting operations into the copy of note `number` held in
    /// memory, if any.
    private func applyFormattingToCached(_ number: UInt32, _ range: Range<Int>) {
        guard var cached = state.cache[number] else { return }
        do {
            cached.mergeFormatting(try NoteFormatting(encoded: Array(state.journal[range])))
            state.cache[number] = cached
        } catch {
            state.cache[number] = nil  // loaded again from disk, where the damage is reported
        }
    }

    /// Lets go of the copy of note `number` held in memory (another process compacted it or
    /// changed its ledger): it is read again from the journal when asked for.
    private func forgetCached(_ number: UInt32) {
        state.cache[number] = nil
        state.cacheOrder.removeAll { $0 == number }
    }

    /// Applies another process's change set to the copy of note `number` held in memory, if any.
    private func applyToCached(_ number: UInt32, _ changes: Range<Int>) {
        guard var cached = state.cache[number] else { return }
        do {
            try cached.apply(try decodeChanges(changes))
            state.cache[number] = cached
        } catch {
            state.cache[number] = nil  // loaded again from disk, where the damage is reported
        }
    }

    /// The change set stored in `range` of the journal.
    func decodeChanges(_ range: Range<Int>) throws(BinaryDecodingError) -> NoteChanges {
        var reader = ByteReader(state.journal, range: range)
        // Journal entries carry no header: read as format 3, whose compacted ids are optional.
        let set = try ChangeSetCoding.decode(&reader, layout: 3, limits: .default)
        try reader.expectEnd("change set")
        return NoteChanges(changeSet: set)
    }

    /// Removes journals of other generations, packs and snapshot files no note refers to, and
    /// temporary files.
    private func removeUnreferencedFiles() throws(NoteLibraryError) {
        let journal = LibraryFormat.journalFile(state.index.generation)
        for name in try disk.list("") where name.hasPrefix("journal-") && name != journal || name.hasSuffix(".tmp") {
            try disk.remove(name)
        }
        // The files the index on disk names: a note deleted in the journal keeps its blobs
        // until a compaction has made the deletion part of the index (a power loss may yet
        // drop the deletion's frame).
        var kept = Set<String>()
        for note in state.index.notes {
            if case .file(let generation)? = note.snapshot { kept.insert(LibraryFormat.snapshotFile(note: note.number, generation: generation)) }
            for ref in note.blobs { kept.insert(LibraryFormat.packFile(ref.generation)) }
        }
        for name in try disk.list(LibraryFormat.notesFolder) {
            let path = "\(LibraryFormat.notesFolder)/\(name)"
            if !kept.contains(path) { try disk.remove(path) }
        }
    }
}
