extension NoteText {
    /// Applies to this note what `mine` changed relative to `ancestor`, as local edits of this
    /// note's replica in one undo step: the three-way text merge (``ThreeWayTextMerge``) with
    /// this note's text as theirs. For a device whose changes name characters a compaction
    /// dropped (issue 31): its ancestor's text and its own, applied to the compacted state.
    ///
    /// Throws ``NoteTextError/Code/tooLarge``, changing nothing, when the inserted text would
    /// take the note past its limits, and ``NoteTextError/Code/corruptSnapshot`` when a loaded
    /// snapshot's index cannot be built.
    mutating func applyChanges(from ancestor: String, to mine: String) throws(NoteTextError) {
        let ancestor = Array(ancestor.utf8), mine = Array(mine.utf8)
        try applyEdits { theirs in ThreeWayTextMerge.edits(ancestor: ancestor, mine: mine, theirs: theirs) }
    }
}
