extension MarkOperation {
    /// The visible scalars this operation covers in `sequence` (Docs/FORMAT.md §10.4), as
    /// ascending ranges; none while the note lacks an element it names. Resolved in the window
    /// of elements from its start anchor to its end anchor: O(log n + the elements there),
    /// whatever the size of the note.
    func coveredScalars(in sequence: TextSequence) -> [Range<Int>] {
        let position = { (id: ElementID) in sequence.position(of: id.replica, seq: id.seq) }
        guard let firstPosition = position(first), let lastPosition = position(last) else { return [] }
        var from = firstPosition
        var through = lastPosition
        switch start {
        case .documentStart: from = sequence.startPosition
        case .before(let id), .after(let id):
            guard let anchor = position(id) else { return [] }
            from = Swift.min(from, anchor)
        case .documentEnd: break
        }
        switch end {
        case .documentEnd:
            guard let lastElement = sequence.lastElementPosition else { return [] }
            through = lastElement
        case .before(let id), .after(let id):
            guard let anchor = position(id) else { return [] }
            through = Swift.max(through, anchor)
        case .documentStart: break
        }
        // An operation whose core runs backwards (only a damaged or forged one) covers nothing,
        // as in the whole-note resolution.
        guard firstPosition <= lastPosition, from <= through else { return [] }
        let order = FormattingOrder(sequence, from: from, through: through)
        var covered: [Int] = []
        order.forEachCovered(by: self) { i in if order.isVisible(i) { covered.append(i) } }
        guard !covered.isEmpty else { return [] }
        covered.sort()
        // Visible scalar offset of each window element: the window's start, plus the visible
        // elements before it in the window.
        var visibleBefore = [Int](repeating: 0, count: order.count + 1)
        for i in 0..<order.count { visibleBefore[i + 1] = visibleBefore[i] + (order.isVisible(i) ? 1 : 0) }
        let base = sequence.visibleOffsets(before: from).scalars
        var ranges: [Range<Int>] = []
        for i in covered {
            let scalar = base + visibleBefore[i]
            if let last = ranges.last, last.upperBound == scalar {
                ranges[ranges.count - 1] = last.lowerBound..<scalar + 1
            } else {
                ranges.append(scalar..<scalar + 1)
            }
        }
        return ranges
    }
}
