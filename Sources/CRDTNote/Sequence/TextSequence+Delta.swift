/// What a document gained since an earlier copy of itself: the record a note library appends
/// to its journal after an edit or a merge.
extension TextSequence {
    /// The operations this document holds and `before` lacks, `before` being an earlier copy of
    /// this document (or any copy it has merged). The inserts carry only their own bytes, and
    /// the deletions are exactly the ranges `before` lacks: copies share the delete set's
    /// unchanged chunks, so this costs what changed, not the size of the note.
    func changes(after before: TextSequence) -> ChangeSet {
        let known = replicas.map { id in before.replicaIndex[id].map { before.nextSeq[Int($0)] } ?? 0 }
        var set = changes(since: known, receiver: before, copyingContent: true)
        guard !set.deletes.isEmpty else { return set }
        var exact: [ChangeSet.Delete] = []
        exact.reserveCapacity(set.deletes.count)
        for delete in set.deletes {
            guard let theirs = before.replicaIndex[replicas[Int(delete.replica)]] else {
                exact.append(delete)
                continue
            }
            var rest = delete.seq..<delete.seq + delete.length
            while !rest.isEmpty, let missing = before.deleted[Int(theirs)].firstMissing(in: rest) {
                exact.append(.init(replica: delete.replica, seq: missing.lowerBound, length: UInt32(missing.count)))
                rest = missing.upperBound..<rest.upperBound
            }
        }
        set.deletes = exact
        return set
    }
}
