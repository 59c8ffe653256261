extension AttributeRuns {
    /// These runs after `marks` and the paragraph settings of `paragraphKeys` were added to
    /// the note's formatting (`formatting`, already holding them) with no change to its text
    /// (`sequence`): each mark operation is weighed against the winners of the characters it
    /// covers, each paragraph takes its resolved attributes. Returns the scalar ranges whose
    /// attributes may have changed, sorted and apart. O(r) once (the runs are cut in one pass)
    /// plus, per operation, O(log n + the elements between its anchors + the runs it covers).
    mutating func add(_ marks: some Sequence<MarkOperation>, paragraphKeys: some Sequence<ParagraphKey>,
                      formatting: NoteFormatting, in sequence: TextSequence) -> [Range<Int>] {
        var markRanges: [(operation: MarkOperation, range: Range<Int>)] = []
        for operation in marks {
            for range in operation.coveredScalars(in: sequence) { markRanges.append((operation, range)) }
        }
        var paragraphRanges: [(attributes: ParagraphAttributes, range: Range<Int>)] = []
        for key in paragraphKeys {
            guard let range = Self.scalars(ofParagraph: key, in: sequence), !range.isEmpty else { continue }
            paragraphRanges.append((formatting.resolvedAttributes(of: key), range))
        }
        let ranges = markRanges.map(\.range) + paragraphRanges.map(\.range)
        split(at: ranges.flatMap { [$0.lowerBound, $0.upperBound] }, in: sequence)
        for (operation, range) in markRanges {
            update(range) { winners, _ in
                if let current = winners[operation.name], !operation.wins(over: current) { return }
                winners[operation.name] = MarkWinner(operation)
            }
        }
        for (attributes, range) in paragraphRanges {
            update(range) { _, paragraph in paragraph = attributes }
        }
        return Self.union(ranges)
    }

    /// The visible scalars of the paragraph `key` names, its ending newline included; nil
    /// when its newline is not visible (the key is dead, Docs/FORMAT.md §10.5).
    static func scalars(ofParagraph key: ParagraphKey, in sequence: TextSequence) -> Range<Int>? {
        var start = 0
        if case .newline(let id) = key {
            guard let position = sequence.position(of: id.replica, seq: id.seq), !sequence.run(at: position).isDeleted else { return nil }
            start = sequence.visibleOffsets(before: position).scalars + 1
        }
        let end = sequence.firstNewline(atOrAfterScalar: start).map { $0 + 1 } ?? sequence.scalarCount
        return start..<end
    }

    /// Sorted, non-overlapping ranges covering exactly the non-empty `ranges`.
    static func union(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, range.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }

    /// Applies `change` to the winners and paragraph of the runs of `range` (whose ends are
    /// run starts or the end).
    private mutating func update(_ range: Range<Int>, _ change: (inout [String: MarkWinner], inout ParagraphAttributes) -> Void) {
        guard !range.isEmpty, range.upperBound <= scalarCount else { return }
        var i = run(atScalar: range.lowerBound)
        while i < count, scalarStarts[i] < range.upperBound {
            var winners = self.winners[i]
            var paragraph = attributes[i].paragraph
            change(&winners, &paragraph)
            self.winners[i] = winners
            attributes[i] = TextAttributes(winners: winners, paragraph: paragraph)
            i += 1
        }
    }

    /// Makes a run start at each of the scalar offsets `points` (any order; 0 and the end are
    /// ignored), in one pass over the runs.
    private mutating func split(at points: [Int], in sequence: TextSequence) {
        let cuts = Set(points.filter { $0 > 0 && $0 < scalarCount }).sorted()
        guard !cuts.isEmpty else { return }
        var result = AttributeRuns(scalarCount: scalarCount, utf16Count: utf16Count)
        var next = 0
        for i in 0..<count {
            result.append(scalarStarts[i], utf16Starts[i], attributes[i], winners[i])
            let end = scalars(ofRun: i).upperBound
            while next < cuts.count, cuts[next] < end {
                if cuts[next] > scalarStarts[i] {
                    result.append(cuts[next], utf16Offset(ofScalar: cuts[next], in: sequence), attributes[i], winners[i])
                }
                next += 1
            }
        }
        self = result
    }
}
