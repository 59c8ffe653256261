/// What reverses one undo step, in terms of element ids so it still applies after other
/// devices' edits have moved everything around: this replica's characters to delete (where
/// still visible), and deleted text to bring back as new characters after the element it followed.
struct UndoStep: Sendable {
    /// Sequence numbers of this replica's characters to delete.
    var deletions: [Range<UInt32>] = []
    /// Deleted text to insert again, each piece after the last element it was made of.
    var restorations: [RestorePiece] = []

    var isEmpty: Bool { deletions.isEmpty && restorations.isEmpty }

    /// Empties the step, keeping small storage for the next step made in its place.
    mutating func removeAll() {
        if !deletions.isEmpty { deletions.removeAll(keepingCapacity: deletions.capacity <= 64) }
        if !restorations.isEmpty { restorations.removeAll(keepingCapacity: restorations.capacity <= 64) }
    }

    /// Adds this replica's ids `seqs`, extending the last range when they continue it (typing on).
    mutating func addDeletion(_ seqs: Range<UInt32>) {
        if seqs.isEmpty { return }
        if let last = deletions.last, last.upperBound == seqs.lowerBound {
            deletions[deletions.count - 1] = last.lowerBound..<seqs.upperBound
        } else {
            deletions.append(seqs)
        }
    }

    /// Puts `piece` in front of the step's pieces, joining the first one when it continues it
    /// (ids and bytes).
    mutating func addFrontPiece(_ piece: RestorePiece) {
        if !restorations.isEmpty, restorations[0].canTakeInFront(piece) {
            restorations[0].prepend(piece)
        } else {
            restorations.insert(piece, at: 0)
        }
    }

    /// Where pieces of deleted text go in a step.
    enum Side: Sendable {
        /// In front of the step's pieces, right before the first one in the text (backspacing).
        case front
        /// After the step's pieces, right after the last one in the text (deleting forwards, or
        /// the next stretch of one deletion).
        case back
        /// After the step's pieces, not next to them in the text.
        case apart
    }

    /// Adds a stretch of deleted text on `side`, joining it to its neighbour when
    /// both are next to each other in the text, their ids continue each other and their bytes
    /// do too in the note's content buffer (so a word backspaced letter by letter comes back as
    /// one run). Nothing is copied: pieces point into the content buffer, which only grows.
    mutating func addRestoration(_ stretch: VisibleStretch, on side: Side) {
        switch side {
        case .front:
            addFrontPiece(stretch)
        case .back:
            let piece = stretch
            if let i = restorations.indices.last, piece.canTakeInFront(restorations[i]) {
                restorations[i].append(piece)
            } else {
                restorations.append(piece)
            }
        case .apart:
            restorations.append(stretch)
        }
    }
}

/// Deleted text (valid UTF-8) that undo or redo inserts again, as new characters placed right
/// after `last`, the last element the text was made of (a tombstone by then): a stretch as the
/// deletion recorded it, or several joined (``VisibleStretch/canTakeInFront(_:)``).
typealias RestorePiece = VisibleStretch
