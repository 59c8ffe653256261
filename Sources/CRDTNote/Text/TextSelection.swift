/// A selection (or a caret, when empty) held by two ``TextAnchor``s, so it follows its text
/// through local edits, merges and undo.
///
/// Made by ``NoteText/selection(utf16Range:)`` with the biases text views expect:
/// - a non-empty range holds on to the characters it covers: the start is attached to the
///   first selected character (``TextAnchor/Bias/after``), the end to the last one
///   (``TextAnchor/Bias/before``), so text another device inserts at either edge stays outside;
/// - a caret is attached to the character before it (``TextAnchor/Bias/before``, or
///   ``TextAnchor/start`` at offset 0), so text another device inserts exactly at the caret
///   appears after it and does not push it. The local user's own typing moves the caret
///   because the editor makes a new selection after each edit (``NoteEditorSession`` does).
///
/// Resolve it with ``NoteText/utf16Range(of:)``. If everything selected is deleted the range
/// collapses to a caret where the text was.
public struct TextSelection: Sendable, Hashable, Codable {
    /// Where the selection starts.
    public var start: TextAnchor
    /// Where the selection ends (equal to ``start`` for a caret made by ``NoteText/selection(utf16Range:)``).
    public var end: TextAnchor

    /// A selection between two anchors (resolved as `start..<max(start, end)`).
    public init(start: TextAnchor, end: TextAnchor) {
        self.start = start
        self.end = end
    }

    /// A caret at one anchor.
    public init(caret: TextAnchor) {
        self.init(start: caret, end: caret)
    }

    /// True when both ends are the same anchor (a caret).
    public var isCaret: Bool { start == end }
}
