/// Saving: which record to send, what a saved record confirms, what a failed save needs.
extension NoteSyncCore {
    /// The record to send for a note (its text and app fields written on the server metadata
    /// the library keeps), or nil when the note is gone, has nothing unsaved, was kept from
    /// another account, or nothing is sent now (signed out, zone awaiting consent). Makes every
    /// change in the library durable first, so nothing reaches the server that a crash could
    /// take back. Remembers the record and the note's revision for ``recordWasSaved(_:)``.
    /// Throws when the record cannot be written (e.g. the base record is newer than this library).
    /// The name ``announcementDue()`` returns gives this device's record.
    public mutating func recordToSend(for name: String) throws(NoteSyncError) -> CloudRecord? {
        if try isOwnDevice(name) {
            guard !(try readFleet { $0.sendingBlocked }) else { return nil }
            let record = try deviceRecordToSend()
            sent[name] = SentRecord(revision: 0, record: record)
            return record
        }
        let configuration = self.configuration
        let now = self.now
        let built = try updateFleet { (state, access) throws(NoteSyncError) -> SentRecord? in
            guard let local = access.state(of: name), local.unsaved, !state.sendingBlocked, state.localOnly[name] == nil else { return nil }
            do {
                let form = try Self.writtenForm(access, configuration: configuration, now: now)
                let base = try access.server(of: name)
                let note = try Self.compactedForSending(try access.note(name), name: name, base: base,
                                                        devices: Self.compactionDevices(state, form: form, configuration: configuration, now: now),
                                                        form: form, access)
                try access.flush()
                let record = try Self.makeRecord(for: note, name: name, state: local, basedOn: base,
                                                 configuration: configuration, form: form)
                return SentRecord(revision: local.revision, record: record)
            } catch {
                throw NoteSyncError(mixed: error, note: name)
            }
        }
        sent[name] = built
        return built?.record
    }

