/// Folding other devices' changes into the library's notes.
extension NoteSyncCore {
    /// Merges a record from the server (change feed, or a fetch) into the library's note, or
    /// adds the note; returns the visible change (also recorded in the report), nil if none.
    /// A note with unsaved changes is merged as a conflict would be, so nothing typed is lost;
    /// app fields stamped on both sides keep the later change of each. Throws, changing nothing,
    /// when the record cannot be read (damaged, newer than this library, asset not downloaded);
    /// the failure is also named in the report's ``NoteSyncReport/failures`` and the caller
    /// goes on with the other records. Records of another type are passed over.
    ///
    /// The base kept for the next save is the newer of the one held and `stored`: a record
    /// older than the base (by the server's modification time, when both carry one; records
    /// can arrive late and out of order) is merged in, which is harmless, but does not replace
    /// the base, so the next save is not built on a change tag the server has moved past.
    @discardableResult
    public mutating func receive(_ stored: CloudRecord) throws(NoteSyncError) -> NoteSyncChange? {
        do {
            return try receiveRecord(stored)
        } catch {
            noteFailed(error, name: stored.recordName)
            throw error
        }
    }

    /// ``receive(_:)`` without the report of its failure.
    mutating func receiveRecord(_ stored: CloudRecord) throws(NoteSyncError) -> NoteSyncChange? {
        if stored.recordType == DeviceSchema.recordType {
            try receiveDevice(stored)
            return nil
        }
        guard stored.recordType == configuration.recordType else { return nil }
        let name = stored.recordName
        do {
            try checkReadable(stored)
        } catch {
            if error.code == .newerVersionAvailable { try rememberSkipped(name) }
            throw error
        }
        var statistics = self.statistics
        var report = self.report
        defer {
            self.statistics = statistics
            self.report = report
        }
        let configuration = self.configuration
        let now = self.now
        return try access { (access) throws(NoteSyncError) -> NoteSyncChange? in
            let local = access.state(of: name)
            if let tag = stored.recordChangeTag, local?.serverTag == tag { return nil } // our own save, or seen
            try Self.sawPayload(of: stored, access, configuration: configuration, now: now)
            statistics.recordsFetched += 1
            report.fetched += 1
            do {
                guard let local else {
                    if let deleted = access.pendingDeletes().first(where: { $0.name == name }) {
                        // The version this device deleted, echoed back: nothing new.
                        if deleted.changeTag != nil && deleted.changeTag == stored.recordChangeTag { return nil }
                        // Changed elsewhere, and this device deleted it without seeing that change.
                        if configuration.deleteConflictPolicy == .deleteWins { return nil }
                        statistics.notesResurrected += 1
                        report.droppedDeletes.insert(name)
                    }
                    let text = try Self.text(from: stored, replica: access.library.replica, clock: access.library.newClock())
                    try access.createSynced(name, note: text, fields: NoteFieldStamps.updates(from: stored, over: nil), server: stored,
                                            unsaved: try Self.awaitsSending(text, base: stored, access: access, configuration: configuration, now: now))
                    report.noteChanged(name, .added)
                    return .added
                }
                let before = try access.note(name)
                let metadata = try access.server(of: name)
                let remote: NoteText
                var base: CloudRecord
                if local.unsaved {
                    // Local changes meet a newer server record: merge as a conflict would.
                    let form = try Self.writtenForm(access, configuration: configuration, now: now)
                    let client = try Self.makeRecord(for: before, name: name, state: local, basedOn: metadata,
                                                     configuration: configuration, form: form)
                    let ancestor = metadata.flatMap { ServerMetadata(record: $0).isPlainText ? $0 : nil }
                    let merged = try Self.merge(RecordConflict(ancestor: ancestor, client: client, server: stored),
                                                limits: configuration.recordLimits, mirror: configuration.textMirror, form: form)
                    remote = merged.note
                    base = merged.record
                } else {
                    remote = try Self.text(from: stored, replica: access.library.replica, clock: access.library.newClock())
                    base = stored
                }
                if let metadata, Self.isNewer(metadata, than: stored) { base = metadata } // delivered late: keep the newer base
                var note = before
                do {
                    try note.merge(remote, recordingPatch: false)
                } catch {
                    throw NoteSyncError(.recordUnreadable, noteName: name, "the server's record contradicts the local note: \(error)")
                }
                try Self.checkLimits(note, name: name, limits: configuration.recordLimits)
                // The server holds every local change only when its state covers the merge.
                // A note whose compaction proposal waits for this device is sent back (seen vector only).
                let awaits = try Self.awaitsSending(note, base: base, access: access, configuration: configuration, now: now)
                let covered = !local.unsaved && remote.version.includesCharacters(of: note.version) && remote.string == note.string && !awaits
                try access.recordSynced(name, merged: note, fields: NoteFieldStamps.updates(from: stored, over: local),
                                        confirms: covered ? local.revision : nil, server: base)
                guard note.string != before.string else { return nil }
                report.noteChanged(name, .textChanged)
                return .textChanged
            } catch {
                throw NoteSyncError(mixed: error, note: name)
            }
        }
    }

