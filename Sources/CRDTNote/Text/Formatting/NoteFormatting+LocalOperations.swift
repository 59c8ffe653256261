extension NoteFormatting {
    /// The operation that sets `kind` to `value` (``MarkKind/on`` for on/off kinds), or
    /// removes it when `value` is nil, on the Unicode scalars `range` of `note` as it is now;
    /// the anchors follow the kind's expansion rule (§10.2). Nil for an empty range (nothing to
    /// format). Add it with `add(_:)`.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` when `range` lies outside the text.
    static func mark(_ kind: MarkKind, _ value: String?, scalars range: Range<Int>, in note: NoteText,
                     stamp: HLCTimestamp, replica: ReplicaID) throws(NoteTextError) -> MarkOperation? {
        try checkBounds(range, in: note)
        guard !range.isEmpty else { return nil }
        let sequence = try note.indexForReading()
        let id = { (k: Int) in ElementID(ofScalar: k, in: sequence) }
        let first = id(range.lowerBound), last = id(range.upperBound - 1)
        let coreVersion = Self.version(from: range.lowerBound, through: range.upperBound - 1, in: sequence, note: note)
        let start: MarkBoundary = !kind.expansion.growsAtStart ? .before(first)
            : range.lowerBound == 0 ? .documentStart : .after(id(range.lowerBound - 1))
        let end: MarkBoundary = !kind.expansion.growsAtEnd ? .after(last)
            : range.upperBound == sequence.scalarCount ? .documentEnd : .before(id(range.upperBound))
        return MarkOperation(name: kind.name, value: value, start: start, end: end, first: first, last: last,
                             coreVersion: coreVersion, stamp: stamp, replica: replica)
    }

    /// Operations setting `attribute` on every paragraph the scalar `range` touches (for an
    /// empty range, the paragraph holding that caret position). §10.5.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` when `range` lies outside the text or a
    /// heading level is outside 0...6.
    static func setParagraph(_ attribute: ParagraphAttribute, scalars range: Range<Int>, in note: NoteText,
                             stamp: HLCTimestamp, replica: ReplicaID) throws(NoteTextError) -> [ParagraphOperation] {
        try checkBounds(range, in: note)
        if case .heading(let level) = attribute, !(0...6).contains(level) {
            throw NoteTextError(.outOfBounds, "heading level \(level) is outside 0...6")
        }
        let sequence = try note.indexForReading()
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
        return splitOperations(newlineAt: newline.scalar, in: sequence, stamp: stamp, replica: replica)
    }

    /// ``splitParagraph(atNewline:in:stamp:replica:)`` for a built index, where visible scalar
    /// `offset` is known to be a newline.
    func splitOperations(newlineAt offset: Int, in sequence: TextSequence, stamp: HLCTimestamp,
                         replica: ReplicaID) -> [ParagraphOperation] {
        let attributes = resolvedAttributes(of: Self.paragraphKey(atScalar: offset, in: sequence))
        let newline = ElementID(ofScalar: offset, in: sequence)
        return attributes.nonDefault.map {
            ParagraphOperation(key: .newline(newline), attribute: $0, stamp: stamp, replica: replica)
        }
    }

    /// `note`'s version restricted to the replicas with an element from the visible scalar
    /// `first` through the visible scalar `last`, tombstones between them included.
    private static func version(from first: Int, through last: Int, in sequence: TextSequence, note: NoteText) -> [ReplicaID: UInt32] {
        let version = note.version
        var core: [ReplicaID: UInt32] = [:]
        for r in sequence.replicas(from: sequence.position(ofScalar: first), through: sequence.position(ofScalar: last)) {
            let replica = sequence.replicas[Int(r)]
            core[replica] = UInt32(clamping: version[replica])
        }
        return core
    }

    /// The key of the paragraph holding caret position `offset` (the last newline before it).
    private static func paragraphKey(atScalar offset: Int, in sequence: TextSequence) -> ParagraphKey {
        sequence.lastNewline(beforeScalar: offset).map { .newline(ElementID($0, in: sequence)) } ?? .documentStart
    }

    private static func checkBounds(_ range: Range<Int>, in note: NoteText) throws(NoteTextError) {
        guard range.lowerBound >= 0, range.upperBound <= note.scalarCount else {
            throw NoteTextError(.outOfBounds, "scalar range \(range.lowerBound)..<\(range.upperBound) is outside 0..<\(note.scalarCount)")
        }
    }
}
