extension NoteFormatting {
    /// The operation that sets `kind` to `value` (``MarkKind/on`` for on/off kinds), or
    /// removes it when `value` is nil, on the Unicode scalars `range` of `note` as it is now;
    /// the anchors follow the kind's expansion rule (§10.2). Nil for an empty range (nothing to
    /// format). Add it with `add(_:)`.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` when `range` lies outside the text.
    static func mark(_ kind: MarkKind, _ value: String?, scalars range: Range<Int>, in note: NoteText,
                     stamp: HLCTimestamp, replica: ReplicaID) throws(NoteTextError) -> MarkOperation? {
        try mark(kind, value, scalars: range, in: note.indexForReading(), stamp: stamp, replica: replica)
    }

    /// ``mark(_:_:scalars:in:stamp:replica:)`` on a built index (what `NoteText` passes: no copy
    /// of the note per operation).
    static func mark(_ kind: MarkKind, _ value: String?, scalars range: Range<Int>, in sequence: TextSequence,
                     stamp: HLCTimestamp, replica: ReplicaID) throws(NoteTextError) -> MarkOperation? {
        try checkBounds(range, scalarCount: sequence.scalarCount)
        guard !range.isEmpty else { return nil }
        return mark(kind, value, at: .of(scalars: range, in: sequence), in: sequence, stamp: stamp, replica: replica)
    }

    /// The operation that sets `kind` to `value` (or removes it) on the characters `placement`
    /// finds in `sequence`, anchored by the kind's expansion rule (§10.2): the anchors are the
    /// neighbours `placement` holds, so no further search of the tree.
    static func mark(_ kind: MarkKind, _ value: String?, at placement: MarkPlacement, in sequence: TextSequence,
                     stamp: HLCTimestamp, replica: ReplicaID) -> MarkOperation {
        let id = { (position: TreePosition) in ElementID(sequence.ref(at: position), in: sequence) }
        let first = id(placement.first)
        let last = id(placement.last)
        let start: MarkBoundary = !kind.expansion.growsAtStart ? .before(first)
            : placement.before(in: sequence).map { .after(id($0)) } ?? .documentStart
        let end: MarkBoundary = !kind.expansion.growsAtEnd ? .after(last) : placement.after.map { .before(id($0)) } ?? .documentEnd
        return MarkOperation(name: kind.name, value: value, start: start, end: end, first: first, last: last,
                             core: version(from: placement.first, through: placement.last, in: sequence), stamp: stamp, replica: replica)
    }

    /// Operations setting `attribute` on every paragraph the scalar `range` touches (for an
    /// empty range, the paragraph holding that caret position). §10.5.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` when `range` lies outside the text or a
    /// heading level is outside 0...6.
    static func setParagraph(_ attribute: ParagraphAttribute, scalars range: Range<Int>, in note: NoteText,
                             stamp: HLCTimestamp, replica: ReplicaID) throws(NoteTextError) -> [ParagraphOperation] {
        try setParagraph(attribute, scalars: range, in: note.indexForReading(), stamp: stamp, replica: replica)
    }

    /// ``setParagraph(_:scalars:in:stamp:replica:)`` on a built index.
    static func setParagraph(_ attribute: ParagraphAttribute, scalars range: Range<Int>, in sequence: TextSequence,
                             stamp: HLCTimestamp, replica: ReplicaID) throws(NoteTextError) -> [ParagraphOperation] {
        try checkBounds(range, scalarCount: sequence.scalarCount)
        if case .heading(let level) = attribute, !(0...6).contains(level) {
            throw NoteTextError(.outOfBounds, "heading level \(level) is outside 0...6")
        }
        var keys = [paragraphKey(atScalar: range.lowerBound, in: sequence)]
        for newline in sequence.newlines(inScalars: range.dropLast()) { keys.append(.newline(ElementID(newline.ref, in: sequence))) }
        return keys.map { ParagraphOperation(key: $0, attribute: attribute, stamp: stamp, replica: replica) }
    }

    /// After a newline was typed at scalar `offset` of `note` (splitting a paragraph), the
    /// operations that give the new paragraph after it the attributes of the paragraph it was
    /// split from, so both halves keep them (§10.5). Empty when that paragraph has none set.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` when the scalar at `offset` is not a newline.
    func splitParagraph(atNewline offset: Int, in note: NoteText,
                        stamp: HLCTimestamp, replica: ReplicaID) throws(NoteTextError) -> [ParagraphOperation] {
        let sequence = try note.indexForReading()
        guard offset >= 0, offset < sequence.scalarCount, let newline = sequence.newlines(inScalars: offset..<offset + 1).first else {
            throw NoteTextError(.outOfBounds, "scalar offset \(offset) is not a newline of the text (0..<\(sequence.scalarCount))")
        }
        let newlineID = ElementID(newline.ref, in: sequence)
        return attributesToCopy(newlineAt: newline.scalar, in: sequence).map {
            ParagraphOperation(key: .newline(newlineID), attribute: $0, stamp: stamp, replica: replica)
        }
    }

    /// What a newline at visible scalar `offset` of a built index (known to be a newline) copies
    /// to the paragraph after it when it splits one: the attributes set on the paragraph it
    /// ends (§10.5, "Split").
    func attributesToCopy(newlineAt offset: Int, in sequence: TextSequence) -> [ParagraphAttribute] {
        resolvedAttributes(of: Self.paragraphKey(atScalar: offset, in: sequence)).nonDefault
    }

    /// The note's version (`sequence.nextSeq`) restricted to the replicas with an element from
    /// position `first` through position `last`, tombstones between them included.
    private static func version(from first: TreePosition, through last: TreePosition, in sequence: TextSequence) -> CoreVersion {
        // A note one device wrote: no walk.
        if sequence.replicas.count == 1 { return .one(sequence.replicas[0], sequence.nextSeq[0]) }
        let found = sequence.replicas(from: first, through: last)
        if found.count == 1 { return .one(sequence.replicas[Int(found[0])], sequence.nextSeq[Int(found[0])]) }
        return CoreVersion(Dictionary(uniqueKeysWithValues: found.map { (sequence.replicas[Int($0)], sequence.nextSeq[Int($0)]) }))
    }

    /// The key of the paragraph holding caret position `offset` (the last newline before it).
    static func paragraphKey(atScalar offset: Int, in sequence: TextSequence) -> ParagraphKey {
        sequence.lastNewline(beforeScalar: offset).map { .newline(ElementID($0, in: sequence)) } ?? .documentStart
    }

    private static func checkBounds(_ range: Range<Int>, scalarCount: Int) throws(NoteTextError) {
        guard range.lowerBound >= 0, range.upperBound <= scalarCount else {
            throw NoteTextError(.outOfBounds, "scalar range \(range.lowerBound)..<\(range.upperBound) is outside 0..<\(scalarCount)")
        }
    }
}
