import CRDTNote
import CRDTNoteTraces
import CRDTNoteToolSupport

/// `replay TRACE --formatted`: the trace replayed with formatting made as it goes (issue 32's
/// workload, Docs/BENCHMARKS.md "Formatted replay"): every 50 edits a mark set or removed on a
/// random range of 1–40 characters (a random kind; one time in three a removal), every 500 edits
/// a random paragraph attribute on the paragraph at a random place. Seeded, so every run makes
/// the same operations.
enum FormattedReplay {
    static let markEvery = 50
    static let paragraphEvery = 500
    static let seed: UInt64 = 32

    static let marks: [TextMark] = [.bold, .italic, .underline, .strikethrough, .code, .link("https://example.com/a"), .highlight("yellow")]
    static let paragraphAttributes: [ParagraphAttribute] = [.heading(1), .heading(0), .list(.bullet), .list(.check), .checked(true), .list(.none), .quote(true)]

    /// Replays a single-writer trace, formatting as it goes. Returns the note and the number of
    /// formatting operations made.
    static func replay(_ trace: SequentialTrace) throws(TraceError) -> (note: NoteText, operations: Int) {
        var random = SplitMix64(seed: seed)
        var operations = 0
        let note = try TraceReplay.replay(trace, replica: ReplicaID(rawValue: 1), clock: HybridLogicalClock(), undoLimit: 0,
                                          every: markEvery) {
            note, patch throws(TraceError) in
            let edits = patch + 1
            guard note.utf16Count > 0 else { return }
            do throws(NoteTextError) {
                // In UTF-16 units, as a text view hands them over (the trace's text has no
                // surrogate pairs, so every range is valid).
                let start = random.below(note.utf16Count)
                let range = start..<min(note.utf16Count, start + 1 + random.below(40))
                let mark = marks[random.below(marks.count)]
                if random.below(3) == 0 { try note.removeMark(mark.kind, utf16Range: range) } else { try note.setMark(mark, utf16Range: range) }
                operations += 1
                if edits % paragraphEvery == 0 {
                    try note.setParagraphAttribute(paragraphAttributes[random.below(paragraphAttributes.count)], utf16Range: range.lowerBound..<range.lowerBound)
                    operations += 1
                }
            } catch {
                throw TraceError(.replayFailed, "formatting after patch \(patch): \(error)")
            }
        }
        return (note, operations)
    }
}
