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
        let elements = try note.elementsInOrder()
        let visible = elements.filter { $0.scalar != nil }.map(\.id)
        let first = visible[range.lowerBound], last = visible[range.upperBound - 1]
        let coreVersion = Self.version(of: elements, from: first, through: last, in: note)
        let start: MarkBoundary = !kind.expansion.growsAtStart ? .before(first)
            : range.lowerBound == 0 ? .documentStart : .after(visible[range.lowerBound - 1])
        let end: MarkBoundary = !kind.expansion.growsAtEnd ? .after(last)
            : range.upperBound == visible.count ? .documentEnd : .before(visible[range.upperBound])
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
        let visible = try note.elementsInOrder().filter { $0.scalar != nil }
        var keys = [paragraphKey(atScalar: range.lowerBound, visible: visible)]
        for i in range.dropLast() where visible[i].scalar == "\n" { keys.append(.newline(visible[i].id)) }
        return keys.map { ParagraphOperation(key: $0, attribute: attribute, stamp: stamp, replica: replica) }
    }

    /// After a newline was typed at scalar `offset` of `note` (splitting a paragraph), the
    /// operations that give the new paragraph after it the attributes of the paragraph it was
    /// split from, so both halves keep them (§10.5). Empty when that paragraph has none set.
    ///
    /// Throws ``NoteTextError/Code/outOfBounds`` when the scalar at `offset` is not a newline.
    func splitParagraph(atNewline offset: Int, in note: NoteText,
                        stamp: HLCTimestamp, replica: ReplicaID) throws(NoteTextError) -> [ParagraphOperation] {
        let visible = try note.elementsInOrder().filter { $0.scalar != nil }
        guard offset >= 0, offset < visible.count, visible[offset].scalar == "\n" else {
            throw NoteTextError(.outOfBounds, "scalar offset \(offset) is not a newline of the text (0..<\(visible.count))")
        }
        let split = Self.paragraphKey(atScalar: offset, visible: visible)
        let attributes = resolvedParagraphs()[split] ?? ParagraphAttributes()
        return attributes.nonDefault.map {
            ParagraphOperation(key: .newline(visible[offset].id), attribute: $0, stamp: stamp, replica: replica)
        }
    }

    /// `note`'s version restricted to the replicas with an element from `first` through `last`.
    private static func version(of elements: [NoteElement], from first: ElementID, through last: ElementID,
                                in note: NoteText) -> [ReplicaID: UInt32] {
        let version = note.version
        var core: [ReplicaID: UInt32] = [:]
        guard let lo = elements.firstIndex(where: { $0.id == first }),
              let hi = elements[lo...].firstIndex(where: { $0.id == last }) else { return core }
        for element in elements[lo...hi] where core[element.id.replica] == nil {
            core[element.id.replica] = UInt32(clamping: version[element.id.replica])
        }
        return core
    }

    /// The key of the paragraph holding caret position `offset` (the last newline before it).
    private static func paragraphKey(atScalar offset: Int, visible: [NoteElement]) -> ParagraphKey {
        guard let newline = visible[..<offset].lastIndex(where: { $0.scalar == "\n" }) else { return .documentStart }
        return .newline(visible[newline].id)
    }

    private static func checkBounds(_ range: Range<Int>, in note: NoteText) throws(NoteTextError) {
        guard range.lowerBound >= 0, range.upperBound <= note.scalarCount else {
            throw NoteTextError(.outOfBounds, "scalar range \(range.lowerBound)..<\(range.upperBound) is outside 0..<\(note.scalarCount)")
        }
    }
}
