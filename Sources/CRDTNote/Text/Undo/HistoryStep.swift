/// One step of a note's undo (or redo) stack: text edits to reverse, as ids, a formatting
/// command to reverse, as the attributes to set back, or both (a whole attributed update,
/// ``NoteText/setFormattedText(_:)``: the text part is performed first, then the formatting).
struct HistoryStep: Sendable {
    /// The text edits' reversal (empty for a formatting step).
    var text = UndoStep()
    /// The formatting command's reversal (nil for a text step).
    var formatting: FormattingUndoStep?

    /// Whether the step reverses nothing.
    var isEmpty: Bool { text.isEmpty && (formatting?.isEmpty ?? true) }

    /// Empties the step, keeping small storage for the next step made in its place.
    mutating func removeAll() {
        text.removeAll()
        formatting = nil
    }
}
