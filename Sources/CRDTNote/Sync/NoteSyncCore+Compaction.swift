/// Compaction in the sync path (Docs/FORMAT.md §4.7, "When tombstones settle"): before a note's
/// record is made, this device records in the note's ledger what it has seen and drops what
/// every counted device has seen; a received note whose pending proposal waits for this device
/// is sent back. Nothing of it happens while the fleet's format is below 3 or the devices in the
/// zone are not known yet.
extension NoteSyncCore {
    /// The devices that count for compaction, each as the replica ids it writes with: this
    /// device (every replica that wrote through its library) and every other device whose
    /// record was active within the activity window. Nil when compaction waits: the format
    /// written (`form`) is below 3, so older readers must read the payload, or this device
    /// does not know the devices in the zone yet.
    static func compactionDevices(_ state: FleetState, form: RecordForm, configuration: NoteSyncConfiguration,
                                  now: Int64) -> [Set<ReplicaID>]? {
        guard form.format.rawValue >= 3, state.knowsFleet(now: now) else { return nil }
        let window = FleetState.milliseconds(configuration.activityWindow)
        var devices = [Set(state.replicas.map(ReplicaID.init(rawValue:)))]
        for known in state.devices.values where now - known.modified <= window {
            // A device record listing no replica accounts for no copy: it keeps everything alive.
            devices.append(Set(known.announcement.replicas.map(ReplicaID.init(rawValue:))))
        }
        return devices
    }

    /// Whether notes whose last server record is `base` may be compacted here, their records
    /// carrying history in `history`: not when the record (the library's server metadata) has
    /// a formatting field, which the library keeps only when it cannot read it (readable
    /// formatting is in the note), so it cannot tell which tombstones the formatting names
    /// (Docs/FORMAT.md §10.6); nor when `note` holds history and its records carry history
    /// version 1, which cannot carry the shadows that place the deleted text once its
    /// tombstones go (Docs/FORMAT.md §11.6): the past of the compacted text would not read on
    /// the other devices; nor when the note or its record holds history a newer release wrote
    /// (``holdsUnreadableHistory(_:basedOn:)``).
    static func mayCompact(_ note: NoteText, basedOn base: CloudRecord?, history: HistoryFormat) -> Bool {
        (history == .version2 || note.history.isEmpty) && !(base.map { NoteRecord($0).hasFormatting } ?? false)
            && !holdsUnreadableHistory(note, basedOn: base)
    }

    /// Whether the note or its record holds a history payload a newer release wrote: its events
    /// and shadows may describe tombstones this device would drop, and it cannot read them to
    /// keep their shadows, so the note waits (as under formatting it cannot read).
    static func holdsUnreadableHistory(_ note: NoteText, basedOn base: CloudRecord?) -> Bool {
        let record = base.map { NoteRecord($0).heldHistoryPayloads() } ?? []
        return (note.history.pending + record).contains { (PayloadHeader.requiredReaderVersion(of: $0) ?? 0) > NoteFormat.readerVersion }
    }

    /// Note `name` as its record is to be written (inside an access): its ledger records that
    /// this device (`access.library.replica`) holds what it holds, and the proposal every
    /// counted device has seen is dropped (`devices`: ``compactionDevices(_:form:configuration:now:)``);
    /// the library keeps the result. Unchanged when `devices` is nil or the note has neither a
    /// ledger nor a deleted character; only the seen vector changes when it may not be
    /// compacted (``mayCompact(_:basedOn:history:)``, with the layout `form` carries history
    /// in). Compactions re-point group chains when `form`'s format allows it (format 7: every
    /// active device reads the ledger's list; Docs/FORMAT.md §4.7, "Re-pointed right origins").
    static func compactedForSending(_ note: NoteText, name: String, base: CloudRecord?, devices: [Set<ReplicaID>]?,
                                    form: RecordForm, _ access: LibrarySyncAccess) throws(NoteLibraryError) -> NoteText {
        // A note that never deleted anything (and holds no ledger) has nothing to settle: it
        // stays without a ledger (format 2 or 6, not 3).
        guard let devices, note.ledger != nil || note.elementCount > note.scalarCount else { return note }
        var compacted = note
        compacted.recordSeen(by: access.library.replica)
        var dropped = false
        if mayCompact(note, basedOn: base, history: form.history) {
            // Re-pointing spares what the history reads the past of: all of it, decoded, which is
            // done only when the step compacts, or may propose (tombstones held, none proposed).
            var repointing = ChainRepointing.off
            let proposes = compacted.ledger?.proposed.isEmpty != false && compacted.elementCount > compacted.scalarCount
            if form.format.allowsRepointing, compacted.isSettled(devices: devices) || proposes {
                let readable = note.history.readable()
                if readable.unreadable.isEmpty { repointing = .sparing(readable.history) }
            }
            do {
                dropped = try compacted.compactIfSettled(devices: devices, repointing: repointing)
            } catch {
                // Runs that prove corrupt: the note is written as it is, and making its record
                // reports the damage.
                return note
            }
        }
        guard try access.recordCompaction(name, note: compacted, compacted: dropped) else { return note }
        return compacted
    }

    /// Whether received note `note` (merged into the library's, based on `base`) is to be sent
    /// back although the server holds all of it: its pending proposal waits for this device's
    /// seen vector, or has settled and this device would drop it (the upload carries the
    /// compaction and, when tombstones are left, the next proposal).
    static func awaitsSending(_ note: NoteText, base: CloudRecord?, access: LibrarySyncAccess, configuration: NoteSyncConfiguration,
                              now: Int64) throws(NoteSyncError) -> Bool {
        guard note.ledger != nil else { return false }
        let state = try loadFleet(access, replica: access.library.replica, now: now)
        let form = try writtenForm(access, configuration: configuration, now: now)
        guard let devices = compactionDevices(state, form: form, configuration: configuration, now: now) else { return false }
        return note.awaitsSeen(by: access.library.replica) || (mayCompact(note, basedOn: base, history: form.history) && note.isSettled(devices: devices))
    }
}
