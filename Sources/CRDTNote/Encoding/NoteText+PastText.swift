import Foundation

/// The note as it was at a past time (Docs/FORMAT.md §11.4), from the live elements and the
/// kept history. Lives with the coders because it reads the history payloads the note carries.
extension NoteText {
    /// The text as it was at `date`, rebuilt from the note and its kept history without
    /// changing the note.
    ///
    /// Insertions are placed in time by the note's clock log (to within a second), deletions
    /// by their logged stamps. Throws ``NoteHistoryError/Code/notCovered`` when the history
    /// does not reach back to `date` (see that code), ``NoteHistoryError/Code/corruptHistory``
    /// or ``NoteHistoryError/Code/newerFormat`` when a history payload it carries cannot be read.
    public func text(at date: Date) throws(NoteHistoryError) -> String {
        var utf8: [UInt8] = []
        try walkPast(at: date, wholeRuns: true) { if $0.wasVisible { utf8.append(contentsOf: $0.utf8) } }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Walks every element as it stood at `date` (``TextSequence/forEachElement(atMilliseconds:deletions:wholeRuns:_:)``),
    /// then throws ``NoteHistoryError/Code/notCovered`` when `date` is not covered (what the
    /// walk gave is then not the past: callers use it only when this returns).
    func walkPast(at date: Date, wholeRuns: Bool = false, _ body: (TextSequence.PastElement) -> Void) throws(NoteHistoryError) {
        let t = Self.milliseconds(date)
        let past = try pastIndex()
        let deletions = past.deletions
        let sequence = try pastSequence(past)
        // Deletions of unknown time are older than the kept history (retention drops the
        // oldest events, and the shadows only they needed): before it the text is unknown.
        let latest = sequence.latestStamp.max() ?? .zero
        let start = deletions.events.first?.stamp.milliseconds ?? latest.milliseconds
        if sequence.hasCompactedIDs, t < start {
            throw NoteHistoryError(.notCovered, "compaction dropped deleted text older than this note's kept history: it covers times from \(start) ms on, not \(t) ms")
        }
        let unknown = sequence.forEachElement(atMilliseconds: t, deletions: deletions, wholeRuns: wholeRuns, body)
        if unknown, t < start {
            throw NoteHistoryError(.notCovered, "the note holds deletions of unknown time; its history covers times from \(start) ms on, not \(t) ms")
        }
    }

    /// The note's elements with the tombstones compactions dropped put back from the history's
    /// shadows, and their clock entries (§11.6): what the past is read from.
    func pastSequence(_ past: PastIndex) throws(NoteHistoryError) -> TextSequence {
        let sequence = try sequenceForHistory()
        if !past.shadowStamps.isEmpty || (sequence.hasCompactedIDs && !past.shadows.isEmpty),
           let restored = sequence.restoringShadows(past.shadows, stamps: past.shadowStamps) {
            return restored
        }
        return sequence
    }

    /// The note's elements, its snapshot decoded when it was loaded lazily.
    func sequenceForHistory() throws(NoteHistoryError) -> TextSequence {
        do {
            return try loadedSequence()
        } catch {
            throw NoteHistoryError(.corruptSnapshot, "the note's snapshot is corrupt: \(error)", decodingError: error)
        }
    }

    /// Every deletion event the note keeps, its history payloads decoded, sorted.
    func historyEvents() throws(NoteHistoryError) -> [DeletionEvent] {
        try pastIndex().deletions.events
    }

    /// The history read for the past (``PastIndex``), built once per history and kept with it
    /// (``PastIndexCache``).
    func pastIndex() throws(NoteHistoryError) -> PastIndex {
        try history.pastIndex { () throws(NoteHistoryError) in
            let decoded = try decodedHistory()
            return PastIndex(deletions: TextSequence.DeletionTimes(decoded.deletions), shadows: decoded.shadows,
                             shadowStamps: decoded.shadowStamps)
        }
    }

    /// The history with its pending payloads decoded, sorted (uncached).
    private func decodedHistory() throws(NoteHistoryError) -> NoteHistory {
        var history = self.history
        do {
            try history.decodePending()
        } catch {
            if error.code == .newerFormat {
                throw NoteHistoryError(.newerFormat, "the history needs reader version \(error.requiredReader ?? 0)")
            }
            throw NoteHistoryError(.corruptHistory, "the history is corrupt: \(error.decodingError.map { "\($0)" } ?? error.message)",
                                   decodingError: error.decodingError)
        }
        return history.normalized
    }

    /// UTF-8 bytes of deleted text the note's history keeps (for benchmarks).
    package func keptDeletedTextBytes() throws(NoteHistoryError) -> Int {
        try historyEvents().reduce(0) { $0 + $1.text.count }
    }

    /// Unix milliseconds of `date`, clamped to the stamps' range.
    static func milliseconds(_ date: Date) -> UInt64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard ms > 0 else { return 0 }
        return ms >= Double(HLCTimestamp.maxMilliseconds) ? HLCTimestamp.maxMilliseconds : UInt64(ms)
    }

    /// The date of Unix milliseconds `ms`.
    static func date(_ ms: UInt64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
}
