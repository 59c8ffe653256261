extension NoteText {
    /// Drops the deleted characters for which `settled` is true (given the replica and the ids
    /// of each stretch of tombstones), except those that characters staying name as origins
    /// (Docs/FORMAT.md §4.7). The text and everything merges need stay; the note is written in
    /// format 3 from now on. Which tombstones are settled, every device having seen them
    /// deleted, is the caller's to know.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` (changing nothing) when this note was loaded
    /// from a snapshot whose runs prove corrupt.
    package mutating func compact(settled: (ReplicaID, Range<UInt32>) -> Bool) throws(NoteTextError) {
        try buildIndexForEdit()
        let replicas = sequence.replicas
        sequence = sequence.compacted { run in settled(replicas[Int(run.replica)], run.seq..<run.seqEnd) }
    }

    /// Whether this note no longer holds some of the ids it has seen (a compaction dropped them):
    /// it is then written in snapshot format 3.
    package var isCompacted: Bool {
        (try? loadedSequence().hasCompactedIDs) ?? false
    }
}
