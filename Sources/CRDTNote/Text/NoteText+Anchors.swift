extension NoteText {
    /// An anchor for UTF-16 `offset` (0...utf16Count, as in `NSRange`), attached to the character
    /// before it (``TextAnchor/Bias/before``) or after it (``TextAnchor/Bias/after``). Offset 0 with
    /// `.before` gives ``TextAnchor/start``; the end with `.after` gives ``TextAnchor/end``.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` outside the text and
    /// ``NoteTextError/Code/insideSurrogatePair`` between the halves of a surrogate pair.
    public func anchor(atUTF16 offset: Int, bias: TextAnchor.Bias) throws(NoteTextError) -> TextAnchor {
        guard offset >= 0, offset <= sequence.utf16Count else {
            throw NoteTextError(.outOfBounds, "UTF-16 offset \(offset) is outside 0...\(sequence.utf16Count)")
        }
        if offset == sequence.utf16Count { return anchor(scalar: sequence.scalarCount, bias: bias) }
        guard let scalar = sequence.scalarIndex(ofUTF16: offset) else {
            throw NoteTextError(.insideSurrogatePair, "UTF-16 offset \(offset) falls inside a surrogate pair")
        }
        return anchor(scalar: scalar, bias: bias)
    }

    /// An anchor for Unicode-scalar `offset` (0...scalarCount); see ``anchor(atUTF16:bias:)``.
    /// Throws ``NoteTextError/Code/outOfBounds`` outside the text.
    public func anchor(atScalar offset: Int, bias: TextAnchor.Bias) throws(NoteTextError) -> TextAnchor {
        guard offset >= 0, offset <= sequence.scalarCount else {
            throw NoteTextError(.outOfBounds, "scalar offset \(offset) is outside 0...\(sequence.scalarCount)")
        }
        return anchor(scalar: offset, bias: bias)
    }

    /// The anchor's current UTF-16 offset, or nil when this copy has never held the character it
    /// is attached to (it was made on a copy with edits not merged here yet).
    ///
    /// A ``TextAnchor/Bias/after`` anchor sits just before its character, a
    /// ``TextAnchor/Bias/before`` anchor just after it; once the character is deleted, either sits
    /// where it was. O(log n): a lookup by id and a prefix sum, never a walk of the text.
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
            return (sequence.scalarCount, sequence.utf16Count)
        case .character(let replica, let seq):
            guard let position = sequence.position(of: replica, seq: seq) else { return nil }
            return anchor.bias == .after
                ? sequence.visibleOffsets(before: position)
                : sequence.visibleOffsets(through: position)
        }
    }

    /// The anchor for a valid scalar offset.
    private func anchor(scalar k: Int, bias: TextAnchor.Bias) -> TextAnchor {
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
