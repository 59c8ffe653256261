/// Where text of two versions goes when both changed the same place: the rules the
/// insertions-only fold (`PlainTextFolding.foldInsertions`) and the three-way text merge
/// (`ThreeWayTextMerge`) share, so both order and separate pieces the same way.
extension TextDiff {
    /// A stretch `start..<end` of a text's Unicode scalar values `text`.
    struct Piece {
        var start: Int
        var end: Int
        var text: [UInt32]

        var scalars: ArraySlice<UInt32> { text[start..<end] }
    }

    /// The hunks of `edits` (as `edits(from:to:)` returns them, end to start) from the start of
    /// the text, with `newStart..<newEnd` the scalars each inserted in the new text.
    static func forwardHunks(_ edits: [Edit]) -> [Hunk] {
        var hunks: [Hunk] = []
        hunks.reserveCapacity(edits.count)
        var shift = 0
        for edit in edits.reversed() {
            let newStart = edit.offset + shift
            hunks.append(Hunk(oldStart: edit.offset, oldEnd: edit.offset + edit.deleteCount,
                              newStart: newStart, newEnd: newStart + edit.insertScalars))
            shift += edit.insertScalars - edit.deleteCount
        }
        return hunks
    }

    /// Whether `x` goes before `y` when both are placed at one spot and nothing else decides:
    /// when it sorts first by Unicode scalar values (a proper prefix sorts first).
    static func sortsFirst(_ x: ArraySlice<UInt32>, before y: ArraySlice<UInt32>) -> Bool {
        x.lexicographicallyPrecedes(y)
    }

    /// The space or tab to put between two pieces placed side by side when they would otherwise
    /// join a letter or digit to a letter or digit (`isAlphanumeric`): the one just before the
    /// second piece in its own text, else the one just after the first piece in its own text;
    /// nil when no separator is needed or neither text has one there.
    static func separator(between first: Piece, and second: Piece) -> UInt32? {
        guard first.end > first.start, second.end > second.start,
              isAlphanumeric(first.text[first.end - 1]),
              isAlphanumeric(second.text[second.start]) else { return nil }
        func isBlank(_ v: UInt32) -> Bool { v == 0x20 || v == 0x09 }
        if second.start > 0, isBlank(second.text[second.start - 1]) { return second.text[second.start - 1] }
        if first.end < first.text.count, isBlank(first.text[first.end]) { return first.text[first.end] }
        return nil
    }
}
