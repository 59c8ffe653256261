/// Where this replica's deleted characters came back: undo and redo restore deleted text as new
/// characters, so an older step naming the old ids must act on the new ones (Yjs keeps the same
/// "redone" links). Each entry maps a range of old sequence numbers to the new ones, one to one.
struct RestoredIDs: Sendable {
    struct Entry: Sendable {
        var old: Range<UInt32>
        var newStart: UInt32
    }

    private(set) var entries: [Entry] = []

    mutating func add(old: Range<UInt32>, newStart: UInt32) {
        entries.append(Entry(old: old, newStart: newStart))
    }

    mutating func removeAll() { entries.removeAll() }

    /// The new ranges that the old ids `seqs` were restored as.
    func replacements(of seqs: Range<UInt32>) -> [Range<UInt32>] {
        var out: [Range<UInt32>] = []
        for e in entries where e.old.overlaps(seqs) {
            let lower = max(e.old.lowerBound, seqs.lowerBound)
            let upper = min(e.old.upperBound, seqs.upperBound)
            out.append(e.newStart &+ (lower &- e.old.lowerBound)..<e.newStart &+ (upper &- e.old.lowerBound))
        }
        return out
    }
}
