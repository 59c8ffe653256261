import Foundation

/// Bringing back the past (Docs/FORMAT.md §11.5): new forward edits by this copy's replica,
/// found element by element from the walk of the past, applied as one edit (one undo step, one
/// stamp), so they merge with concurrent edits like any edit.
extension NoteText {
    /// Makes the text what it was at `date` (``text(at:)``): deletes what was not there then and
    /// types again what was deleted since, each at its place. Throws as ``text(at:)`` does, and
    /// ``NoteHistoryError/Code/editRefused`` when the note refuses the edit (its limits);
    /// nothing changes when it throws.
    public mutating func restore(to date: Date) throws(NoteHistoryError) {
        var edits = RestoreEdits()
        try walkPast(at: date) { element in
            switch (element.isVisible, element.wasVisible) {
            case (true, false): edits.delete()
            case (false, true): edits.insert(element.utf8)
            case (true, true): edits.keep()
            case (false, false): break
            }
        }
        try apply(edits)
    }

    /// Types again the text that `utf16Range` of the text at `date` held and that has been
    /// deleted since, each piece where its neighbours put it now; the rest of the note is not
    /// touched (text of the range still there stays as it is). Throws as ``restore(to:)`` does,
    /// and ``NoteHistoryError/Code/invalidRange`` for a range beyond the text at `date`.
    public mutating func restore(utf16Range: Range<Int>, at date: Date) throws(NoteHistoryError) {
        var edits = RestoreEdits()
        var pastOffset = 0
        try walkPast(at: date) { element in
            let width = element.utf8.first.map { $0 >= 0xF0 ? 2 : 1 } ?? 1
            let inRange = element.wasVisible && pastOffset < utf16Range.upperBound && pastOffset + width > utf16Range.lowerBound
            if element.wasVisible { pastOffset += width }
            if element.isVisible {
                edits.keep()
            } else if inRange {
                edits.insert(element.utf8)
            }
        }
        guard utf16Range.lowerBound >= 0, utf16Range.upperBound <= pastOffset else {
            throw NoteHistoryError(.invalidRange, "UTF-16 range \(utf16Range) is beyond the text at that time (\(pastOffset) UTF-16 units)")
        }
        try apply(edits)
    }

    private mutating func apply(_ edits: RestoreEdits) throws(NoteHistoryError) {
        guard !edits.edits.isEmpty else { return }
        do {
            try applyEdits { _ in edits.edits.reversed() }
        } catch {
            throw NoteHistoryError(.editRefused, "the restore was refused: \(error.message)", textError: error)
        }
    }
}

/// The edits of a restore, gathered in document order: each element of the current text is
/// kept or deleted, and past text is inserted between them.
struct RestoreEdits {
    private(set) var edits: [TextDiff.Edit] = []
    /// Scalars of the current text passed so far.
    private var offset = 0

    mutating func keep() { offset += 1 }

    mutating func delete() {
        open()
        edits[edits.count - 1].deleteCount += 1
        offset += 1
    }

    mutating func insert(_ utf8: ArraySlice<UInt8>) {
        guard let lead = utf8.first else { return }
        open()
        edits[edits.count - 1].insert.append(contentsOf: utf8)
        edits[edits.count - 1].insertScalars += 1
        edits[edits.count - 1].insertUTF16 += lead >= 0xF0 ? 2 : 1
    }

    /// Makes the last edit one that continues at `offset`.
    private mutating func open() {
        if let last = edits.last, last.offset + last.deleteCount == offset { return }
        edits.append(TextDiff.Edit(offset: offset, deleteCount: 0, insert: [], insertScalars: 0, insertUTF16: 0))
    }
}
