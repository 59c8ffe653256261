/// What a note keeps of its past beside the CRDT state (Docs/FORMAT.md §11): the deletions
/// this copy made or merged, with their stamps and the text they removed. Kept out of the
/// payload; encoded in the record's `history` field, which loading never parses.
struct NoteHistory: Hashable, Sendable {
    /// Deletion events in ``DeletionEvent/precedes(_:_:)`` order once ``normalize()`` ran; local
    /// deletions append in stamp order, so a copy that only edits stays sorted.
    private(set) var deletions: [DeletionEvent] = []
    /// Whether ``deletions`` may hold events out of order or twice (after a union).
    private var unsorted = false
    /// History payloads (Docs/FORMAT.md §11.2) read from records or merged in and not parsed
    /// yet: loading and merging a note never decode them; `decodePending(limits:)` (Encoding/) does,
    /// when the history is asked for or written.
    private(set) var pending: [[UInt8]] = []
    /// The tombstones compactions dropped while this history was kept (Docs/FORMAT.md §11.6),
    /// sorted by ``ShadowRun/precedes(_:_:)``, ids not overlapping: what lays the past out again.
    private(set) var shadows: [ShadowRun] = []
    /// The clock-log entries those compactions dropped (per replica, increasing seqs, one per
    /// seq): the insertion times of the ids they stamped, shadows and kept tombstones alike.
    private(set) var shadowStamps: [ReplicaID: [ClockLogEntry]] = [:]
    /// The decoded events and their index, once read (``PastIndexCache``); replaced when the
    /// history changes, so it always describes this value.
    private var pastIndex = PastIndexCache()

    /// No deletion or shadow kept, and no payload waiting to be read.
    var isEmpty: Bool { deletions.isEmpty && pending.isEmpty && shadows.isEmpty && shadowStamps.isEmpty }

    /// Keeps the shadows of tombstones a compaction dropped and the clock-log entries it dropped
    /// (a set union with those kept). Shadows or entries equal to those kept (a copy's, synced
    /// since) change nothing and cost a comparison.
    mutating func keep(shadows added: [ShadowRun], stamps: [ReplicaID: [ClockLogEntry]]) {
        let newShadows = !added.isEmpty && added != shadows
        let newStamps = stamps.filter { shadowStamps[$0.key] != $0.value }
        guard newShadows || !newStamps.isEmpty else { return }
        invalidatePastIndex()
        if newShadows { shadows = ShadowRun.normalized(shadows + added) }
        for (replica, entries) in newStamps { shadowStamps[replica] = ShadowRun.union(shadowStamps[replica] ?? [], entries) }
    }

    /// Per replica id, the ids this history reads the past of (increasing, disjoint ranges): those
    /// its deletion events hold and those its shadows name as origins. A compaction that
    /// re-points right origins leaves them alone (Docs/FORMAT.md §4.7, "Re-pointed right
    /// origins"): the past is laid out from them with the right origins they had.
    func namedIDs() -> [ReplicaID: [Range<UInt32>]] {
        var out: [ReplicaID: [Range<UInt32>]] = [:]
        for event in deletions { out[event.inserter, default: []].append(event.seqs) }
        for shadow in shadows {
            for origin in [shadow.left, shadow.right].compactMap({ $0 }) { out[origin.replica, default: []].append(origin.seq..<origin.seq + 1) }
        }
        return out.mapValues { IDRanges.union($0, []) }
    }

    /// Keeps a history payload to unite with these events when the history is asked for.
    mutating func addPending(_ encoded: [UInt8]) {
        guard !pending.contains(encoded) else { return }
        invalidatePastIndex()
        pending.append(encoded)
    }

    /// Takes the pending payloads out (to decode them).
    mutating func takePending() -> [[UInt8]] {
        invalidatePastIndex()
        defer { pending = [] }
        return pending
    }

    /// The index of the past (``PastIndexCache``) this value built, else the one `build` makes.
    func pastIndex(orBuild build: () throws(NoteHistoryError) -> PastIndex) throws(NoteHistoryError) -> PastIndex {
        try pastIndex.index(orBuild: build)
    }

    /// Drops the index before a change, unless no index was built and no other copy shares it.
    private mutating func invalidatePastIndex() {
        if !isKnownUniquelyReferenced(&pastIndex) || pastIndex.isFilledUnshared { pastIndex = PastIndexCache() }
    }

