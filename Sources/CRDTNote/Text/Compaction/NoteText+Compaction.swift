extension NoteText {
    /// Drops the deleted characters whose ids `settled` lists (per replica, increasing and
    /// disjoint ranges; nil: every deleted character), except those that characters staying name
    /// as origins (Docs/FORMAT.md §4.7). The text and everything merges need stay; the note is
    /// written in format 3 from now on. ``compactIfSettled(devices:repointing:)`` decides what is settled
    /// from the ledger; this takes the caller's word (tests, tools).
    ///
    /// A note with undo or redo steps is left as it is: the steps name deleted characters by id
    /// to bring them back where they were, so they wait for the history to empty.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` (changing nothing) when this note was loaded
    /// from a snapshot whose runs prove corrupt.
    ///
    /// Deleted characters the note's formatting names (a mark's boundaries and core, a
    /// paragraph's newline: Docs/FORMAT.md §10.6) stay, with what they name as origins.
    ///
    /// A note that keeps history (a retention policy) or holds some keeps the shadows of what
    /// goes and the clock entries that go (Docs/FORMAT.md §11.6), so its past still reads.
    ///
    /// With `repointing` (every device the note is written for reads format 7), linear group
    /// chains of settled tombstones are dropped too, the run naming each naming its last member
    /// instead, and the ledger lists the ids re-pointed (Docs/FORMAT.md §4.7, "Re-pointed right
    /// origins"); tombstones the history reads the past of stay (``ChainRepointing``).
    package mutating func compact(settled: [ReplicaID: [Range<UInt32>]]?, repointing: ChainRepointing = .off) throws(NoteTextError) {
        guard !canUndo && !canRedo else { return }
        try buildIndexForEdit()
        var byIndex = settled.map { ranges in
            Dictionary(uniqueKeysWithValues: ranges.compactMap { id, list in sequence.replicaIndex[id].map { (Int($0), list) } })
        }
        let named = formatting.namedElements()
        if !named.isEmpty {
            var all = byIndex ?? sequence.tombstoneRanges()
            var keep: [Int: [UInt32]] = [:]
            for id in named { if let r = sequence.replicaIndex[id.replica] { keep[Int(r), default: []].append(id.seq) } }
            for (r, ids) in keep { all[r] = IDRanges.removing(ids, from: all[r] ?? []) }
            byIndex = all
        }
        // A note keeping history keeps the shadows of what goes, so its past still reads (§11.6).
        let (compacted, shadows, stamps, repointed) = sequence.compacted(
            settled: byIndex, collectingShadows: historyRetention != nil || !history.isEmpty,
            repointable: repointing.repointable(in: sequence))
        sequence = compacted
        if !repointed.isEmpty || self.ledger?.repointed.isEmpty == false {
            var ledger = self.ledger ?? CompactionLedger()
            // Re-pointed ids this copy no longer holds need no reconciling.
            ledger.repointed = compacted.heldParts(of: ledger.repointed)
            for (r, ranges) in repointed {
                let id = compacted.replicas[r]
                ledger.repointed[id] = IDRanges.union(ledger.repointed[id] ?? [], ranges)
            }
            self.ledger = ledger.isEmpty ? nil : ledger
        }
        history.keep(shadows: shadows, stamps: stamps)
        textChanged()
    }

    /// Records in the ledger that `device` (the replica id a note library writes this note
    /// with) holds everything this copy holds: called when that device writes the note. Returns
    /// whether the ledger changed. The note is written in format 3 from then on.
    @discardableResult
    package mutating func recordSeen(by device: ReplicaID) -> Bool {
        let vector = stampVector()
        var ledger = self.ledger ?? CompactionLedger()
        let updated = CompactionLedger.maximum(ledger.seen[device] ?? [:], vector)
        guard updated != ledger.seen[device] else { return false }
        ledger.seen[device] = updated
        self.ledger = ledger
        return true
    }

    /// Whether a proposal is pending that `device` has not recorded seeing, though this copy
    /// holds its cut: writing the note now (after ``recordSeen(by:)``) is what lets it settle.
    /// The sync engine sends a note it received in that state (Docs/FORMAT.md §4.7).
    package func awaitsSeen(by device: ReplicaID) -> Bool {
        guard let ledger, !ledger.proposed.isEmpty else { return false }
        let seen = ledger.seen[device] ?? [:]
        return !CompactionLedger.covers(seen, ledger.cut) && CompactionLedger.covers(stampVector(), ledger.cut)
    }

    /// Whether ``compactIfSettled(devices:repointing:)`` would drop the pending proposal now: every device
    /// of `devices` has seen its cut and the note has no undo or redo steps.
    package func isSettled(devices: [Set<ReplicaID>]) -> Bool {
        guard !canUndo && !canRedo, let ledger else { return false }
        return ledger.isSettled(devices: devices)
    }

    /// Compacts what the ledger has settled, then proposes the tombstones left that a compaction
    /// could drop now (not those visible text names as origins; Docs/FORMAT.md §4.7, "When
    /// tombstones settle"). `devices`: the devices that count (each as the replica
    /// ids it writes with); the proposed tombstones are dropped once each of them has recorded
    /// seeing the proposal's cut (``recordSeen(by:)``), and a new proposal is made of the
    /// tombstones there are when none is pending. Returns whether anything was dropped.
    ///
    /// Nothing happens while the note has undo or redo steps (see ``compact(settled:repointing:)``). Throws
    /// ``NoteTextError/Code/corruptSnapshot`` (changing nothing) when this note was loaded from a
    /// snapshot whose runs prove corrupt.
    ///
    /// With `repointing` (every device the note is written for reads format 7), compactions also
    /// drop linear group chains, and proposals include their members (``compact(settled:repointing:)``).
    @discardableResult
    package mutating func compactIfSettled(devices: [Set<ReplicaID>], repointing: ChainRepointing = .off) throws(NoteTextError) -> Bool {
        guard !canUndo && !canRedo else { return false }
        try buildIndexForEdit()
        var ledger = self.ledger ?? CompactionLedger()
        var dropped = false
        if ledger.isSettled(devices: devices) {
            let proposed = ledger.proposed
            let before = sequence.runCount
            try compact(settled: proposed, repointing: repointing)
            // The compaction pruned the list of re-pointed ids and added those it re-pointed.
            ledger.repointed = self.ledger?.repointed ?? [:]
            dropped = sequence.runCount != before || sequence.hasCompactedIDs
            ledger.proposed = [:]
            ledger.cut = [:]
        }
        if ledger.proposed.isEmpty {
            let candidates = sequence.droppableTombstones(keeping: formatting.namedElements().compactMap { id in
                sequence.replicaIndex[id.replica].map { ItemRef(replica: $0, seq: id.seq) }
            }, repointable: repointing.repointable(in: sequence))
            if !candidates.isEmpty {
                ledger.cut = stampVector()
                ledger.proposed = Dictionary(uniqueKeysWithValues: candidates.map { (sequence.replicas[$0.key], $0.value) })
            }
        }
        self.ledger = ledger.isEmpty ? nil : ledger
        return dropped
    }

    /// Whether a compaction dropped tombstones of this copy (Docs/FORMAT.md §4.7): it counts ids
    /// that no run holds. Throws when the note was loaded from a snapshot whose runs prove corrupt.
    package func holdsCompactedIDs() throws(BinaryDecodingError) -> Bool {
        try loadedSequence().hasCompactedIDs
    }

    /// Takes in the ledger of a copy merged into this one.
    mutating func mergeLedger(of other: NoteText) {
        guard let theirs = other.ledger else { return }
        var mine = ledger ?? CompactionLedger()
        mine.merge(theirs)
        ledger = mine
    }

    /// Per replica, the latest stamp of its operations this copy holds (zero stamps left out).
    func stampVector() -> [ReplicaID: HLCTimestamp] {
        let (replicas, stamps) = deferred.map { ($0.replicas, $0.latestStamp) } ?? (sequence.replicas, sequence.latestStamp)
        var vector: [ReplicaID: HLCTimestamp] = [:]
        for (id, stamp) in zip(replicas, stamps) where stamp > .zero { vector[id] = stamp }
        return vector
    }

}
