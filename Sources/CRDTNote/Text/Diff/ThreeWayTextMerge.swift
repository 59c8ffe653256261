/// The three-way merge of plain texts: the edits that apply to `theirs` what `mine` changed
/// relative to `ancestor`. It is the fallback for a device whose changes name characters a
/// compaction dropped (issue 31): its ancestor's text against its own, applied to the
/// compacted state. Docs/RECORD-FORMAT.md ("Three-way text merge (fallback after
/// compaction)") specifies it for other implementations.
///
/// Both changes are found with the whole-text diff, `TextDiff.edits` (ancestor → mine and
/// ancestor → theirs), as hunks in Unicode-scalar offsets of the ancestor. A hunk is *attached*
/// to the ancestor gap where it starts: before the first character it deletes, or where it
/// inserts when it deletes nothing. The merged text is, gap by gap from the start of the
/// ancestor: the insertions attached at that gap, then the ancestor character after the gap
/// unless a side deleted it. So:
///
/// - an ancestor character both sides kept stays; one either side deleted is gone, once (mine
///   deleting what theirs already deleted deletes nothing more), and text theirs inserted is
///   never deleted, even inside a stretch mine deleted;
/// - every insertion of mine is inserted once, at its gap: after an insertion of theirs
///   attached at an earlier gap (also when theirs' hunk deleted across mine's gap), before one
///   attached at a later gap;
/// - when both attached a non-empty insertion at the same gap, a pure insertion (one that
///   deleted nothing) goes before a replacement; otherwise the one that sorts first
///   (`TextDiff.sortsFirst`: by scalar values) goes first. Equal insertions are both kept: the
///   merge cannot tell one word typed on two devices from the same word typed once. When the
///   two side by side would join a letter or digit to a letter or digit, `TextDiff.separator`
///   (the space or tab before the second in its own text, else after the first in its own
///   text) goes between them, as in the insertions-only fold;
/// - the rules are symmetric: merging theirs' changes into mine gives the same text, except
///   for the order of (and separator between) two equal insertions at one gap;
/// - edits start and end where the diff's hunks do, on grapheme-cluster boundaries of the
///   ancestor and of theirs (`TextDiff.isAttached`), so no cluster is split;
/// - cost: the two diffs (with their budgets) plus time linear in the number of hunks and the
///   inserted text.
enum ThreeWayTextMerge {
    /// The edits (end to start, scalar offsets into `theirs`, as `TextDiff.edits` gives them)
    /// that apply to `theirs` what `mine` changed relative to `ancestor`. All three are valid
    /// UTF-8. No edits when mine equals the ancestor; the diff ancestor → mine when theirs does.
    static func edits(ancestor: [UInt8], mine: [UInt8], theirs: [UInt8]) -> [TextDiff.Edit] {
        let mineEdits = TextDiff.edits(from: ancestor, to: mine)
        if mineEdits.isEmpty { return [] }
        let theirEdits = TextDiff.edits(from: ancestor, to: theirs)
        if theirEdits.isEmpty { return mineEdits }
        var builder = Builder(theirs: TextDiff.forwardHunks(theirEdits),
                              mine: TextDiff.decodeScalars(mine[...]), theirText: TextDiff.decodeScalars(theirs[...]))
        for hunk in TextDiff.forwardHunks(mineEdits) { builder.apply(hunk) }
        return builder.changes.reversed().map { c in
            TextDiff.edit(offset: c.start, deleteCount: c.end - c.start, inserting: c.insert[...])
        }
    }

    /// A change to theirs: scalars `start..<end` replaced with `insert`.
    struct Change: Equatable {
        var start: Int
        var end: Int
        var insert: [UInt32]
    }

    /// Maps mine's hunks, in order, onto theirs.
    private struct Builder {
        /// Theirs' hunks, from the start.
        let theirs: [TextDiff.Hunk]
        /// `shift[k]`: scalars inserted minus deleted by theirs' hunks before hunk `k`.
        let shift: [Int]
        let mine: [UInt32], theirText: [UInt32]
        /// The changes so far, from the start of theirs, touching ones joined.
        private(set) var changes: [Change] = []
        /// The first of theirs' hunks not wholly before the current gap.
        private var next = 0

        init(theirs: [TextDiff.Hunk], mine: [UInt32], theirText: [UInt32]) {
            self.theirs = theirs
            self.mine = mine
            self.theirText = theirText
            var shift = [0]
            shift.reserveCapacity(theirs.count + 1)
            for h in theirs { shift.append(shift[shift.count - 1] + (h.newEnd - h.newStart) - (h.oldEnd - h.oldStart)) }
            self.shift = shift
        }

        /// Adds mine's hunk (in ancestor offsets; its insertion `newStart..<newEnd` of mine).
        /// Hunks come in order, so the changes come in order of their position in theirs.
        mutating func apply(_ hunk: TextDiff.Hunk) {
            let gap = hunk.oldStart
            while next < theirs.count && (theirs[next].oldEnd < gap || (theirs[next].oldEnd == gap && theirs[next].oldStart < gap)) {
                next += 1
            }
            if hunk.newEnd > hunk.newStart { insert(hunk, at: gap) }
            delete(hunk.oldStart..<hunk.oldEnd)
        }

        /// Places mine's insertion at its gap (see the type's rules).
        private mutating func insert(_ hunk: TextDiff.Hunk, at gap: Int) {
            var at = gap + shift[next]
            var piece = Array(mine[hunk.newStart..<hunk.newEnd])
            if next < theirs.count {
                let other = theirs[next]
                if other.oldStart < gap {
                    // Theirs deleted across the gap: its insertion is attached before it.
                    at = other.newEnd
                } else if other.oldStart == gap && other.newEnd > other.newStart {
                    let minePure = hunk.oldStart == hunk.oldEnd, theirsPure = other.oldStart == other.oldEnd
                    let mineFirst = minePure != theirsPure
                        ? minePure
                        : TextDiff.sortsFirst(mine[hunk.newStart..<hunk.newEnd], before: theirText[other.newStart..<other.newEnd])
                    let mp = TextDiff.Piece(start: hunk.newStart, end: hunk.newEnd, text: mine)
                    let tp = TextDiff.Piece(start: other.newStart, end: other.newEnd, text: theirText)
                    if mineFirst {
                        if let s = TextDiff.separator(between: mp, and: tp) { piece.append(s) }
                    } else {
                        at = other.newEnd
                        if let s = TextDiff.separator(between: tp, and: mp) { piece.insert(s, at: 0) }
                    }
                }
            }
            add(Change(start: at, end: at, insert: piece))
        }

        /// Deletes the ancestor characters of `range` that theirs kept, never theirs' insertions.
        private mutating func delete(_ range: Range<Int>) {
            var i = range.lowerBound, k = next
            while i < range.upperBound {
                while k < theirs.count && theirs[k].oldEnd <= i { k += 1 }
                if k < theirs.count && theirs[k].oldStart <= i {
                    i = theirs[k].oldEnd  // theirs deleted these already
                    continue
                }
                let stop = k < theirs.count ? min(range.upperBound, theirs[k].oldStart) : range.upperBound
                let start = i + shift[k]
                add(Change(start: start, end: start + stop - i, insert: []))
                i = stop
            }
        }

        /// Appends a change, joining it to the previous one when they touch (the previous
        /// one's text first).
        private mutating func add(_ change: Change) {
            if change.start == change.end && change.insert.isEmpty { return }
            if var last = changes.last, last.end == change.start {
                last.end = change.end
                last.insert += change.insert
                changes[changes.count - 1] = last
            } else {
                changes.append(change)
            }
        }
    }
}
