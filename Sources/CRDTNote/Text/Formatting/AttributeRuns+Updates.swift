extension AttributeRuns {
    /// These runs after `marks` and the paragraph settings of `paragraphKeys` were added to
    /// the note's formatting (`formatting`, already holding them) with no change to its text
    /// (`sequence`): each mark operation is weighed against the winners of the characters it
    /// covers, each paragraph takes its resolved attributes. O(k · (log n + r)) for k new
    /// operations, r runs, plus the elements between each operation's anchors.
    mutating func add(_ marks: some Sequence<MarkOperation>, paragraphKeys: some Sequence<ParagraphKey>,
                      formatting: NoteFormatting, in sequence: TextSequence) {
        for operation in marks {
            for range in operation.coveredScalars(in: sequence) {
                update(range, in: sequence) { winners, _ in
                    if let current = winners[operation.name], !operation.wins(over: current) { return }
                    winners[operation.name] = MarkWinner(operation)
                }
            }
        }
        for key in paragraphKeys {
            guard let range = Self.scalars(ofParagraph: key, in: sequence) else { continue }
            let attributes = formatting.resolvedAttributes(of: key)
            update(range, in: sequence) { _, paragraph in paragraph = attributes }
        }
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

    /// Applies `change` to the winners and paragraph of the scalars `range`, splitting the
    /// runs at its ends.
    private mutating func update(_ range: Range<Int>, in sequence: TextSequence,
                                 _ change: (inout [String: MarkWinner], inout ParagraphAttributes) -> Void) {
        guard !range.isEmpty, range.upperBound <= scalarCount else { return }
        let lower = split(atScalar: range.lowerBound, in: sequence)
        let upper = split(atScalar: range.upperBound, in: sequence)
        for i in lower..<upper {
            var winners = self.winners[i]
            var paragraph = attributes[i].paragraph
            change(&winners, &paragraph)
            self.winners[i] = winners
            attributes[i] = TextAttributes(winners: winners, paragraph: paragraph)
        }
    }

    /// Makes a run start at scalar `k` (`0...scalarCount`) and returns its index (the run
    /// count for `k == scalarCount`).
    private mutating func split(atScalar k: Int, in sequence: TextSequence) -> Int {
        guard k < scalarCount else { return count }
        let i = run(atScalar: k)
        if scalarStarts[i] == k { return i }
        let utf16 = utf16Offset(ofScalar: k, in: sequence)
        scalarStarts.insert(k, at: i + 1)
        utf16Starts.insert(utf16, at: i + 1)
        attributes.insert(attributes[i], at: i + 1)
        winners.insert(winners[i], at: i + 1)
        return i + 1
    }
}
