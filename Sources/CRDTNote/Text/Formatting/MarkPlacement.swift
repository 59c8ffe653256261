/// Where a non-empty range of visible text lies in a note's order, as a mark operation made on
/// it needs it (Docs/FORMAT.md §10.1–10.4): its scalars, the positions of its first and last
/// characters and of the visible character after it. Found with as few tree searches as the
/// range's ends need: one for a range given in UTF-16 (the caller's unit; its far end is stepped
/// to, unless it lies many runs on), the rest by stepping.
struct MarkPlacement {
    /// The range's Unicode scalars (not empty).
    var scalars: Range<Int>
    /// Its first and last characters.
    var first: TreePosition
    var last: TreePosition
    /// The visible character after it; nil when the range reaches the end of the text.
    var after: TreePosition?

    /// The placement of the scalars `range` (non-empty, inside the text) of `sequence`.
    /// (Static functions, not initializers: an initializer takes `sequence` owned, which copies
    /// every field of the note's index per call.)
    static func of(scalars range: Range<Int>, in sequence: TextSequence) -> MarkPlacement {
        let first = sequence.position(ofScalar: range.lowerBound)
        let last = range.count == 1 ? first : sequence.position(ofScalar: range.upperBound - 1)
        return MarkPlacement(scalars: range, first: first, last: last,
                             after: range.upperBound == sequence.scalarCount ? nil : sequence.nextVisibleElement(after: last))
    }

    /// The placement of the UTF-16 `range` (non-empty, inside the text) of `sequence`: one tree
    /// search, and one more for a far end many runs on. Throws
    /// ``NoteTextError/Code/insideSurrogatePair`` when an end splits a surrogate pair.
    static func of(utf16 range: Range<Int>, in sequence: TextSequence) throws(NoteTextError) -> MarkPlacement {
        guard let lower = sequence.scalarPosition(ofUTF16: range.lowerBound) else {
            throw NoteTextError(insideSurrogatePairAt: range.lowerBound)
        }
        if range.upperBound == sequence.utf16Count {
            return MarkPlacement(scalars: lower.scalar..<sequence.scalarCount, first: lower.position,
                                 last: sequence.position(ofScalar: sequence.scalarCount - 1), after: nil)
        }
        // Stepped to from the start (ranges are short): no second search of the tree.
        guard let upper = sequence.scalarPosition(ofUTF16: range.upperBound, after: lower, atUTF16: range.lowerBound) else {
            throw NoteTextError(insideSurrogatePairAt: range.upperBound)
        }
        // A non-empty range: the character before `upper` is at or after `first`.
        return MarkPlacement(scalars: lower.scalar..<upper.scalar, first: lower.position,
                             last: sequence.previousVisibleElement(before: upper.position) ?? lower.position, after: upper.position)
    }

    /// The visible character before the range; nil when it starts the text.
    func before(in sequence: TextSequence) -> TreePosition? {
        scalars.lowerBound == 0 ? nil : sequence.previousVisibleElement(before: first)
    }
}
