extension TextSequence {
    /// Where the element `seq` of `replica` is, or nil when this document does not hold it (it
    /// has never held it, or a compaction dropped it).
    func position(of replica: ReplicaID, seq: UInt32) -> TreePosition? {
        guard let r = replicaIndex[replica], leafOf[Int(r)].holds(seq) else { return nil }
        return locate(ItemRef(replica: r, seq: seq))
    }

    /// Visible scalars and UTF-16 units up to and including the element at `position` (the
    /// element counts only while visible): O(log n + leaf), like ``visibleOffsets(before:)``.
    func visibleOffsets(through position: TreePosition) -> (scalars: Int, utf16: Int) {
        let before = visibleOffsets(before: position)
        let r = run(at: position)
        if r.isDeleted { return before }
        if r.utf16 == r.length { return (before.scalars + 1, before.utf16 + 1) }
        let skip = UTF8Counting.prefix(of: content, start: Int(r.byteStart), scalars: Int(position.offset)).bytes
        let lead = content[Int(r.byteStart) + skip]
        return (before.scalars + 1, before.utf16 + (lead >= 0xF0 ? 2 : 1))
    }

    /// The replica id and sequence number of the visible scalar with index `k` (`0 <= k < scalarCount`).
    func visibleID(ofScalar k: Int) -> (replica: ReplicaID, seq: UInt32) {
        let ref = ref(at: position(ofScalar: k))
        return (replicas[Int(ref.replica)], ref.seq)
    }
}
