/// What a text view must do after a merge, an undo or a redo: apply ``patch`` to its text
/// (replacements in order, by UTF-16 range) and then select ``selectedUTF16Range``.
public struct EditorUpdate: Sendable, Equatable {
    /// How the text changed.
    public var patch: TextPatch
    /// The selection to show afterwards (empty for a caret).
    public var selectedUTF16Range: Range<Int>

    /// An update made of a patch and the selection after it.
    package init(patch: TextPatch, selectedUTF16Range: Range<Int>) {
        self.patch = patch
        self.selectedUTF16Range = selectedUTF16Range
    }
}
