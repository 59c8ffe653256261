/// A note's history in the library (Docs/LIBRARY.md, "History"): what a call adds goes into
/// `.history` journal frames (history payloads, Docs/FORMAT.md §11.2), written before the frame
/// of the change they belong to; compaction unites a note's frames with its history blob,
/// trims the union by ``NoteLibrary/Options/historyRetention`` and writes one new blob. Loading
/// a note hands it the blob's and the frames' payloads unparsed.
extension NoteLibrary {
    /// Journals the history `note` gained over `before` (the library's note `number`): one
    /// frame for new deletion events, one per merged-in payload this library cannot read.
    func journalHistory(of note: NoteText, after before: NoteText, number: UInt32) throws(NoteLibraryError) {
        let payloads = note.history.payloadsGained(over: before.history)
        guard !payloads.isEmpty else { return }
        try upgradeFormatIfOlder()
        for payload in payloads { try append(.history(note: number, payload: 0..<0), blob: payload) }
    }

    /// Hands `note` (the library's note of `entry`) the history payloads the library keeps for
    /// it, unparsed. A history blob that is missing or fails its check is the note's damage.
    func loadHistory(of entry: LibraryNote, into note: inout NoteText) throws(NoteLibraryError) {
        if let ref = entry.history {
            let bytes = try blob(ref, of: entry, "history")
            let payloads: [[UInt8]]
            do {
                payloads = try HistoryBlob.payloads(in: bytes)
            } catch {
                let path = LibraryFormat.packFile(ref.generation)
                throw damaged(entry, path: path, "its history in \(path) cannot be read: \(error)")
            }
            for payload in payloads { note.history.addPending(payload) }
        }
        for range in entry.historyJournal { note.history.addPending(Array(state.journal[range])) }
    }

    /// The history blob compaction writes for `note`: its readable history united and trimmed
    /// by the library's policy, and every payload it cannot read as it is (nothing another
    /// device wrote is dropped); nil when there is nothing to keep.
    func historyBlob(for note: NoteText) -> [UInt8]? {
        let readable = note.history.readable()
        let kept = note.retained(readable.history, by: options.historyRetention ?? .default)
        let payloads = (kept.deletions.isEmpty ? [] : [kept.encoded(format: LibraryFormat.history)]) + readable.unreadable.map(\.bytes)
        return payloads.isEmpty ? nil : HistoryBlob.encode(payloads)
    }

    /// Compacts a library an older crdtnote wrote before an entry this format adds is written,
    /// so an older reader never meets an entry kind it does not know in a file that claims it
    /// can read it (one compaction, whatever the notes).
    func upgradeFormatIfOlder() throws(NoteLibraryError) {
        guard state.index.writtenMinimumReader < LibraryFormat.minimumReader else { return }
        try syncJournal()
        try compactLocked()
    }
}

extension NoteHistory {
    /// What this history holds that `before` lacks, as history payloads to keep: the new
    /// events and shadows (Docs/FORMAT.md §11.6) as one payload (those merged in from readable
    /// payloads included), and each new payload that does not decode, verbatim. Cheap when only
    /// local deletions were logged.
    func payloadsGained(over before: NoteHistory) -> [[UInt8]] {
        let newPending = pending.filter { !before.pending.contains($0) }
        let shadowsGained = self.shadowsGained(over: before)
        if newPending.isEmpty, let from = localTail(after: before) {
            guard from < deletions.count || !shadowsGained.isEmpty else { return [] }
            var gained = NoteHistory(deletions: Array(deletions[from...]))
            gained.formUnion(shadowsGained)
            return [gained.encoded(format: LibraryFormat.history)]
        }
        let known = Set(before.readable().history.deletions)
        var gained = NoteHistory(deletions: deletions.filter { !known.contains($0) })
        gained.formUnion(shadowsGained)
        var unreadable: [[UInt8]] = []
        for bytes in newPending {
            do throws(PayloadError) {
                let decoded = try NoteHistory(encoded: bytes)
                gained.formUnion(NoteHistory(deletions: decoded.deletions.filter { !known.contains($0) }))
                gained.formUnion(decoded.shadowsGained(over: before))
            } catch {
                unreadable.append(bytes)
            }
        }
        return (gained.isEmpty ? [] : [gained.encoded(format: LibraryFormat.history)]) + unreadable
    }

    /// Where the events local deletions made since `before` start, when that is all that changed
    /// its events: local deletions append, or join the last event (``NoteHistory/log(_:)``), so
    /// they are the tail, from `before`'s last event on when a deletion joined it. Nil when the
    /// events changed otherwise (a union), or `before` had none and this history has some.
    private func localTail(after before: NoteHistory) -> Int? {
        let n = before.deletions.count
        guard n > 0 else { return deletions.isEmpty ? 0 : nil }
        guard n <= deletions.count else { return nil }
        if deletions[n - 1] == before.deletions[n - 1] { return n }
        return deletions[n - 1].holds(before.deletions[n - 1]) ? n - 1 : nil
    }

    /// The shadows and dropped clock entries this history holds that `before` does not (as
    /// decoded: a shadow that normalizing joined to its neighbour counts as new, which only
    /// repeats what a later union takes once).
    func shadowsGained(over before: NoteHistory) -> NoteHistory {
        guard shadows != before.shadows || shadowStamps != before.shadowStamps else { return NoteHistory() }
        let knownShadows = Set(before.shadows)
        var stamps: [ReplicaID: [ClockLogEntry]] = [:]
        for (replica, entries) in shadowStamps {
            let known = Set(before.shadowStamps[replica] ?? [])
            let new = entries.filter { !known.contains($0) }
            if !new.isEmpty { stamps[replica] = new }
        }
        return NoteHistory(shadows: shadows.filter { !knownShadows.contains($0) }, shadowStamps: stamps)
    }
}

/// A note's history blob in a pack (Docs/LIBRARY.md, "Layout on disk"): one or more history
/// payloads (Docs/FORMAT.md §11.2), each as a `VarUInt` length and its bytes.
enum HistoryBlob {
    /// `payloads` as one blob.
    static func encode(_ payloads: [[UInt8]]) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: payloads.reduce(0) { $0 + $1.count + 5 })
        for payload in payloads { out.writeLengthPrefixed(payload) }
        return out.bytes
    }

    /// The payloads of a blob (not decoded).
    static func payloads(in blob: ArraySlice<UInt8>) throws(BinaryDecodingError) -> [[UInt8]] {
        var reader = ByteReader(Array(blob))
        var out: [[UInt8]] = []
        while reader.remaining > 0 { out.append(Array(try reader.readLengthPrefixed("history payload"))) }
        return out
    }
}
