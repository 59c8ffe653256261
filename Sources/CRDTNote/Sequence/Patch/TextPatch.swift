/// How the visible text of a note changed: the replacements to apply, in order, to the old
/// text to get the new one. Returned by ``NoteText/merge(_:)``, ``NoteText/apply(_:)``,
/// ``NoteText/undo()`` and ``NoteText/redo()`` so a text view can update only what changed.
///
/// Each replacement's ranges refer to the text as it is after the replacements before it in
/// the list. Adjacent changes are coalesced; an empty patch means nothing visible changed.
public struct TextPatch: Sendable, Equatable {
    /// The replacements, to be applied in order.
    public var replacements: [TextReplacement]

    /// A patch made of `replacements` (applied in order).
    package init(replacements: [TextReplacement] = []) {
        self.replacements = replacements
    }

    /// True when the visible text did not change.
    public var isEmpty: Bool { replacements.isEmpty }
}

/// One replacement of a ``TextPatch``: the units in a range of the text (as it is at that point
/// of the patch) give way to `text`. Both ranges describe the same stretch of text.
public struct TextReplacement: Sendable, Equatable {
    /// The replaced range in UTF-16 code units (what `NSRange` and text views use).
    public var utf16Range: Range<Int>
    /// The replaced range in Unicode scalars.
    public var scalarRange: Range<Int>
    /// The text that takes the range's place (empty for a deletion).
    public var text: String

    /// A replacement of `scalarRange` / `utf16Range` (the same stretch) by `text`.
    package init(utf16Range: Range<Int>, scalarRange: Range<Int>, text: String) {
        self.utf16Range = utf16Range
        self.scalarRange = scalarRange
        self.text = text
    }
}
