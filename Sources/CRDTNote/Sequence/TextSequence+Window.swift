/// Walking part of the document: what formatting reads to weigh one operation against the
/// elements between its anchors, in time proportional to them rather than to the note.
extension TextSequence {
    /// The first element of the document's last run (nil for an empty document).
    var lastRunPosition: TreePosition? {
        guard let slot = order.last, !leaves[Int(slot)].isEmpty else { return nil }
        return TreePosition(order: order.count - 1, run: leaves[Int(slot)].count - 1, offset: 0)
    }

    /// Calls `body` with every run from the one holding `first` through the one holding
    /// `last` (`first <= last`), tombstones included, in document order.
    func forEachRun(from first: TreePosition, through last: TreePosition, _ body: (Run) -> Void) {
        for o in first.order...last.order {
            let leaf = leaves[Int(order[o])]
            let from = o == first.order ? first.run : 0
            let through = o == last.order ? last.run : leaf.count - 1
            guard from <= through else { continue }
            for i in from...through { body(leaf[i]) }
        }
    }

    /// The first element of the run holding `position`.
    func runStart(of position: TreePosition) -> TreePosition {
        TreePosition(order: position.order, run: position.run, offset: 0)
    }
}
