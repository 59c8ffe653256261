/// The operation that wins a mark name on some characters: what it sets (nil: it removes the
/// mark) and what a later operation must beat (``StampedFormattingOperation/wins(over:)``).
struct MarkWinner: Hashable, Sendable, StampedFormattingOperation {
    var stamp: HLCTimestamp
    var replica: ReplicaID
    var value: String?

    init(_ operation: MarkOperation) {
        stamp = operation.stamp
        replica = operation.replica
        value = operation.value
    }
}

/// A stretch of visible text where every mark name has one winning operation (or none) and
/// the paragraph is one: the unit the attributes index keeps, so a new operation can be
/// weighed against the winners it would replace.
struct ResolvedRun: Hashable, Sendable {
    var scalars: Range<Int>
    /// Per mark name with a covering operation, the winner.
    var winners: [String: MarkWinner]
    var paragraph: ParagraphAttributes

    /// The marks in force (names whose winner sets a value).
    var marks: [String: String] { winners.compactMapValues(\.value) }
}

extension NoteFormatting {
    /// The visible text of `note` cut into maximal runs of equal resolved attributes, in
    /// order (empty for an empty note): ``winnerRuns(of:)`` with neighbours that show the same
    /// attributes joined.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func attributes(of note: NoteText) throws(NoteTextError) -> [FormattedRun] {
        var runs: [FormattedRun] = []
        for run in try winnerRuns(of: note) {
            let marks = run.marks
            if let last = runs.last, last.marks == marks, last.paragraph == run.paragraph {
                runs[runs.count - 1].scalars = last.scalars.lowerBound..<run.scalars.upperBound
            } else {
                runs.append(FormattedRun(scalars: run.scalars, marks: marks, paragraph: run.paragraph))
            }
        }
        return runs
    }

    /// The visible text of `note` cut into maximal runs with the same winning operation per
    /// mark name and the same paragraph attributes, in order. O(n + r log r + the elements
    /// inside every operation) per call, n the elements ever inserted and r the runs.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func winnerRuns(of note: NoteText) throws(NoteTextError) -> [ResolvedRun] {
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
        let winnersAt = { (i: Int) -> [String: MarkWinner] in
            var here: [String: MarkWinner] = [:]
            for (n, name) in nameList.enumerated() where winners[i * stride + n] >= 0 {
                here[name] = MarkWinner(operations[Int(winners[i * stride + n])])
            }
            return here
        }
        let sameWinners = { (i: Int, j: Int) -> Bool in
            for n in 0..<stride where winners[i * stride + n] != winners[j * stride + n] { return false }
            return true
        }
        let paragraphAttributes = resolvedParagraphs()
        var runs: [ResolvedRun] = []
        var paragraph = paragraphAttributes[.documentStart] ?? ParagraphAttributes()
        var offset = 0
        // The previous visible element, and whether the paragraph changed after it.
        var previous = -1
        var newParagraph = false
        for i in 0..<order.count where order.isVisible(i) {
            if previous < 0 || !sameWinners(i, previous) || newParagraph && paragraph != runs[runs.count - 1].paragraph {
                runs.append(ResolvedRun(scalars: offset..<offset + 1, winners: winnersAt(i), paragraph: paragraph))
            } else {
                runs[runs.count - 1].scalars = runs[runs.count - 1].scalars.lowerBound..<offset + 1
            }
            newParagraph = false
            offset += 1
            previous = i
            if order.isNewline(i) {
                paragraph = paragraphAttributes[.newline(order.ids[i])] ?? ParagraphAttributes()
                newParagraph = true
            }
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
