extension NoteText {
    /// Takes in `other`'s formatting operations (set union) and advances the clock past their
    /// stamps, so formatting made here afterwards wins over what was received. Nothing to do
    /// (no work at all) when `other` has none: plain notes pay nothing.
    mutating func mergeFormatting(_ other: NoteFormatting) {
        guard !other.isEmpty else { return }
        formatting.merge(other)
        if let latest = other.latestStamp, latest > .zero { _ = clock.receive(latest) }
    }
}

extension NoteFormatting {
    /// The largest stamp of any operation (nil when there is none).
    var latestStamp: HLCTimestamp? {
        guard !isEmpty else { return nil }
        return Swift.max(marks.lazy.map(\.stamp).max() ?? .zero, paragraphs.lazy.map(\.stamp).max() ?? .zero)
    }
}

extension NoteText {
    /// After text was typed into a paragraph with `attributes` at the visible scalars
    /// `inserted`, gives every paragraph a newline of it starts the same attributes, so a
    /// split paragraph keeps them on both halves (Docs/FORMAT.md §10.5). Nothing for body text.
    /// Throws ``NoteTextError/Code/tooLarge`` past ``NoteLimits/maximumFormattingOperations``.
    mutating func keepParagraphAttributes(_ attributes: ParagraphAttributes, afterNewlinesIn inserted: Range<Int>) throws(NoteTextError) {
        let settings = attributes.nonDefault
        guard !settings.isEmpty, !inserted.isEmpty else { return }
        let visible = try elementsInOrder().filter { $0.scalar != nil }
        let newlines = visible[inserted].filter { $0.scalar == "\n" }
        guard !newlines.isEmpty else { return }
        try checkFormattingRoom(newlines.count * settings.count)
        let stamp = clock.tick()
        formatting.add(newlines.flatMap { newline in
            settings.map { ParagraphOperation(key: .newline(newline.id), attribute: $0, stamp: stamp, replica: replica) }
        })
    }
}
