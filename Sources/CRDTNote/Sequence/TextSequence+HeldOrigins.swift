extension TextSequence {
    /// Checks that ids a change set sends again, which this document holds already, have here
    /// the origins the set gives them: ids `held` of local replica `r`, sent by the set's insert
    /// `ins` (number `i`), whose origins map to local replicas through `local` (nil: a replica
    /// this document does not know). An id's origins never change once it is typed, so two
    /// copies that disagree about one cannot both come from editing (one is damaged or forged),
    /// and merging them would give different texts in different orders: the merge is refused.
    ///
    /// Inside a run of either copy an element's left origin is the element before it and its
    /// right origin the run's: one comparison per run of this document that holds part of
    /// `held`, found by one lookup and then by stepping along its leaf while the ids continue
    /// there (text typed in one go, the common case). Only for a document without compacted ids
    /// (every id it has seen is in its tree).
    func checkHeldOrigins(_ ins: ChangeSet.Insert, number i: Int, held: Range<UInt32>, replica r: UInt32,
                          local: [UInt32?]) throws(ChangeSetError) {
        func mapped(_ ref: ItemRef) -> ItemRef? {
            if ref.isNone { return ref }
            return local[Int(ref.replica)].map { ItemRef(replica: $0, seq: ref.seq) }
        }
        let right = mapped(ins.right)
        var expectedLeft = held.lowerBound == ins.seq ? mapped(ins.left) : ItemRef(replica: r, seq: held.lowerBound - 1)
        var s = held.lowerBound
        var position = locate(ItemRef(replica: r, seq: s))
        while true {
            let run = self.run(at: position)
            let left = position.offset == 0 ? run.left : ItemRef(replica: r, seq: s - 1)
            guard left == expectedLeft, run.right == right else {
                throw ChangeSetError(.inconsistent, "insert \(i) gives id \(s) of its replica origins other than the ones this "
                                     + "document holds for it (the two copies contradict each other)")
            }
            s = run.seq &+ run.length
            guard s < held.upperBound else { return }
            expectedLeft = ItemRef(replica: r, seq: s - 1)
            // The ids typed on are usually the next run of the same leaf.
            let next = TreePosition(order: position.order, run: position.run + 1, offset: 0)
            let leaf = leaves[Int(order[position.order])]
            if next.run < leaf.count, leaf[next.run].replica == r, leaf[next.run].seq == s {
                position = next
            } else {
                position = locate(ItemRef(replica: r, seq: s))
            }
        }
    }
}