    /// Whether `known` (the base held) is a later server version than `arriving`: both carry the
    /// server's modification time and `known`'s is later. Without both times the arriving
    /// record is taken (it is what the server sent last).
    static func isNewer(_ known: CloudRecord, than arriving: CloudRecord) -> Bool {
        guard known.recordChangeTag != nil, let knownTime = known.modified?.timestamp,
              let arrivingTime = arriving.modified?.timestamp else { return false }
        return knownTime > arrivingTime
    }

    /// A note was deleted on the server; returns `.removed` when the local note went away
    /// (a note with unsaved changes follows the delete policy).
    @discardableResult
    public mutating func receiveDeletion(of name: String) throws(NoteSyncError) -> NoteSyncChange? {
        do {
            return try receiveDeletionOf(name)
        } catch {
            noteFailed(error, name: name)
            throw error
        }
    }

    /// ``receiveDeletion(of:)`` without the report of its failure.
    mutating func receiveDeletionOf(_ name: String) throws(NoteSyncError) -> NoteSyncChange? {
        sent[name] = nil
        if try receiveDeviceDeletion(name) { return nil }
        let policy = configuration.deleteConflictPolicy
        let outcome = try updateFleet { (state, access) throws(NoteSyncError) -> DeletionOutcome in
            // A note kept from another account is not this zone's record.
            guard state.localOnly[name] == nil else { return .none }
            do throws(NoteLibraryError) {
                try access.deleteWasSent(name)
                guard let local = access.state(of: name) else { return .none }
                if local.unsaved {
                    return try Self.resolveDeletedWhileEdited(name, policy: policy, in: access)
                }
                try access.removeDeletedOnServer(name)
                return .removed
            } catch {
                throw NoteSyncError(library: error)
            }
        }
        return record(outcome, name: name) ? nil : .removed
    }

    /// What became of a note deleted on the server.
    enum DeletionOutcome {
        case none, removed, resurrected, dropped
    }

    /// Counts and reports `outcome`; returns whether the note is still there.
    mutating func record(_ outcome: DeletionOutcome, name: String) -> Bool {
        switch outcome {
        case .none:
            return true
        case .resurrected:
            statistics.notesResurrected += 1
            return true
        case .dropped:
            statistics.editsDroppedByDelete += 1
            report.noteChanged(name, .removed)
            return false
        case .removed:
            report.noteChanged(name, .removed)
            return false
        }
    }

    /// The record was deleted on the server while this device had unsaved changes: brought back
    /// (`.editResurrects`, created again at the next save) or dropped (`.deleteWins`).
    static func resolveDeletedWhileEdited(_ name: String, policy: NoteSyncConfiguration.DeleteConflictPolicy,
                                          in access: LibrarySyncAccess) throws(NoteLibraryError) -> DeletionOutcome {
        switch policy {
        case .editResurrects:
            if let base = try access.server(of: name) {
                try access.recordSynced(name, merged: nil, fields: [], confirms: nil, server: base.withoutServerIdentity())
            }
            return .resurrected
        case .deleteWins:
            try access.removeDeletedOnServer(name)
            return .dropped
        }
    }

    /// The change feed restarted from the beginning (expired or foreign token, zone recreated
    /// elsewhere) and has been read to its end: notes it did not contain (`seen`) are no longer
    /// on the server and are marked to be created again.
    mutating func feedRestarted(seen: Set<String>) throws(NoteSyncError) {
        try updateFleet { state, _ in if !seen.contains(state.deviceID) { state.ownRecord = nil } }
        try access { (access) throws(NoteSyncError) in
            do throws(NoteLibraryError) {
                for name in access.names() where !seen.contains(name) && access.state(of: name)?.serverTag != nil {
                    try Self.forgetServerIdentity(of: name, in: access)
                }
            } catch {
                throw NoteSyncError(library: error)
            }
        }
    }
}
