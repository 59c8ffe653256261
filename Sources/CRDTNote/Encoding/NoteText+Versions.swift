import Foundation

/// A note's version history and blame (Docs/FORMAT.md §11.5), from its clock log and kept history.
extension NoteText {
    /// The note's editing sessions, oldest first (then by replica): per replica, its insertions
    /// (by the clock log, to within a second) and the deletions the kept history logged, a new
    /// session starting after a pause longer than `pause` seconds (default 5 minutes). Deletions
    /// older than the history (or by copies that kept none) are not counted. Throws
    /// ``NoteHistoryError/Code/corruptHistory``, ``NoteHistoryError/Code/newerFormat`` or
    /// ``NoteHistoryError/Code/corruptSnapshot`` as ``text(at:)`` does.
    public func versions(pause: TimeInterval = 300) throws(NoteHistoryError) -> [NoteVersion] {
        let gap = UInt64(max(0, (pause * 1000).rounded(.down)))
        var points: [ReplicaID: [(ms: UInt64, inserted: Int, deleted: Int)]] = [:]
        // Insertions of text compactions dropped count too: their clock entries are in the shadows.
        let sequence = try pastSequence(try pastIndex())
        for batch in sequence.insertionBatches() {
            points[batch.replica, default: []].append((batch.stamp.milliseconds, batch.count, 0))
        }
        let events = try historyEvents()
        // Only what is deleted (an event whose change a crash lost counts nothing), and each
        // character once (two devices that deleted it concurrently both logged it).
        let credited = Self.creditedDeletions(events) { sequence.deletedCount(of: $0, seqs: $1) }
        for (event, deleted) in zip(events, credited) where deleted > 0 {
            points[event.deleter, default: []].append((event.stamp.milliseconds, 0, deleted))
        }
        var sessions: [NoteVersion] = []
        for (replica, list) in points {
            var current: (start: UInt64, end: UInt64, inserted: Int, deleted: Int)?
            for point in list.sorted(by: { $0.ms < $1.ms }) {
                if let open = current, point.ms &- open.end <= gap {
                    current = (open.start, point.ms, open.inserted + point.inserted, open.deleted + point.deleted)
                    continue
                }
                if let open = current {
                    sessions.append(NoteVersion(replica: replica, start: Self.date(open.start), end: Self.date(open.end),
                                                inserted: open.inserted, deleted: open.deleted))
                }
                current = (point.ms, point.ms, point.inserted, point.deleted)
            }
            if let open = current {
                sessions.append(NoteVersion(replica: replica, start: Self.date(open.start), end: Self.date(open.end),
                                            inserted: open.inserted, deleted: open.deleted))
            }
        }
        return sessions.sorted { $0.start != $1.start ? $0.start < $1.start : $0.replica < $1.replica }
    }

    /// Per event, how many deleted characters it is credited with: each id that `deleted` counts
    /// (called with an inserter and a range of its seqs) once, for the earliest event covering
    /// it (``DeletionEvent/precedes(_:_:)``). Events are grouped where their ranges overlap
    /// (sorted by inserter and first seq); a group of one, nearly every event, counts its range.
    /// O(E log E) for E events.
    static func creditedDeletions(_ events: [DeletionEvent], deleted: (ReplicaID, Range<UInt32>) -> Int) -> [Int] {
        var credited = [Int](repeating: 0, count: events.count)
        let order = events.indices.sorted {
            let (a, b) = (events[$0], events[$1])
            return a.inserter != b.inserter ? a.inserter < b.inserter : a.seqs.lowerBound < b.seqs.lowerBound
        }
        var start = 0
        while start < order.count {
            let first = events[order[start]]
            var end = start + 1
            var upper = first.seqs.upperBound
            while end < order.count, events[order[end]].inserter == first.inserter, events[order[end]].seqs.lowerBound < upper {
                upper = max(upper, events[order[end]].seqs.upperBound)
                end += 1
            }
            if end - start == 1 {
                credited[order[start]] = deleted(first.inserter, first.seqs)
            } else {
                var covered: [Range<UInt32>] = []
                for i in order[start..<end].sorted(by: { DeletionEvent.precedes(events[$0], events[$1]) }) {
                    let seqs = events[i].seqs
                    var from = seqs.lowerBound
                    for range in covered where range.overlaps(seqs) {
                        if range.lowerBound > from { credited[i] += deleted(first.inserter, from..<range.lowerBound) }
                        from = max(from, range.upperBound)
                    }
                    if from < seqs.upperBound { credited[i] += deleted(first.inserter, from..<seqs.upperBound) }
                    covered = IDRanges.union(covered, [seqs])
                }
            }
            start = end
        }
        return credited
    }

    /// Who inserted the visible text in `utf16Range` and when: consecutive characters of one
    /// replica with one clock-log stamp form one span (clipped to the range; a span may start
    /// or end inside a surrogate pair the range splits). Throws
    /// ``NoteHistoryError/Code/invalidRange`` for a range beyond the text,
    /// ``NoteHistoryError/Code/corruptSnapshot`` when the note's snapshot is corrupt.
    public func blame(utf16Range: Range<Int>) throws(NoteHistoryError) -> [NoteBlameSpan] {
        guard utf16Range.lowerBound >= 0, utf16Range.upperBound <= utf16Count else {
            throw NoteHistoryError(.invalidRange, "UTF-16 range \(utf16Range) is beyond the text (\(utf16Count) UTF-16 units)")
        }
        let sequence = try sequenceForHistory()
        var spans: [NoteBlameSpan] = []
        var offset = 0
        var last: (replica: UInt32, stamp: HLCTimestamp?)?
        sequence.forEachElement(atMilliseconds: .max, deletions: TextSequence.DeletionTimes([])) { element in
            guard element.isVisible else { return }
            let width = element.utf8.first.map { $0 >= 0xF0 ? 2 : 1 } ?? 1
            defer { offset += width }
            let clipped = max(offset, utf16Range.lowerBound)..<min(offset + width, utf16Range.upperBound)
            guard !clipped.isEmpty else { return }
            if let open = last, open.replica == element.replica, open.stamp == element.inserted, let end = spans.last?.utf16Range.upperBound,
               end == clipped.lowerBound {
                spans[spans.count - 1].utf16Range = spans[spans.count - 1].utf16Range.lowerBound..<clipped.upperBound
                return
            }
            last = (element.replica, element.inserted)
            spans.append(NoteBlameSpan(utf16Range: clipped, replica: sequence.replicas[Int(element.replica)],
                                       inserted: element.inserted.map { Self.date($0.milliseconds) }))
        }
        return spans
    }
}
