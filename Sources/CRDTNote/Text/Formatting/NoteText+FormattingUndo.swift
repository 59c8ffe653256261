extension NoteText {
    /// What reverses a mark command on the visible scalars `range` (nil when no history is kept):
    /// the kind's current value per stretch of equal value, read from the attributes index,
    /// each stretch named by its first and last characters. O(log r + the index's runs in the
    /// range + log n per stretch) once the index is current (a note a view shows always is);
    /// otherwise reading it resolves the note first, as any read does.
    func markUndoStep(_ kind: TextMarkKind, scalars range: Range<Int>) throws(NoteTextError) -> FormattingUndoStep? {
        guard undoHistory.limit > 0, !range.isEmpty else { return nil }
        let runs = try attributeRuns()
        let sequence = try indexForReading()
        var step = FormattingUndoStep()
        var start = range.lowerBound
        var i = runs.run(atScalar: start)
        var value = runs.attributes[i].mark(kind)?.value
        while true {
            let end = Swift.min(runs.scalars(ofRun: i).upperBound, range.upperBound)
            let next = end < range.upperBound ? runs.attributes[i + 1].mark(kind)?.value : nil
            if end == range.upperBound || next != value {
                step.marks.append(FormattingUndoStep.MarkStretch(kind: kind, value: value, first: ElementID(ofScalar: start, in: sequence),
                                                                 last: ElementID(ofScalar: end - 1, in: sequence)))
                if end == range.upperBound { break }
                start = end
                value = next
            }
            i += 1
        }
        return step
    }

    /// What reverses setting `attribute` on the paragraphs `keys` (nil when no history is kept).
    func paragraphUndoStep(_ attribute: ParagraphAttribute, keys: [ParagraphKey]) -> FormattingUndoStep? {
        guard undoHistory.limit > 0 else { return nil }
        let current = Dictionary(keys.map { ($0, formatting.resolvedAttributes(of: $0)) }) { first, _ in first }
        return FormattingUndoStep(paragraphs: FormattingUndoStep.restoring(attribute, keys: keys, current: current))
    }

    /// Sets again what `step` holds, as new local operations, and returns the step that
    /// reverses that. Characters deleted and brought back by undo or redo since the step was
    /// recorded are found as the characters they were brought back as; a stretch whose
    /// characters are all deleted is skipped. Throws ``NoteTextError/Code/tooLarge``, changing
    /// nothing, past the formatting operations limit.
    mutating func perform(_ step: FormattingUndoStep) throws(NoteTextError) -> FormattingUndoStep {
        try formatting.checkRoom(adding: step.maximumOperations)
        var inverse = FormattingUndoStep()
        if !step.marks.isEmpty || !step.snapshots.isEmpty {
            var layout = try VisibleLayout(self)
            var operations: [MarkOperation] = []
            for stretch in step.marks {
                guard let range = layout.scalars(from: try restoredElement(stretch.first), through: try restoredElement(stretch.last)) else { continue }
                inverse.marks += FormattingUndoStep.restoring(stretch.kind, scalars: range, attributes: layout.attributes, visible: layout.visible)
                if let operation = try NoteFormatting.mark(stretch.kind.kind, stretch.value, scalars: range, in: self,
                                                           stamp: clock.tick(), replica: replica) {
                    operations.append(operation)
                }
            }
            for operation in operations { formatting.add(operation) }
            if !step.snapshots.isEmpty {
                // Compared with the attributes the stretches just set; their inverse goes first,
                // so the stretches' own inverse has the last word where both act.
                if !operations.isEmpty { layout.attributes = try scalarAttributes() }
                var snapshotInverse: [FormattingUndoStep.MarkStretch] = []
                operations = []
                for snapshot in step.snapshots {
                    guard let range = layout.scalars(from: try restoredElement(snapshot.first), through: try restoredElement(snapshot.last)) else { continue }
                    for kind in TextMarkKind.allCases {
                        let wanted = snapshot.attributes.mark(kind)?.value
                        for part in Self.stretches(in: range, where: { layout.attributes[$0].mark(kind)?.value != wanted }) {
                            snapshotInverse += FormattingUndoStep.restoring(kind, scalars: part, attributes: layout.attributes, visible: layout.visible)
                            if let operation = try NoteFormatting.mark(kind.kind, wanted, scalars: part, in: self, stamp: clock.tick(), replica: replica) {
                                operations.append(operation)
                            }
                        }
                    }
                }
                for operation in operations { formatting.add(operation) }
                inverse.marks = snapshotInverse + inverse.marks
            }
        }
        if !step.paragraphs.isEmpty || !step.paragraphSnapshots.isEmpty {
            var operations: [ParagraphOperation] = []
            var setting: [ParagraphKey: ParagraphAttributes] = [:]
            for (key, attribute) in step.paragraphs {
                let key = try restoredKey(key)
                // The operations are added at the end: `formatting` still says what was there.
                let current = formatting.resolvedAttributes(of: key)
                inverse.paragraphs += FormattingUndoStep.restoring(attribute, keys: [key], current: [key: current])
                operations.append(ParagraphOperation(key: key, attribute: attribute, stamp: clock.tick(), replica: replica))
                setting[key, default: current].apply(attribute)
            }
            var snapshotInverse: [(key: ParagraphKey, attribute: ParagraphAttribute)] = []
            for (key, wanted) in step.paragraphSnapshots {
                let key = try restoredKey(key)
                let current = setting[key] ?? formatting.resolvedAttributes(of: key)
                for name in ParagraphAttributes.names {
                    guard let want = wanted.attribute(named: name), let have = current.attribute(named: name), want != have else { continue }
                    snapshotInverse.append((key: key, attribute: have))
                    operations.append(ParagraphOperation(key: key, attribute: want, stamp: clock.tick(), replica: replica))
                }
            }
            formatting.add(operations)
            inverse.paragraphs = snapshotInverse + inverse.paragraphs
        }
        return inverse
    }

    /// The visible characters' ids and attributes, in order: what ``snapshots(ofDeleted:)``
    /// compares with after a change. O(n).
    func visibleCharacters() throws(NoteTextError) -> VisibleCharacters {
        let attributes = try scalarAttributes()
        var out = VisibleCharacters()
        for element in try elementsInOrder() where element.scalar != nil {
            out.ids.append(element.id)
            out.newlines.append(element.scalar == "\n")
        }
        out.attributes = attributes
        return out
    }

    /// What gives the characters of `before` that are no longer visible their attributes again
    /// once undo or redo brings them back (as new characters): snapshots of their marks per
    /// stretch of equal attributes, and of the attributes of the paragraphs their newlines began.
    func snapshots(ofDeleted before: VisibleCharacters) throws(NoteTextError) -> FormattingUndoStep {
        let sequence = try indexForReading()
        var step = FormattingUndoStep()
        var previousDeleted = false
        for (k, id) in before.ids.enumerated() {
            let deleted = sequence.position(of: id.replica, seq: id.seq).map { sequence.run(at: $0).isDeleted } ?? true
            defer { previousDeleted = deleted }
            guard deleted else { continue }
            if previousDeleted, let last = step.snapshots.last, last.attributes == before.attributes[k] {
                step.snapshots[step.snapshots.count - 1].last = id
            } else {
                step.snapshots.append(FormattingUndoStep.Snapshot(first: id, last: id, attributes: before.attributes[k]))
            }
            if before.newlines[k] {
                let attributes = formatting.resolvedAttributes(of: .newline(id))
                if attributes != ParagraphAttributes() { step.paragraphSnapshots.append((key: .newline(id), attributes: attributes)) }
            }
        }
        return step
    }

    /// The element `id` names, or, while it is deleted, the character undo or redo brought it
    /// back as (following restorations of restorations).
    func restoredElement(_ id: ElementID) throws(NoteTextError) -> ElementID {
        guard !undoHistory.restored.entries.isEmpty else { return id }
        let sequence = try indexForReading()
        var current = id
        for _ in 0..<undoHistory.restored.entries.count {
            guard let r = sequence.replicaIndex[current.replica], let position = sequence.position(of: current.replica, seq: current.seq),
                  sequence.run(at: position).isDeleted,
                  let again = undoHistory.restored.replacements(of: current.seq..<current.seq &+ 1, replica: r).last else { break }
            current = ElementID(replica: replica, seq: again.lowerBound)
        }
        return current
    }

    /// `key`, its newline followed to the one undo or redo brought it back as.
    private func restoredKey(_ key: ParagraphKey) throws(NoteTextError) -> ParagraphKey {
        guard case .newline(let id) = key else { return key }
        return .newline(try restoredElement(id))
    }

    /// The maximal stretches of `range` whose scalars satisfy `differs`.
    private static func stretches(in range: Range<Int>, where differs: (Int) -> Bool) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for k in range where differs(k) {
            if let last = out.last, last.upperBound == k { out[out.count - 1] = last.lowerBound..<k + 1 } else { out.append(k..<k + 1) }
        }
        return out
    }
}

/// The visible characters of a note, in order: ids, attributes, and which are newlines.
struct VisibleCharacters {
    var ids: [ElementID] = []
    var attributes: [TextAttributes] = []
    var newlines: [Bool] = []
}

/// Where every element of a note lies among the visible characters, for performing formatting
/// undo steps: per element the visible scalars before it and whether it is visible. O(n).
private struct VisibleLayout {
    var place: [ElementID: (before: Int, visible: Bool)] = [:]
    var visible: [ElementID] = []
    var attributes: [TextAttributes]

    init(_ note: NoteText) throws(NoteTextError) {
        attributes = try note.scalarAttributes()
        for element in try note.elementsInOrder() {
            place[element.id] = (visible.count, element.scalar != nil)
            if element.scalar != nil { visible.append(element.id) }
        }
    }

    /// The visible scalars from `first` through `last`; nil when none is visible any more (or
    /// either is unknown here).
    func scalars(from first: ElementID, through last: ElementID) -> Range<Int>? {
        guard let first = place[first], let last = place[last] else { return nil }
        let range = first.before..<Swift.max(first.before, last.before + (last.visible ? 1 : 0))
        return range.isEmpty ? nil : range
    }
}
