/// Walking part of the document: what formatting reads to weigh one operation against the
/// elements between its anchors, in time proportional to them rather than to the note.
extension TextSequence {
    /// The document's last element (nil for an empty document). Leaves kept spare are empty,
    /// so the last one in order need not hold it.
    var lastElementPosition: TreePosition? {
        for o in order.indices.reversed() {
            let leaf = leaves[Int(order[o])]
            if let run = leaf.last { return TreePosition(order: o, run: leaf.count - 1, offset: run.length - 1) }
        }
        return nil
    }

    /// Calls `body` with the elements from `first` through `last` (`first <= last`),
    /// tombstones included, in document order, as runs: the first and last cut to the window
    /// (a cut run's first element names its predecessor, outside the window, as left origin).
    func forEachRun(from first: TreePosition, through last: TreePosition, _ body: (Run) -> Void) {
        for o in first.order...last.order {
            let leaf = leaves[Int(order[o])]
            let from = o == first.order ? first.run : 0
            let through = o == last.order ? last.run : leaf.count - 1
            guard from <= through else { continue }
            for i in from...through {
                var run = leaf[i]
                if o == last.order, i == last.run, last.offset + 1 < run.length { run = cut(run, at: last.offset + 1).0 }
                if o == first.order, i == first.run, first.offset > 0 { run = cut(run, at: first.offset).1 }
                body(run)
            }
        }
    }
}
