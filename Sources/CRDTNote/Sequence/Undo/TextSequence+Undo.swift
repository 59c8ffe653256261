extension TextSequence {
    /// Performs an undo or redo step as local edits of replica `local`: deletes the step's ids
    /// that are still visible, then inserts each piece of text to restore as a new run of `local`
    /// placed right after the element it followed (with `integrate`, so every replica puts it at
    /// the same place). Records the visible changes in `patch`, in order, and returns the step
    /// that reverses this one. Own characters deleted and brought back since the step was
    /// recorded are found through `restored`, which learns about the text restored now (any
    /// replica's: formatting steps follow restored text too).
    mutating func perform(_ step: UndoStep, replica local: UInt32, restored: inout RestoredIDs, patch: inout TextPatchBuilder) -> UndoStep {
        var inverse = UndoStep()
        for seqs in step.deletions {
            deleteVisible(replica: local, seqs: seqs, restored: restored, patch: &patch, into: &inverse)
        }
        for piece in step.restorations {
            let seqs = restore(piece, replica: local, patch: &patch)
            restored.add(replica: piece.first.replica, old: piece.first.seq..<piece.first.seq &+ UInt32(piece.scalars), newStart: seqs.lowerBound)
            inverse.addDeletion(seqs)
        }
        checkAfterMutation("undo or redo step")
        return inverse
    }

    /// Deletes the visible elements among ids `seqs` of `replica` (and, for those already
    /// deleted, the characters they were restored as), adding the text they held to `inverse`
    /// as pieces to restore.
    private mutating func deleteVisible(replica r: UInt32, seqs: Range<UInt32>, restored: RestoredIDs, patch: inout TextPatchBuilder, into inverse: inout UndoStep) {
        var s = seqs.lowerBound
        // Where the previous stretch was deleted: a stretch found there followed it in the text.
        var previousOffset = -1
        while s < seqs.upperBound {
            let position = locate(ItemRef(replica: r, seq: s))
            let found = run(at: position)
            let take = Int(min(found.length - position.offset, seqs.upperBound - s))
            if !found.isDeleted {
                let before = visibleOffsets(before: position)
                // Within one visible run: one stretch.
                var deleted = DeletedStretches()
                deleteLocal(before.scalars..<before.scalars + take, recording: &deleted)
                if let stretch = deleted.first {
                    patch.replace(scalarOffset: before.scalars, utf16Offset: before.utf16, removedScalars: take,
                                  removedUTF16: stretch.utf16, with: EmptyCollection(), scalars: 0, utf16: 0)
                    inverse.addRestoration(stretch, on: before.scalars == previousOffset ? .back : .apart)
                }
                previousOffset = before.scalars
            } else {
                for again in restored.replacements(of: s..<s &+ UInt32(take), replica: r) {
                    deleteVisible(replica: r, seqs: again, restored: restored, patch: &patch, into: &inverse)
                }
                previousOffset = -1
            }
            s &+= UInt32(take)
        }
    }

    /// Inserts `piece` as new elements of `local`, each stretch of it whose elements still follow
    /// each other in the document right after the last of them: a piece joined from several
    /// deletions (ids and bytes continuing) can span text deleted before it, which that text's
    /// own undo brings back in between. Returns the new ids (consecutive).
    private mutating func restore(_ piece: VisibleStretch, replica local: UInt32, patch: inout TextPatchBuilder) -> Range<UInt32> {
        let start = nextSeq[Int(local)]
        var first = piece.first
        var byte = piece.bytes.lowerBound
        var remaining = (scalars: piece.scalars, utf16: piece.utf16)
        while remaining.scalars > 0 {
            let scalars = adjacentElements(from: first, upTo: remaining.scalars)
            let cut = scalars == remaining.scalars
                ? (bytes: piece.bytes.upperBound - byte, utf16: remaining.utf16)
                : UTF8Counting.prefix(of: content, start: byte, scalars: scalars)
            insertRestored(bytes: byte..<byte + cut.bytes, scalars: scalars, utf16: cut.utf16,
                           after: ItemRef(replica: first.replica, seq: first.seq &+ UInt32(scalars) &- 1), replica: local, patch: &patch)
            first.seq &+= UInt32(scalars)
            byte += cut.bytes
            remaining = (remaining.scalars - scalars, remaining.utf16 - cut.utf16)
        }
        return start..<nextSeq[Int(local)]
    }

    /// How many of the elements `first`, `first` + 1, … (at most `limit`) follow each other in
    /// the document, starting with `first` (at least 1).
    private func adjacentElements(from first: ItemRef, upTo limit: Int) -> Int {
        var position = locate(first)
        var count = 0
        while true {
            count += Int(run(at: position).length &- position.offset)
            if count >= limit { return limit }
            let next = nextRunStart(after: position)
            guard next != endPosition else { return count }
            let r = run(at: next)
            guard r.replica == first.replica, r.seq == first.seq &+ UInt32(count) else { return count }
            position = next
        }
    }

    /// Inserts the content `bytes` (`scalars` scalars, `utf16` units) as a new run of `local`
    /// right after the element `left`, recording the change in `patch`.
    private mutating func insertRestored(bytes: Range<Int>, scalars: Int, utf16: Int, after left: ItemRef, replica local: UInt32,
                                         patch: inout TextPatchBuilder) {
        let next = nextElement(after: locate(left))
        let right = next == endPosition ? ItemRef.none : ref(at: next)
        let seq = nextSeq[Int(local)]
        let text = Array(content[bytes])
        let run = Run(replica: local, seq: seq, length: UInt32(scalars), utf16: UInt32(utf16),
                      byteStart: 0, byteCount: UInt32(text.count), left: left, right: right)
        integrate(run, content: text[...])
        let at = visibleOffsets(before: locate(ItemRef(replica: local, seq: seq)))
        patch.replace(scalarOffset: at.scalars, utf16Offset: at.utf16, removedScalars: 0, removedUTF16: 0,
                      with: text, scalars: scalars, utf16: utf16)
    }
}