    /// Appends the events of one local deletion (stamps never go back on one copy). A deletion
    /// of one stretch that continues the last event (the same deleter and inserter, the ids just
    /// before it, a backspace, or just after it, the delete key) less than
    /// ``DeletionEvent/coalescingWindow`` after that event's stamp joins it: the event keeps its
    /// stamp, so every deletion's time is known to within a second, as every insertion's is
    /// (FORMAT.md §11.1).
    mutating func log(_ events: [DeletionEvent]) {
        guard !events.isEmpty else { return }
        invalidatePastIndex()
        if events.count == 1, let last = deletions.last, let joined = last.joined(with: events[0]) {
            deletions[deletions.count - 1] = joined
            return
        }
        if let last = deletions.last, let first = events.first, DeletionEvent.precedes(first, last) { unsorted = true }
        deletions.append(contentsOf: events)
    }

    /// Adds every event of `other` this history lacks (a set union). Events this history holds
    /// already (the usual case: the copies synced since) cost one walk through both sorted
    /// lists; events that come after all of this history's (deletions made since, on another
    /// copy) are appended; only events among this history's make it sort again.
    mutating func formUnion(_ other: NoteHistory) {
        for bytes in other.pending { addPending(bytes) }
        keep(shadows: other.shadows, stamps: other.shadowStamps)
        guard !other.deletions.isEmpty else { return }
        normalize()
        let missing = Self.events(of: other.unsorted ? other.normalized.deletions : other.deletions, missingFrom: deletions)
        guard let first = missing.first else { return }
        invalidatePastIndex()
        // Later stamps than every event here: the list stays sorted, and no event across the
        // seam covers another (covering events share a stamp).
        let after = deletions.last.map { DeletionEvent.precedes($0, first) && $0.stamp != first.stamp } ?? true
        deletions.append(contentsOf: missing)
        if !after {
            unsorted = true
            normalize()
        }
    }

    /// The events of `theirs` that `mine` lacks, in order (both sorted by
    /// ``DeletionEvent/precedes(_:_:)``).
    private static func events(of theirs: [DeletionEvent], missingFrom mine: [DeletionEvent]) -> [DeletionEvent] {
        var missing: [DeletionEvent] = []
        var i = 0
        for event in theirs {
            while i < mine.count, DeletionEvent.precedes(mine[i], event) { i += 1 }
            if i < mine.count, mine[i] == event {
                i += 1
            } else {
                missing.append(event)
            }
        }
        return missing
    }

    /// Sorts the events and drops repeats, so equal sets hold equal arrays.
    mutating func normalize() {
        guard unsorted else { return }
        invalidatePastIndex()
        deletions.sort(by: DeletionEvent.precedes)
        var kept: [DeletionEvent] = []
        kept.reserveCapacity(deletions.count)
        // Where the last kept event's text was read up to (events that event covers come in
        // order of their first id, so its text is stepped through once).
        var cursor = DeletionEvent.TextCursor()
        for event in deletions {
            // A copy that took an event in before later deletions joined it holds both: the
            // joined event, with the same stamp, holds the other's ids (and text).
            if let last = kept.last, last.holds(event, from: &cursor) { continue }
            cursor = DeletionEvent.TextCursor()
            if let last = kept.last, event.holds(last) { kept[kept.count - 1] = event; continue }
            kept.append(event)
        }
        deletions = kept
        unsorted = false
    }

    /// These events, sorted without repeats.
    var normalized: NoteHistory {
        var copy = self
        copy.normalize()
        return copy
    }

    /// A history holding `events` (any order, repeats allowed).
    init(deletions events: [DeletionEvent] = [], shadows: [ShadowRun] = [], shadowStamps: [ReplicaID: [ClockLogEntry]] = [:]) {
        deletions = events
        self.shadows = ShadowRun.normalized(shadows)
        self.shadowStamps = shadowStamps.filter { !$0.value.isEmpty }.mapValues { ShadowRun.union([], $0) }
        unsorted = !events.isEmpty
        normalize()
    }

    /// Equal events and equal pending payloads (payloads are compared as bytes, not read).
    static func == (a: NoteHistory, b: NoteHistory) -> Bool {
        a.normalized.deletions == b.normalized.deletions && Set(a.pending) == Set(b.pending) && a.shadows == b.shadows && a.shadowStamps == b.shadowStamps
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(normalized.deletions)
        hasher.combine(Set(pending))
        hasher.combine(shadows)
        hasher.combine(shadowStamps)
    }
}
