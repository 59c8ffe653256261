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
        let t = Self.milliseconds(date)
        let sequence: TextSequence
        do {
            sequence = try loadedSequence()
        } catch {
            throw NoteHistoryError(.corruptSnapshot, "the note's snapshot is corrupt: \(error)", decodingError: error)
        }
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
        let events = history.normalized.deletions
        let latest = sequence.latestStamp.max() ?? .zero
        if sequence.hasCompactedIDs, t < latest.milliseconds {
            throw NoteHistoryError(.notCovered, "compaction dropped deleted text of this note: only times from its latest edit (\(latest.milliseconds) ms) on are covered")
        }
        let past = sequence.text(atMilliseconds: t, deletions: TextSequence.DeletionTimes(events))
        if past.unknownDeletions {
            let start = events.first?.stamp.milliseconds ?? latest.milliseconds
            if t < start {
                throw NoteHistoryError(.notCovered, "the note holds deletions of unknown time; its history covers times from \(start) ms on, not \(t) ms")
            }
        }
        return String(decoding: past.utf8, as: UTF8.self)
    }

    /// Unix milliseconds of `date`, clamped to the stamps' range.
    static func milliseconds(_ date: Date) -> UInt64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard ms > 0 else { return 0 }
        return ms >= Double(HLCTimestamp.maxMilliseconds) ? HLCTimestamp.maxMilliseconds : UInt64(ms)
    }
}
