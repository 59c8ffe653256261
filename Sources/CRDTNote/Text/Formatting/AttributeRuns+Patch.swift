/// What a text view shows while a patch is computed: the attributes before a change as runs of
/// (scalar length, attributes), with the change's replacements applied to them in order.
struct ViewRuns {
    private(set) var lengths: [Int] = []
    private(set) var attributes: [TextAttributes] = []

    /// The view of a note whose attributes are `runs`.
    init(_ runs: AttributeRuns) {
        for i in 0..<runs.count {
            lengths.append(runs.scalars(ofRun: i).count)
            attributes.append(runs.attributes[i])
        }
    }

    /// The scalars the view holds.
    var scalarCount: Int { lengths.reduce(0, +) }

    /// Replaces the scalars `range` with `inserted` scalars carrying `value` (a text view gives
    /// typed text its typing attributes; merged text gets none). O(r).
    mutating func replace(_ range: Range<Int>, inserted: Int, carrying value: TextAttributes) {
        var newLengths: [Int] = []
        var newAttributes: [TextAttributes] = []
        newLengths.reserveCapacity(lengths.count + 2)
        newAttributes.reserveCapacity(lengths.count + 2)
        func append(_ length: Int, _ attributes: TextAttributes) {
            guard length > 0 else { return }
            newLengths.append(length)
            newAttributes.append(attributes)
        }
        // The parts before the range, the inserted scalars, the parts after it.
        var start = 0
        for (length, attributes) in zip(lengths, attributes) {
            append(Swift.min(start + length, range.lowerBound) - start, attributes)
            start += length
        }
        append(inserted, value)
        start = 0
        for (length, attributes) in zip(lengths, attributes) {
            append(start + length - Swift.max(start, range.upperBound), attributes)
            start += length
        }
        lengths = newLengths
        attributes = newAttributes
    }
}

extension AttributeRuns {
    /// The attribute changes that take `view` (the text before a change, with its replacements
    /// applied) to these attributes: maximal stretches that differ, neighbours with one new value
    /// joined, in order. O(r) in the runs of both, plus a UTF-16 lookup per change in `sequence`
    /// (the note these runs index). Nil when the view does not hold as many scalars as the note.
    func changes(from view: ViewRuns, in sequence: TextSequence) -> [TextAttributeChange]? {
        guard view.scalarCount == scalarCount else { return nil }
        var changes: [TextAttributeChange] = []
        var i = 0, j = 0
        var position = 0
        var viewEnd = view.lengths.first ?? 0
        while position < scalarCount {
            let afterEnd = scalars(ofRun: j).upperBound
            let end = Swift.min(viewEnd, afterEnd)
            if view.attributes[i] != attributes[j] { Self.add(position..<end, attributes[j], to: &changes) }
            position = end
            if viewEnd == end, i + 1 < view.lengths.count {
                i += 1
                viewEnd += view.lengths[i]
            }
            if afterEnd == end { j += 1 }
        }
        return withUTF16Ranges(changes, in: sequence)
    }

    /// The attribute changes from `before`, the attributes of the same text, to these, looking
    /// only at the scalars `touched` (sorted and apart; elsewhere the two agree): O(log r + the
    /// runs inside them) each.
    func changes(from before: AttributeRuns, within touched: [Range<Int>], in sequence: TextSequence) -> [TextAttributeChange] {
        var changes: [TextAttributeChange] = []
        for range in touched where !range.isEmpty && range.upperBound <= scalarCount {
            var i = before.run(atScalar: range.lowerBound)
            var j = run(atScalar: range.lowerBound)
            var position = range.lowerBound
            while position < range.upperBound {
                let end = Swift.min(before.scalars(ofRun: i).upperBound, scalars(ofRun: j).upperBound, range.upperBound)
                if before.attributes[i] != attributes[j] { Self.add(position..<end, attributes[j], to: &changes) }
                position = end
                if before.scalars(ofRun: i).upperBound == end { i += 1 }
                if scalars(ofRun: j).upperBound == end { j += 1 }
            }
        }
        return withUTF16Ranges(changes, in: sequence)
    }

    /// Adds a change of the scalars `range` to `attributes` after `changes`, joined with the
    /// last one when it ends there with the same attributes (UTF-16 ranges are filled in later).
    private static func add(_ range: Range<Int>, _ attributes: TextAttributes, to changes: inout [TextAttributeChange]) {
        if let last = changes.last, last.scalarRange.upperBound == range.lowerBound, last.attributes == attributes {
            changes[changes.count - 1].scalarRange = last.scalarRange.lowerBound..<range.upperBound
        } else {
            changes.append(TextAttributeChange(utf16Range: 0..<0, scalarRange: range, attributes: attributes))
        }
    }

    /// `changes` with their UTF-16 ranges filled in from their scalar ranges.
    private func withUTF16Ranges(_ changes: [TextAttributeChange], in sequence: TextSequence) -> [TextAttributeChange] {
        changes.map { change in
            var change = change
            let scalars = change.scalarRange
            change.utf16Range = utf16Offset(ofScalar: scalars.lowerBound, in: sequence)..<utf16Offset(ofScalar: scalars.upperBound, in: sequence)
            return change
        }
    }

    /// The UTF-16 offset of scalar `k` (`0...scalarCount`): by the run when its text has no
    /// surrogate pairs, else from the sequence.
    func utf16Offset(ofScalar k: Int, in sequence: TextSequence) -> Int {
        guard k < scalarCount else { return utf16Count }
        let run = run(atScalar: k)
        if scalars(ofRun: run).count == utf16(ofRun: run).count { return utf16Starts[run] + k - scalarStarts[run] }
        return sequence.utf16Offset(ofScalar: k)
    }
}
