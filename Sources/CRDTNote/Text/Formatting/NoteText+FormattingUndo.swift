extension NoteText {
    /// What reverses a mark command on the visible scalars `range` (nil when no history is kept).
    func markUndoStep(_ kind: TextMarkKind, scalars range: Range<Int>) throws(NoteTextError) -> FormattingUndoStep? {
        guard undoHistory.limit > 0, !range.isEmpty else { return nil }
        let visible = try elementsInOrder().compactMap { $0.scalar == nil ? nil : $0.id }
        return FormattingUndoStep(marks: FormattingUndoStep.restoring(kind, scalars: range, attributes: try scalarAttributes(), visible: visible))
    }

    /// What reverses setting `attribute` on the paragraphs `keys` (nil when no history is kept).
    func paragraphUndoStep(_ attribute: ParagraphAttribute, keys: [ParagraphKey]) -> FormattingUndoStep? {
        guard undoHistory.limit > 0 else { return nil }
        return FormattingUndoStep(paragraphs: FormattingUndoStep.restoring(attribute, keys: keys, current: formatting.resolvedParagraphs()))
    }

    /// Sets again what `step` holds, as new local operations, and returns the step that
    /// reverses that. A stretch whose characters were all deleted since is skipped. Throws
    /// ``NoteTextError/Code/tooLarge``, changing nothing, past the formatting operations limit.
    mutating func perform(_ step: FormattingUndoStep) throws(NoteTextError) -> FormattingUndoStep {
        try checkFormattingRoom(step.marks.count + step.paragraphs.count)
        var inverse = FormattingUndoStep()
        if !step.marks.isEmpty {
            // Per element: the visible scalars before it, and whether it is visible.
            var place: [ElementID: (before: Int, visible: Bool)] = [:]
            var visible: [ElementID] = []
            for element in try elementsInOrder() {
                place[element.id] = (visible.count, element.scalar != nil)
                if element.scalar != nil { visible.append(element.id) }
            }
            let attributes = try scalarAttributes()
            var operations: [MarkOperation] = []
            for stretch in step.marks {
                guard let first = place[stretch.first], let last = place[stretch.last] else { continue }
                let range = first.before..<Swift.max(first.before, last.before + (last.visible ? 1 : 0))
                guard !range.isEmpty else { continue }
                inverse.marks += FormattingUndoStep.restoring(stretch.kind, scalars: range, attributes: attributes, visible: visible)
                if let operation = try NoteFormatting.mark(stretch.kind.kind, stretch.value, scalars: range, in: self,
                                                           stamp: clock.tick(), replica: replica) {
                    operations.append(operation)
                }
            }
            for operation in operations { formatting.add(operation) }
        }
        if !step.paragraphs.isEmpty {
            let current = formatting.resolvedParagraphs()
            var operations: [ParagraphOperation] = []
            for setting in step.paragraphs {
                inverse.paragraphs += FormattingUndoStep.restoring(setting.attribute, keys: [setting.key], current: current)
                operations.append(ParagraphOperation(key: setting.key, attribute: setting.attribute, stamp: clock.tick(), replica: replica))
            }
            formatting.add(operations)
        }
        return inverse
    }
}
