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
