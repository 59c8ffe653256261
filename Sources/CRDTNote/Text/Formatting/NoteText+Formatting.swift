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
