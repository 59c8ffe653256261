extension NoteText {
    /// Makes the text and its formatting equal `spans` (their texts joined, each with its marks
    /// and paragraph attributes; their `utf16Range`s are ignored): the attributed counterpart
    /// of ``setText(_:)`` for apps that hand over their whole attributed text. The text changes
    /// by the same word-aligned diff, then a mark or unmark operation is recorded only for each
    /// stretch where a kind's value differs from the target, and a paragraph attribute only
    /// where a paragraph's differs (a paragraph takes the attributes of its first character in
    /// `spans`; an empty last paragraph keeps its own). `note.setFormattedText(note.formattedSpans())`
    /// changes nothing. The text and formatting changes are one undo step: ``undo()`` gives back
    /// the text and its attributes together (deleted text coming back with the marks and
    /// paragraph attributes it had), ``redo()`` both again, each returning one patch.
    ///
    /// Throws as ``setText(_:)`` and ``setMark(_:utf16Range:)``; a failure in the formatting
    /// part leaves the new text with the formatting set so far.
    public mutating func setFormattedText(_ spans: [FormattedSpan]) throws(NoteTextError) {
        var target: [TextAttributes] = []
        for span in spans {
            target += repeatElement(TextAttributes(marks: span.marks, paragraph: span.paragraph), count: span.text.unicodeScalars.count)
        }
        let recording = undoHistory.limit > 0
        // What the text update deletes keeps its attributes in the undo step (O(n), as the rest).
        let visibleBefore = recording ? try visibleCharacters() : nil
        let newText = Array(spans.map(\.text).joined().utf8)
        let textChanged = try applyEdits { old in TextDiff.edits(from: old, to: newText) }
        var undo = FormattingUndoStep()
        if let visibleBefore, textChanged { undo = try snapshots(ofDeleted: visibleBefore) }
        let current = try scalarAttributes()
        if current != target, current.count == target.count {
            let visible = try elementsInOrder().filter { $0.scalar != nil }
            var marks: [MarkOperation] = []
            for kind in TextMarkKind.allCases {
                for (range, value) in Self.differences(of: kind, from: current, to: target) {
                    if recording { undo.marks += FormattingUndoStep.restoring(kind, scalars: range, attributes: current, visible: visible.map(\.id)) }
                    if let operation = try NoteFormatting.mark(kind.kind, value, scalars: range, in: self, stamp: clock.tick(), replica: replica) {
                        marks.append(operation)
                    }
                }
            }
            let paragraphs = paragraphOperations(to: target, current: current, visible: visible)
            try formatting.checkRoom(adding: marks.count + paragraphs.count)
            for operation in paragraphs where recording {
                undo.paragraphs += FormattingUndoStep.restoring(operation.attribute, keys: [operation.key],
                                                                current: [operation.key: formatting.resolvedAttributes(of: operation.key)])
            }
            for operation in marks { formatting.add(operation) }
            formatting.add(paragraphs)
        }
        if recording { undoHistory.recordFormatting(undo, joiningLastStep: textChanged) }
    }

    /// The maximal stretches where `kind`'s value in `target` differs from `current`, with the
    /// target value (nil: no mark), neighbouring stretches with one target value joined.
    private static func differences(of kind: TextMarkKind, from current: [TextAttributes],
                                    to target: [TextAttributes]) -> [(Range<Int>, String?)] {
        var out: [(Range<Int>, String?)] = []
        for i in target.indices {
            let wanted = target[i].mark(kind)?.value
            guard current[i].mark(kind)?.value != wanted else { continue }
            if let last = out.last, last.0.upperBound == i, last.1 == wanted {
                out[out.count - 1].0 = last.0.lowerBound..<i + 1
            } else {
                out.append((i..<i + 1, wanted))
            }
        }
        return out
    }

    /// Operations setting every paragraph's attributes that differ from the target's (read on
    /// the paragraph's first character).
    private mutating func paragraphOperations(to target: [TextAttributes], current: [TextAttributes],
                                              visible: [NoteElement]) -> [ParagraphOperation] {
        let stamp = clock.tick()
        var operations: [ParagraphOperation] = []
        var key = ParagraphKey.documentStart
        var first = true
        for (i, element) in visible.enumerated() {
            if first {
                let have = current[i].paragraph, want = target[i].paragraph
                if have != want {
                    for name in ParagraphAttributes.names {
                        guard let wanted = want.attribute(named: name), wanted != have.attribute(named: name) else { continue }
                        operations.append(ParagraphOperation(key: key, attribute: wanted, stamp: stamp, replica: replica))
                    }
                }
                first = false
            }
            if element.scalar == "\n" {
                key = .newline(element.id)
                first = true
            }
        }
        return operations
    }
}
