extension NoteFormatting {
    /// The visible text of `note` cut into maximal runs of equal resolved attributes, in
    /// order (empty for an empty note). O(n + the elements inside every operation) per call, n
    /// the elements ever inserted: the reference resolution, not yet the indexed lookup issue 32
    /// asks for.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func attributes(of note: NoteText) throws(NoteTextError) -> [FormattedRun] {
        let order = FormattingOrder(try note.elementsInOrder())
        var winners = [[String: MarkOperation]](repeating: [:], count: order.elements.count)
        for operation in marks {
            for i in order.covered(by: operation) where order.elements[i].scalar != nil {
                if let current = winners[i][operation.name], !operation.wins(over: current) { continue }
                winners[i][operation.name] = operation
            }
        }
        let paragraphAttributes = resolvedParagraphs()
        var runs: [FormattedRun] = []
        var key = ParagraphKey.documentStart
        var offset = 0
        for (i, element) in order.elements.enumerated() {
            guard let scalar = element.scalar else { continue }
            let marks = winners[i].compactMapValues(\.value)
            let paragraph = paragraphAttributes[key] ?? ParagraphAttributes()
            if let last = runs.last, last.scalars.upperBound == offset, last.marks == marks, last.paragraph == paragraph {
                runs[runs.count - 1].scalars = last.scalars.lowerBound..<offset + 1
            } else {
                runs.append(FormattedRun(scalars: offset..<offset + 1, marks: marks, paragraph: paragraph))
            }
            if scalar == "\n" { key = .newline(element.id) }
            offset += 1
        }
        return runs
    }

    /// The attributes of every paragraph key that has operations: per key and attribute name,
    /// the winning operation's value (keys of deleted newlines included; nothing reads them).
    func resolvedParagraphs() -> [ParagraphKey: ParagraphAttributes] {
        paragraphWinners.mapValues(Self.attributes(of:))
    }

    /// The attributes of the paragraph with `key` (the defaults when none is set): O(1).
    func resolvedAttributes(of key: ParagraphKey) -> ParagraphAttributes {
        paragraphWinners[key].map(Self.attributes(of:)) ?? ParagraphAttributes()
    }

    /// The attributes the winning operations (by attribute name) give a paragraph.
    private static func attributes(of winners: [String: ParagraphOperation]) -> ParagraphAttributes {
        var attributes = ParagraphAttributes()
        for operation in winners.values { attributes.apply(operation.attribute) }
        return attributes
    }
}

/// A note's elements in order with their positions by id, and the points between them.
struct FormattingOrder {
    let elements: [NoteElement]
    let position: [ElementID: Int]

    init(_ elements: [NoteElement]) {
        self.elements = elements
        var position: [ElementID: Int] = [:]
        position.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() { position[element.id] = i }
        self.position = position
    }

    /// The boundary as a number comparable with ``point(ofElement:)``; nil when it names an
    /// element this note does not hold.
    func point(of boundary: MarkBoundary) -> Int? {
        switch boundary {
        case .documentStart: return -1
        case .documentEnd: return 3 * elements.count
        case .before(let id): return position[id].map { 3 * $0 }
        case .after(let id): return position[id].map { 3 * $0 + 2 }
        }
    }

    /// The element at position `i` as a point: between its `before` and `after` gaps.
    func point(ofElement i: Int) -> Int { 3 * i + 1 }

    /// Positions of the elements (tombstones included) `operation` covers (Docs/FORMAT.md §10.4):
    /// inside its anchors and either in its core (first...last) and seen by the operation, or
    /// after `first` with its left origin covered, or before the core with its right origin
    /// covered. Empty while the note lacks an element the operation names.
    func covered(by operation: MarkOperation) -> [Int] {
        guard let first = position[operation.first], let last = position[operation.last], first <= last,
              let start = point(of: operation.start), let end = point(of: operation.end) else { return [] }
        let inside = { (i: Int) in start < point(ofElement: i) && point(ofElement: i) < end }
        var covered = Set<Int>()
        var i = first
        while i < elements.count, i <= last || inside(i) {
            if inside(i) {
                if i <= last, operation.sawCoreElement(elements[i].id) {
                    covered.insert(i)
                } else if let left = elements[i].left, let p = position[left], covered.contains(p) {
                    covered.insert(i)
                }
            }
            i += 1
        }
        i = first - 1
        while i >= 0, inside(i) {
            if let right = elements[i].right, let p = position[right], p <= last, covered.contains(p) { covered.insert(i) }
            i -= 1
        }
        return Array(covered)
    }
}
