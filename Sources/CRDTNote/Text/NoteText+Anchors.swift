extension NoteText {
    /// An anchor for UTF-16 `offset` (0...utf16Count, as in `NSRange`), attached to the character
    /// before it (``TextAnchor/Bias/before``) or after it (``TextAnchor/Bias/after``). Offset 0 with
    /// `.before` gives ``TextAnchor/start``; the end with `.after` gives ``TextAnchor/end``.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` outside the text and
    /// ``NoteTextError/Code/insideSurrogatePair`` between the halves of a surrogate pair
    /// (``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built).
    public func anchor(atUTF16 offset: Int, bias: TextAnchor.Bias) throws(NoteTextError) -> TextAnchor {
        guard offset >= 0, offset <= utf16Count else {
            throw NoteTextError(.outOfBounds, "UTF-16 offset \(offset) is outside 0...\(utf16Count)")
        }
        let sequence = try indexForReading()
        if offset == sequence.utf16Count { return Self.anchor(scalar: sequence.scalarCount, bias: bias, in: sequence) }
        guard let scalar = sequence.scalarIndex(ofUTF16: offset) else {
            throw NoteTextError(insideSurrogatePairAt: offset)
        }
        return Self.anchor(scalar: scalar, bias: bias, in: sequence)
    }

    /// An anchor for Unicode-scalar `offset` (0...scalarCount); see ``anchor(atUTF16:bias:)``.
    /// Throws ``NoteTextError/Code/outOfBounds`` outside the text.
    public func anchor(atScalar offset: Int, bias: TextAnchor.Bias) throws(NoteTextError) -> TextAnchor {
        guard offset >= 0, offset <= scalarCount else {
            throw NoteTextError(.outOfBounds, "scalar offset \(offset) is outside 0...\(scalarCount)")
        }
        return Self.anchor(scalar: offset, bias: bias, in: try indexForReading())
    }

    /// The anchor's current UTF-16 offset, or nil when this copy does not hold the character it
    /// is attached to: it was made on a copy with edits not merged here yet, or the character was
    /// deleted and a compaction has dropped it since (Docs/FORMAT.md §4.7).
    ///
    /// A ``TextAnchor/Bias/after`` anchor sits just before its character, a
    /// ``TextAnchor/Bias/before`` anchor just after it; once the character is deleted, either sits
    /// where it was. O(log n): a lookup by id and a prefix sum, never a walk of the text.
    ///
    /// On a note loaded from a snapshot this builds the index (once, shared by its copies); when
    /// the snapshot's runs are corrupt, anchors on characters resolve to nil (the note's next
    /// edit or merge throws `corruptSnapshot`), while ``TextAnchor/start`` and ``TextAnchor/end``
    /// still resolve.
    public func utf16Offset(of anchor: TextAnchor) -> Int? {
        resolve(anchor)?.utf16
    }

    /// The anchor's current Unicode-scalar offset; see ``utf16Offset(of:)``.
    public func scalarOffset(of anchor: TextAnchor) -> Int? {
        resolve(anchor)?.scalars
    }

    /// Both offsets of an anchor, or nil when the character is unknown here.
    func resolve(_ anchor: TextAnchor) -> (scalars: Int, utf16: Int)? {
        switch anchor.target {
        case .start:
            return (0, 0)
        case .end:
            return (scalarCount, utf16Count)
        case .character(let replica, let seq):
            // A built index is read in place: a copy of the sequence would retain every array it holds.
            if deferred == nil { return Self.offsets(of: replica, seq: seq, bias: anchor.bias, in: sequence) }
            do {
                return Self.offsets(of: replica, seq: seq, bias: anchor.bias, in: try loadedSequence())
            } catch {
                return nil  // documented: a corrupt loaded snapshot knows no character
            }
        }
    }

    /// Both offsets of the character `seq` of `replica`, on the side `bias` says.
    private static func offsets(of replica: ReplicaID, seq: UInt32, bias: TextAnchor.Bias, in sequence: borrowing TextSequence) -> (scalars: Int, utf16: Int)? {
        guard let position = sequence.position(of: replica, seq: seq) else { return nil }
        return bias == .after ? sequence.visibleOffsets(before: position) : sequence.visibleOffsets(through: position)
    }

    /// The anchor for a valid scalar offset.
    private static func anchor(scalar k: Int, bias: TextAnchor.Bias, in sequence: TextSequence) -> TextAnchor {
        switch bias {
        case .before:
            if k == 0 { return .start }
            let id = sequence.visibleID(ofScalar: k - 1)
            return TextAnchor(target: .character(replica: id.replica, seq: id.seq), bias: .before)
        case .after:
            if k == sequence.scalarCount { return .end }
            let id = sequence.visibleID(ofScalar: k)
            return TextAnchor(target: .character(replica: id.replica, seq: id.seq), bias: .after)
        }
    }
}
