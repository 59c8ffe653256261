import CRDTNoteSupport
import CRDTNote
/// Replays editing traces into a ``NoteText``: the yardstick for correctness (the result must equal
/// the trace's `endContent`) and for speed (`crdtnote-bench replay`).
///
/// ```swift
/// guard case .sequential(let trace) = try EditingTrace.load(contentsOf: path) else { return }
/// let note = try TraceReplay.replay(trace)
/// assert(note.string == trace.endContent)
/// ```
public enum TraceReplay {
    /// Replays a single-writer trace as local edits of `replica`, one edit per patch
    /// (its deletion, then its insertion at the same position).
    ///
    /// `undoLimit` is the note's ``NoteText/undoLimit`` during the replay (0: no undo history,
    /// as in every benchmark except the one that measures what keeping it costs).
    ///
    /// Throws when a patch does not fit the document at that point, naming the transaction and patch.
    public static func replay(
        _ trace: SequentialTrace, replica: ReplicaID = ReplicaID(rawValue: 1), clock: HybridLogicalClock = HybridLogicalClock(),
        undoLimit: Int = 0
    ) throws(TraceError) -> NoteText {
        try replay(trace, replica: replica, clock: clock, undoLimit: undoLimit, every: Int.max) { _, _ throws(TraceError) in }
    }

    /// ``replay(_:replica:clock:undoLimit:)``, calling `afterPatch(&note, i)` after every
    /// `period`-th patch of the trace (`i` counted from 0 over the whole trace, so after patches
    /// `period - 1`, `2 * period - 1`, ...): for benchmarks that interleave other work with the
    /// trace's edits (`crdtnote-bench replay --formatted`). The patches between two calls go
    /// through the loop the plain replay runs (one function), so the two differ by the hook alone.
    @inline(__always)
    package static func replay(
        _ trace: SequentialTrace, replica: ReplicaID, clock: HybridLogicalClock, undoLimit: Int, every period: Int,
        afterPatch: (inout NoteText, Int) throws(TraceError) -> Void
    ) throws(TraceError) -> NoteText {
        var note: NoteText
        do {
            note = try NoteText(trace.startContent, replica: replica, clock: clock)
        } catch {
            throw TraceError(.replayFailed, "startContent: \(error)")
        }
        note.undoLimit = undoLimit
        // Straight from the columns: no TracePatch and no String, the inserted bytes as they are
        // stored. Stretches of `period` patches through one loop, the hook between them: the
        // loop is the plain replay's, whatever the hook does.
        let count = trace.columns.count
        let failure: TraceError? = trace.columns.text.withUnsafeBufferPointer { text in
            var next = 0
            while next < count {
                let end = count - next > period ? next + period : count
                if let failure = applyPatches(next..<end, of: trace, text: text, to: &note) { return failure }
                if end - next == period {
                    do throws(TraceError) { try afterPatch(&note, end - 1) } catch { return error }
                }
                next = end
            }
            return nil
        }
        if let failure { throw failure }
        return note
    }

    /// Applies the patches `range` of `trace` (whose inserted bytes are `text`), in order; the
    /// error of the first that does not apply, nil when all did. Never inlined: the plain and
    /// the interleaved replays run this one loop, not two copies the optimizer shapes apart.
    @inline(never)
    private static func applyPatches(_ range: Range<Int>, of trace: SequentialTrace, text: UnsafeBufferPointer<UInt8>,
                                     to note: inout NoteText) -> TraceError? {
        let columns = trace.columns
        for i in range {
            let position = columns.positions[i]
            let deleteCount = columns.deleteCounts[i]
            guard let end = fittingEnd(position: position, deleteCount: deleteCount, scalarCount: note.scalarCount) else {
                let (t, k) = trace.location(ofPatch: i)
                return doesNotFit(position: position, deleteCount: deleteCount, scalarCount: note.scalarCount, transaction: t, patch: k)
            }
            do {
                try note.replaceScalars(in: position..<end, withUTF8: UnsafeBufferPointer(rebasing: text[columns.textRange(i)]))
            } catch {
                let (t, k) = trace.location(ofPatch: i)
                return TraceError(.replayFailed, "txns[\(t)].patches[\(k)]: \(error)")
            }
        }
        return nil
    }

    /// Applies one transaction's patches in order.
    static func apply(_ patches: some Collection<TracePatch>, to note: inout NoteText, transaction t: Int) throws(TraceError) {
        for (k, patch) in patches.enumerated() {
            try apply(position: patch.position, deleteCount: patch.deleteCount, insert: patch.insert,
                      to: &note, transaction: t, patch: k)
        }
    }

    /// Applies patch `k` of transaction `t`, checking it fits the document first.
    @inline(__always)
    static func apply(
        position: Int, deleteCount: Int, insert: String, to note: inout NoteText, transaction t: Int, patch k: Int
    ) throws(TraceError) {
        let end = try checkedEnd(position: position, deleteCount: deleteCount, scalarCount: note.scalarCount, transaction: t, patch: k)
        do {
            try note.replaceScalars(in: position..<end, with: insert)
        } catch {
            throw TraceError(.replayFailed, "txns[\(t)].patches[\(k)]: \(error)")
        }
    }

    /// The end of the deleted range of patch `k` of transaction `t` in a document of
    /// `scalarCount` scalars, or an error saying why it does not fit.
    @inline(__always)
    static func checkedEnd(position: Int, deleteCount: Int, scalarCount: Int, transaction t: Int, patch k: Int) throws(TraceError) -> Int {
        guard let end = fittingEnd(position: position, deleteCount: deleteCount, scalarCount: scalarCount) else {
            throw doesNotFit(position: position, deleteCount: deleteCount, scalarCount: scalarCount, transaction: t, patch: k)
        }
        return end
    }

    /// The end of the range a patch deleting `deleteCount` scalars at `position` deletes from
    /// a document of `scalarCount` scalars; nil when it does not fit.
    @inline(__always)
    private static func fittingEnd(position: Int, deleteCount: Int, scalarCount: Int) -> Int? {
        let (end, overflow) = position.addingReportingOverflow(deleteCount)
        guard position >= 0, deleteCount >= 0, !overflow, end <= scalarCount else { return nil }
        return end
    }

    /// The error of patch `k` of transaction `t`, which does not fit (``fittingEnd(position:deleteCount:scalarCount:)``).
    private static func doesNotFit(position: Int, deleteCount: Int, scalarCount: Int, transaction t: Int, patch k: Int) -> TraceError {
        TraceError(.replayFailed, "txns[\(t)].patches[\(k)]: deleting \(deleteCount) at \(position) "
            + "does not fit a document of \(scalarCount) scalars")
    }
}