    /// The server saved a note's record: it becomes what the note builds on, and the note is
    /// confirmed unless it was changed after ``recordToSend(for:)``. A saved record that came
    /// back with only some keys (or asset fields without their bytes) is completed from the
    /// record that was sent: the server holds exactly those values under the new change tag.
    public mutating func recordWasSaved(_ saved: CloudRecord) throws(NoteSyncError) {
        let name = saved.recordName
        let sentRecord = sent.removeValue(forKey: name)
        var version = saved
        if let sentRecord, Self.complete(&version, from: sentRecord.record) { statistics.savedRecordsCompleted += 1 }
        if saved.recordType == DeviceSchema.recordType, try isOwnDevice(name) {
            try ownDeviceSaved(version)
            return
        }
        let known = try updateFleet { (state, access) throws(NoteSyncError) -> Bool in
            guard access.state(of: name) != nil else { return false } // deleted locally meanwhile: the delete follows
            // A save of the previous account finishing after a switch: its metadata is not kept.
            guard state.localOnly[name] == nil else { return false }
            do throws(NoteLibraryError) {
                try access.recordSynced(name, merged: nil, fields: [], confirms: sentRecord?.revision, server: version)
            } catch {
                throw NoteSyncError(library: error)
            }
            return true
        }
        guard known else { return }
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
    /// applies the delete policy on the way. Permanent failures are recorded in the report
    /// (`.giveUp` in its ``NoteSyncReport/failures``, `.stop` in its ``NoteSyncReport/errors``).
    public mutating func recordSaveFailed(_ name: String, error: RecordStoreError) -> SaveFailureDecision {
        let decision = saveFailureDecision(name, error: error)
        if case .stop(let stop) = decision { report.errors.append(stop) }
        return decision
    }

    /// What a failed save of note `name` needs (``recordSaveFailed(_:error:)``).
    mutating func saveFailureDecision(_ name: String, error: RecordStoreError) -> SaveFailureDecision {
        sent[name] = nil
        do {
            if try isOwnDevice(name) { return deviceSaveFailed(name, error: error) }
        } catch {
            return .stop(error)
        }
        if error.zoneErrorCode == .zoneNotFound || error.zoneErrorCode == .userDeletedZone { return .recreateZone }
        switch error.code {
        case .serverRecordChanged:
            guard let conflict = error.conflict else { return .retryLater(after: nil) }
            return mergeConflict(conflict, name: name)
        case .unknownItem:
            do {
                return try resolveDeletedWhileEdited(name) ? .sendAgain : .done
            } catch {
                return .stop(error)
            }
        case .limitExceeded:
            noteFailed(NoteSyncError(.recordTooLarge, noteName: name, storeError: error, "the note's record is over the server's limits: \(error)"), name: name)
            return .giveUp
        default:
            if error.isTransient { return .retryLater(after: error.retryAfterSeconds.map { .seconds($0) }) }
            return .stop(NoteSyncError(.storeFailure, noteName: name, storeError: error, "cannot save note: \(error)"))
        }
    }

    /// Merges a save conflict into the library's note; the next save builds on the merged
    /// record, which carries the server's change tag. Asset bytes the server record lacks are
    /// taken from the record sent when the checksums match; a server record still lacking one
    /// must be fetched (`.fetchServerRecord`); an ancestor lacking one is dropped (two-way merge).
    mutating func mergeConflict(_ conflict: RecordConflict, name: String) -> SaveFailureDecision {
        var conflict = conflict
        Self.fillAssetBytes(&conflict.server, from: [conflict.client])
        if var ancestor = conflict.ancestor {
            Self.fillAssetBytes(&ancestor, from: [conflict.client])
            conflict.ancestor = Self.lacksAssetBytes(ancestor) ? nil : ancestor
        }
        if Self.lacksAssetBytes(conflict.server) {
            statistics.recordsRefetched += 1
            return .fetchServerRecord
        }
        let configuration = self.configuration
        let now = self.now
        let outcome: Result<Bool, NoteSyncError>
        do {
            try checkReadable(conflict.server)
            outcome = .success(try access { (access) throws(NoteSyncError) -> Bool in
                guard let local = access.state(of: name) else { return false }
                do {
                    try Self.sawPayload(of: conflict.server, access, configuration: configuration, now: now)
                    let form = try Self.writtenForm(access, configuration: configuration, now: now)
                    let merged = try Self.merge(conflict, limits: configuration.recordLimits, mirror: configuration.textMirror, form: form)
                    let before = try access.note(name)
                    var note = before
                    do {
                        try note.merge(merged.note, recordingPatch: false)
                    } catch {
                        throw NoteSyncError(.recordUnreadable, noteName: name, "the merged record contradicts the local note: \(error)")
                    }
                    try Self.checkLimits(note, name: name, limits: configuration.recordLimits)
                    try access.recordSynced(name, merged: note, fields: NoteFieldStamps.updates(from: conflict.server, over: local),
                                            confirms: nil, server: merged.record)
                    return note.string != before.string
                } catch {
                    throw NoteSyncError(mixed: error, note: name)
                }
            })
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let changed):
            if changed { report.noteChanged(name, .textChanged) }
            statistics.conflictsMerged += 1
            report.conflictsMerged += 1
            return .sendAgain
        case .failure(let error) where error.code == .persistFailed:
            return .stop(error)
        case .failure(let error):
            // The server record is newer than this library, unreadable, or the merge would exceed
            // the limits: the local note and the server record are left as they were.
            noteFailed(error, name: name)
            return .giveUp
        }
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

    /// The record was deleted on the server while this device had unsaved changes. Returns
    /// whether the note is to be sent again (`.editResurrects`).
    mutating func resolveDeletedWhileEdited(_ name: String) throws(NoteSyncError) -> Bool {
        let policy = configuration.deleteConflictPolicy
        let outcome = try access { (access) throws(NoteSyncError) -> DeletionOutcome in
            guard access.state(of: name) != nil else { return .none }
            do throws(NoteLibraryError) {
                return try Self.resolveDeletedWhileEdited(name, policy: policy, in: access)
            } catch {
                throw NoteSyncError(library: error)
            }
        }
        if case .none = outcome { return false }
        return record(outcome, name: name)
    }
}
