extension NoteText {
    /// A selection for a UTF-16 range (as in `NSRange`), with the biases ``TextSelection`` describes.
    /// Throws as ``anchor(atUTF16:bias:)`` does for either end.
    public func selection(utf16Range range: Range<Int>) throws(NoteTextError) -> TextSelection {
        if range.isEmpty { return TextSelection(caret: try anchor(atUTF16: range.lowerBound, bias: .before)) }
        return TextSelection(start: try anchor(atUTF16: range.lowerBound, bias: .after),
                             end: try anchor(atUTF16: range.upperBound, bias: .before))
    }

    /// The selection's current UTF-16 range, or nil when this copy has never held a character
    /// one of its anchors is attached to.
    public func utf16Range(of selection: TextSelection) -> Range<Int>? {
        guard let lower = utf16Offset(of: selection.start), let upper = utf16Offset(of: selection.end) else { return nil }
        return lower..<max(lower, upper)
    }

    /// The selection's current Unicode-scalar range; see ``utf16Range(of:)``.
    public func scalarRange(of selection: TextSelection) -> Range<Int>? {
        guard let lower = scalarOffset(of: selection.start), let upper = scalarOffset(of: selection.end) else { return nil }
        return lower..<max(lower, upper)
    }
}
