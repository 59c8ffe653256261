/// Where deleted characters came back: undo and redo restore deleted text as new characters of
/// the local replica, so an older step naming the old ids must act on the new ones (Yjs keeps the
/// same "redone" links). Each entry maps a range of one replica's old sequence numbers to the new
/// ones, one to one: the local replica's own (what text steps follow) and other replicas' (what
/// formatting steps follow, to format restored text again).
struct RestoredIDs: Sendable {
    struct Entry: Sendable {
        /// The old ids' replica (an index of the note's replica table).
        var replica: UInt32
        var old: Range<UInt32>
        var newStart: UInt32
    }

    private(set) var entries: [Entry] = []

    mutating func add(replica: UInt32, old: Range<UInt32>, newStart: UInt32) {
        entries.append(Entry(replica: replica, old: old, newStart: newStart))
    }

    mutating func removeAll() { entries.removeAll() }

    /// The new ranges (of the local replica) that the old ids `seqs` of `replica` were restored as.
    func replacements(of seqs: Range<UInt32>, replica: UInt32) -> [Range<UInt32>] {
        var out: [Range<UInt32>] = []
        for e in entries where e.replica == replica && e.old.overlaps(seqs) {
            let lower = max(e.old.lowerBound, seqs.lowerBound)
            let upper = min(e.old.upperBound, seqs.upperBound)
            out.append(e.newStart &+ (lower &- e.old.lowerBound)..<e.newStart &+ (upper &- e.old.lowerBound))
        }
        return out
    }
}
