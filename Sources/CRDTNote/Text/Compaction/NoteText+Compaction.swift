extension NoteText {
    /// Drops the deleted characters for which `settled` is true (given the replica and the ids
    /// of each stretch of tombstones), except those that characters staying name as origins
    /// (Docs/FORMAT.md §4.7). The text and everything merges need stay; the note is written in
    /// format 3 from now on. Which tombstones are settled, every device having seen them
    /// deleted, is the caller's to know.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` (changing nothing) when this note was loaded
    /// from a snapshot whose runs prove corrupt.
    ///
    /// A note with undo or redo steps is left as it is: the steps name deleted characters by id
    /// to bring them back where they were, so they wait for the history to empty.
    package mutating func compact(settled: (ReplicaID, Range<UInt32>) -> Bool) throws(NoteTextError) {
        guard !canUndo && !canRedo else { return }
        try buildIndexForEdit()
        let replicas = sequence.replicas
        sequence = sequence.compacted { run in settled(replicas[Int(run.replica)], run.seq..<run.seqEnd) }
    }

    /// Whether this note no longer holds some of the ids it has seen (a compaction dropped them):
    /// it is then written in snapshot format 3.
    /// A note loaded from a format 3 payload and not yet indexed counts as compacted.
    package var isCompacted: Bool {
        if let deferred { return (PayloadHeader.requiredReaderVersion(of: deferred.payload) ?? 1) >= 3 }
        return sequence.hasCompactedIDs
    }
}
