extension NoteFormatting {
    /// The visible text of `note` cut into maximal runs of equal resolved attributes, in
    /// order (empty for an empty note). O(n + r log r + the elements inside every operation)
    /// per call, n the elements ever inserted and r the runs.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func attributes(of note: NoteText) throws(NoteTextError) -> [FormattedRun] {
        let order = FormattingOrder(try note.indexForReading())
        // Per mark name, per element: the index in `operations` of the winning operation (-1: none).
        let operations = Array(marks)
        // What `wins(over:)` compares, without copying operations.
        let ranks = operations.map { ($0.stamp, $0.replica.rawValue) }
        var names: [String: Int] = [:]
        for operation in operations where names[operation.name] == nil { names[operation.name] = names.count }
        let nameList = names.sorted { $0.value < $1.value }.map(\.key)
        // Element i's winner for name n is at i * stride + n.
        let stride = max(1, names.count)
        var winners = [Int32](repeating: -1, count: order.count * stride)
        for (k, operation) in operations.enumerated() {
            let name = names[operation.name] ?? 0
            order.forEachCovered(by: operation) { i in
                guard order.isVisible(i) else { return }
                let current = winners[i * stride + name]
                if current < 0 || ranks[k] > ranks[Int(current)] { winners[i * stride + name] = Int32(k) }
            }
        }
        let markValues = { (i: Int) -> [String: String] in
            var here: [String: String] = [:]
            for (n, name) in nameList.enumerated() where winners[i * stride + n] >= 0 {
                if let value = operations[Int(winners[i * stride + n])].value { here[name] = value }
            }
            return here
        }
        let sameWinners = { (i: Int, j: Int) -> Bool in
            for n in 0..<stride where winners[i * stride + n] != winners[j * stride + n] { return false }
            return true
        }
        let paragraphAttributes = resolvedParagraphs()
        var runs: [FormattedRun] = []
        // The open run: where it starts, its marks and paragraph attributes.
        var start = 0
        var runMarks: [String: String] = [:]
        var runParagraph = ParagraphAttributes()
        // The attributes of the element being read, and whether they may differ from the run's.
        var marks: [String: String] = [:]
        var paragraph = paragraphAttributes[.documentStart] ?? ParagraphAttributes()
        var changed = false
        var offset = 0
        // The previous visible element: while every mark has the same winner, marks stay.
        var previous = -1
        for i in 0..<order.count where order.isVisible(i) {
            if previous < 0 {
                marks = markValues(i)
                runMarks = marks
                runParagraph = paragraph
            } else {
                if !sameWinners(i, previous) {
                    marks = markValues(i)
                    changed = true
                }
                if changed, marks != runMarks || paragraph != runParagraph {
                    runs.append(FormattedRun(scalars: start..<offset, marks: runMarks, paragraph: runParagraph))
                    start = offset
                    runMarks = marks
                    runParagraph = paragraph
                }
            }
            changed = false
            offset += 1
            previous = i
            if order.isNewline(i) {
                paragraph = paragraphAttributes[.newline(order.ids[i])] ?? ParagraphAttributes()
                changed = true
            }
        }
        if previous >= 0 { runs.append(FormattedRun(scalars: start..<offset, marks: runMarks, paragraph: runParagraph)) }
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
