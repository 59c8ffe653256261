/// Saving: which record to send, what a saved record confirms, what a failed save needs.
extension NoteSyncCore {
    /// The record to send for a note (its text written on its base record), or nil when the
    /// note is gone or has nothing unsaved. Remembers it and the note's revision for
    /// ``recordWasSaved(_:)``. Throws when the record cannot be written (e.g. the base record
    /// is newer than this library).
    public mutating func recordToSend(for name: String) throws(NoteSyncError) -> CloudRecord? {
        guard let note = notes[name], note.hasUnsavedChanges else { return nil }
        let record = try Self.makeRecord(for: note.text, name: name, basedOn: note.base, recordType: configuration.recordType,
                                         limits: configuration.recordLimits, mirror: configuration.textMirror)
        sent[name] = SentRecord(revision: note.revision, record: record)
        return record
    }

    /// The server saved a note's record: it becomes the note's base, and the note is confirmed
    /// unless it was edited after ``recordToSend(for:)``. A saved record that came back with
    /// only some keys (or asset fields without their bytes) is completed from the record that
    /// was sent: the server holds exactly those values under the new change tag.
    public mutating func recordWasSaved(_ saved: CloudRecord) {
        let name = saved.recordName
        let sentRecord = sent.removeValue(forKey: name)
        guard var note = notes[name] else { return } // deleted locally meanwhile: the delete follows
        var version = saved
        if let sentRecord, Self.complete(&version, from: sentRecord.record) { statistics.savedRecordsCompleted += 1 }
        note.base = version
        if let sentRecord, note.revision == sentRecord.revision { note.hasUnsavedChanges = false }
        notes[name] = note
        statistics.recordsSaved += 1
        report.saved += 1
    }

    /// Adds to `saved` the fields (and asset bytes) of `sent` it lacks; returns whether any.
    static func complete(_ saved: inout CloudRecord, from sent: CloudRecord) -> Bool {
        var changed = false
        for name in sent.orderedFieldNames {
            guard let field = sent.fields[name] else { continue }
            guard let have = saved.fields[name] else {
                saved.fields[name] = field
                if !saved.fieldOrder.contains(name) { saved.fieldOrder.append(name) }
                changed = true
                continue
            }
            if case .asset(var ref) = have.value, ref.bytes == nil, case .asset(let sentRef) = field.value, let bytes = sentRef.bytes {
                ref.bytes = bytes
                saved.fields[name]?.value = .asset(ref)
                changed = true
            }
        }
        return changed
    }

    /// Decides what a failed save of note `name` needs; merges conflicts into the note and
    /// applies the delete policy on the way. Permanent failures are recorded in the report.
    public mutating func recordSaveFailed(_ name: String, error: RecordStoreError) -> SaveFailureDecision {
        sent[name] = nil
        if error.zoneErrorCode == .zoneNotFound || error.zoneErrorCode == .userDeletedZone { return .recreateZone }
        switch error.code {
        case .serverRecordChanged:
            guard let conflict = error.conflict else { return .retryLater(after: nil) }
            return mergeConflict(conflict, name: name)
        case .unknownItem:
            return resolveDeletedWhileEdited(name) ? .sendAgain : .done
        case .limitExceeded:
            noteFailed(NoteSyncError(.recordTooLarge, noteName: name, storeError: error, "the note's record is over the server's limits: \(error)"), name: name)
            return .giveUp
        default:
            if error.isTransient { return .retryLater(after: error.retryAfterSeconds.map { .seconds($0) }) }
            return .stop(NoteSyncError(.storeFailure, noteName: name, storeError: error, "cannot save note: \(error)"))
        }
    }

    /// Merges a save conflict into the local note; the next save builds on the merged record,
    /// which carries the server's change tag. Asset bytes the conflict's records lack are taken
    /// from this device's records when the checksums match; a server record still lacking one
    /// must be fetched (`.fetchServerRecord`); an ancestor lacking one is dropped (two-way merge).
    mutating func mergeConflict(_ conflict: RecordConflict, name: String) -> SaveFailureDecision {
        guard var note = notes[name] else { return .done }
        var conflict = conflict
        let known = [conflict.client] + (note.base.map { [$0] } ?? [])
        Self.fillAssetBytes(&conflict.server, from: known)
        if var ancestor = conflict.ancestor {
            Self.fillAssetBytes(&ancestor, from: known)
            conflict.ancestor = Self.lacksAssetBytes(ancestor) ? nil : ancestor
        }
        if Self.lacksAssetBytes(conflict.server) {
            statistics.recordsRefetched += 1
            return .fetchServerRecord
        }
        let merged: (record: CloudRecord, note: NoteText)
        do {
            merged = try Self.merge(conflict, limits: configuration.recordLimits, mirror: configuration.textMirror)
        } catch {
            // The server record is newer than this library or unreadable: leave both alone.
            noteFailed(error, name: name)
            return .giveUp
        }
        let before = note.text.string
        // A merged state that contradicts the local note or would exceed the limits leaves the
        // local note and the server record as they were.
        do {
            try note.text.merge(merged.note, recordingPatch: false)
        } catch {
            noteFailed(NoteSyncError(.recordUnreadable, noteName: name, "the merged record contradicts the local note: \(error)"), name: name)
            return .giveUp
        }
        do {
            try Self.checkLimits(note.text, name: name, limits: configuration.recordLimits)
        } catch {
            noteFailed(error, name: name)
            return .giveUp
        }
        note.base = merged.record
        if note.text.string != before { report.noteChanged(name, .textChanged) }
        notes[name] = note
        statistics.conflictsMerged += 1
        report.conflictsMerged += 1
        return .sendAgain
    }

    /// Whether an ASSET field of `record` has no bytes.
    static func lacksAssetBytes(_ record: CloudRecord) -> Bool {
        record.fields.values.contains { if case .asset(let ref) = $0.value { return ref.bytes == nil }; return false }
    }

    /// Gives asset fields without bytes the bytes of a `known` record's same field with the same checksum.
    static func fillAssetBytes(_ record: inout CloudRecord, from known: [CloudRecord]) {
        for (name, field) in record.fields {
            guard case .asset(var ref) = field.value, ref.bytes == nil, let checksum = ref.fileChecksum else { continue }
            for other in known {
                if case .asset(let otherRef)? = other[field: name], otherRef.fileChecksum == checksum, let bytes = otherRef.bytes {
                    ref.bytes = bytes
                    record.fields[name]?.value = .asset(ref)
                    break
                }
            }
        }
    }

    /// The record was deleted on the server while this device had unsaved edits. Returns
    /// whether the note is to be sent again (`.editResurrects`).
    mutating func resolveDeletedWhileEdited(_ name: String) -> Bool {
        guard var note = notes[name] else { return false }
        switch configuration.deleteConflictPolicy {
        case .editResurrects:
            note.base = note.base?.withoutServerIdentity()
            notes[name] = note
            statistics.notesResurrected += 1
            return true
        case .deleteWins:
            notes[name] = nil
            report.noteChanged(name, .removed)
            statistics.editsDroppedByDelete += 1
            return false
        }
    }
}
