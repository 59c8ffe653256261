/// One local deletion of consecutive ids of one replica, as the note's history keeps it
/// (Docs/FORMAT.md §11): which elements, who deleted them and when, and the text they held.
/// Not part of the CRDT state: the payload keeps only the tombstones.
struct DeletionEvent: Hashable, Sendable {
    /// The replica that inserted the deleted elements.
    var inserter: ReplicaID
    /// Their seqs (consecutive, never empty).
    var seqs: Range<UInt32>
    /// The replica that deleted them.
    var deleter: ReplicaID
    /// The deleting edit's stamp.
    var stamp: HLCTimestamp
    /// The UTF-8 text the elements held, in id order.
    var text: [UInt8]

    /// Orders events by stamp, then by every other field, so a set of events has one order.
    static func precedes(_ a: DeletionEvent, _ b: DeletionEvent) -> Bool {
        if a.stamp != b.stamp { return a.stamp < b.stamp }
        if a.deleter != b.deleter { return a.deleter < b.deleter }
        if a.inserter != b.inserter { return a.inserter < b.inserter }
        if a.seqs.lowerBound != b.seqs.lowerBound { return a.seqs.lowerBound < b.seqs.lowerBound }
        if a.seqs.upperBound != b.seqs.upperBound { return a.seqs.upperBound < b.seqs.upperBound }
        return a.text.lexicographicallyPrecedes(b.text)
    }
}

extension TextSequence {
    /// The events of a local deletion by `deleter` at `stamp` that removed `stretches` (as a
    /// ``DeletionRecorder`` saw them), their text copied from the content buffer, which keeps
    /// deleted text until the sequence is rebuilt.
    func deletionEvents<S: Sequence>(of stretches: S, deleter: ReplicaID, stamp: HLCTimestamp) -> [DeletionEvent] where S.Element == VisibleStretch {
        stretches.map { stretch in
            DeletionEvent(inserter: replicas[Int(stretch.first.replica)],
                          seqs: stretch.first.seq..<stretch.last.seq &+ 1,
                          deleter: deleter, stamp: stamp, text: Array(content[stretch.bytes]))
        }
    }
}

extension DeletedStretches {
    /// Every stretch, in document order.
    var all: [VisibleStretch] {
        guard let first else { return [] }
        return [first] + more
    }
}
