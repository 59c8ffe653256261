/// Walking the elements as they were at a past time, from the elements and the deletion events
/// (Docs/FORMAT.md §11.4), without changing the sequence: the text at a time, blame, restore.
extension TextSequence {
    /// When and with what text each deleted element of `events` was deleted: the earliest
    /// event naming it (two devices may delete one character concurrently). Per inserting
    /// replica, sorted stretches of ids that do not overlap, each with the event that deleted
    /// it first: one binary search finds an element's, and a deleted run's are walked in step.
    struct DeletionTimes: Sendable {
        /// Ids `seqs` were first deleted by `events[event]`, at `stamp`.
        struct Stretch: Sendable { var seqs: Range<UInt32>; var stamp: HLCTimestamp; var event: Int32 }
        private var byReplica: [ReplicaID: [Stretch]] = [:]
        let events: [DeletionEvent]
        /// `offsets[base[e] + k]`: the byte offset of the k-th scalar of event e's text (one
        /// more entry: the text's end).
        private var base: [Int] = []
        private var offsets: [Int32] = []

        init(_ events: [DeletionEvent]) {
            self.events = events
            var lists: [ReplicaID: [Stretch]] = [:]
            base.reserveCapacity(events.count)
            for (e, event) in events.enumerated() {
                lists[event.inserter, default: []].append(Stretch(seqs: event.seqs, stamp: event.stamp, event: Int32(e)))
                base.append(offsets.count)
                var byte = 0
                for _ in 0..<event.seqs.count {
                    offsets.append(Int32(byte))
                    if byte < event.text.count { byte += TextSequence.scalarBytes(event.text[byte]) }
                }
                offsets.append(Int32(min(byte, event.text.count)))
            }
            for (replica, list) in lists { byReplica[replica] = Self.firstDeletions(list) }
        }

        /// `list` cut into stretches that do not overlap, each taking the earliest event
        /// covering it (ties: the first in `events` order), sorted by seq.
        private static func firstDeletions(_ list: [Stretch]) -> [Stretch] {
            let sorted = list.sorted { ($0.seqs.lowerBound, $0.event) < ($1.seqs.lowerBound, $1.event) }
            // Most histories name every id once: then the sorted list is the answer.
            if zip(sorted, sorted.dropFirst()).allSatisfy({ $0.seqs.upperBound <= $1.seqs.lowerBound }) { return sorted }
            var points = Set<UInt32>()
            for s in sorted { points.insert(s.seqs.lowerBound); points.insert(s.seqs.upperBound) }
            var out: [Stretch] = []
            var active: [Stretch] = []
            var next = 0
            let bounds = points.sorted()
            for (lo, hi) in zip(bounds, bounds.dropFirst()) {
                active.removeAll { $0.seqs.upperBound <= lo }
                while next < sorted.count, sorted[next].seqs.lowerBound == lo { active.append(sorted[next]); next += 1 }
                guard var first = active.first else { continue }
                for s in active.dropFirst() where (s.stamp, s.event) < (first.stamp, first.event) { first = s }
                if let last = out.last, last.event == first.event, last.seqs.upperBound == lo {
                    out[out.count - 1].seqs = last.seqs.lowerBound..<hi
                } else {
                    first.seqs = lo..<hi
                    out.append(first)
                }
            }
            return out
        }

        /// The stretches of `replica`, and the index of the first one ending after `seq`.
        func stretches(_ replica: ReplicaID, from seq: UInt32) -> (list: [Stretch], start: Int) {
            guard let list = byReplica[replica] else { return ([], 0) }
            return (list, list.partitioningIndex { $0.seqs.upperBound > seq })
        }

        /// The bytes, in the text of `stretch`'s event, of the ids `seqs` (within the stretch).
        func bytes(of seqs: Range<UInt32>, in stretch: Stretch) -> ArraySlice<UInt8> {
            let event = Int(stretch.event)
            let first = events[event].seqs.lowerBound
            let from = Int(offsets[base[event] + Int(seqs.lowerBound - first)])
            let to = Int(offsets[base[event] + Int(seqs.upperBound - first)])
            return events[event].text[from..<to]
        }
    }

    /// One element as ``forEachElement(atMilliseconds:deletions:_:)`` finds it.
    struct PastElement {
        /// Index into ``TextSequence/replicas`` of the inserting replica, and the id's seq.
        var replica: UInt32
        var seq: UInt32
        /// The clock-log stamp in force for the id (nil: none, inserted from the start).
        var inserted: HLCTimestamp?
        /// Visible now; visible at the time asked for.
        var isVisible: Bool
        var wasVisible: Bool
        /// The element's UTF-8 bytes (from the text, or from its deletion event); empty for a
        /// deleted element without an event.
        var utf8: ArraySlice<UInt8>
    }

    /// Calls `body` with every element, in document order, as it stood at `t` (Unix
    /// milliseconds): inserted at or before `t` (its clock-log stamp; an id no entry stamps
    /// counts as inserted from the start) and not deleted at or before `t` by an event of
    /// `deletions`; deleted elements without an event count as deleted. Returns whether a
    /// deleted element inserted by `t` has no event (deleted at an unknown time).
    /// With `wholeRuns` (for callers that only gather the text then), consecutive ids of one
    /// clock-log entry that were all visible at `t` and take their bytes from one place come as
    /// one element holding them, and elements not visible at `t` may be left out.
    @discardableResult
    func forEachElement(atMilliseconds t: UInt64, deletions: DeletionTimes, wholeRuns: Bool = false,
                        _ body: (PastElement) -> Void) -> Bool {
        var unknown = false
        // Each replica's clock log read once; a run's stamps found by one search, then in step.
        let logs = clockLog.map(\.entries)
        forEachRun { run in
            let log = logs[Int(run.replica)]
            if wholeRuns {
                // Stretch by stretch of one clock-log entry: those inserted by `t` are walked
                // (a log that compactions and merges left with older stamps after newer ones
                // needs no special case), the rest skipped.
                var entry = log.partitioningIndex { $0.seq > run.seq } - 1
                // Most runs were wholly there at `t`, or not at all: no stretch to walk.
                var all = true, none = true
                var e = entry
                repeat {
                    if (e >= 0 ? log[e].stamp.milliseconds : 0) <= t { none = false } else { all = false }
                    e += 1
                } while e < log.count && log[e].seq < run.seqEnd && (all || none)
                if none { return }
                if all && !run.isDeleted {
                    body(PastElement(replica: run.replica, seq: run.seq, inserted: nil, isVisible: true, wasVisible: true,
                                     utf8: content[Int(run.byteStart)..<Int(run.byteStart + run.byteCount)]))
                    return
                }
                var seq = run.seq
                var byte = Int(run.byteStart)
                let runBytes = Int(run.byteStart + run.byteCount)
                let (list, first) = deletions.stretches(replicas[Int(run.replica)], from: seq)
                var i = first
                while seq < run.seqEnd {
                    let end = entry + 1 < log.count ? Swift.max(seq, Swift.min(log[entry + 1].seq, run.seqEnd)) : run.seqEnd
                    let insertedByThen = (entry >= 0 ? log[entry].stamp.milliseconds : 0) <= t
                    if !run.isDeleted {
                        // Visible now: the bytes of these ids, when they were there at `t`.
                        let bytes = Self.prefix(of: content[byte..<runBytes], scalars: Int(end - seq))
                        if insertedByThen && !bytes.isEmpty {
                            body(PastElement(replica: run.replica, seq: seq, inserted: nil, isVisible: true, wasVisible: true, utf8: bytes))
                        }
                        byte = bytes.endIndex
                    } else if insertedByThen {
                        // Deleted now: the stretches of events deleting these ids, in step.
                        var at = seq
                        while at < end {
                            while i < list.count, list[i].seqs.upperBound <= at { i += 1 }
                            guard i < list.count, list[i].seqs.lowerBound < end else { unknown = true; break }
                            let stretch = list[i]
                            if stretch.seqs.lowerBound > at { unknown = true }
                            let from = Swift.max(at, stretch.seqs.lowerBound)
                            let to = Swift.min(end, stretch.seqs.upperBound)
                            if stretch.stamp.milliseconds > t {
                                body(PastElement(replica: run.replica, seq: from, inserted: nil, isVisible: false, wasVisible: true,
                                                 utf8: deletions.bytes(of: from..<to, in: stretch)))
                            }
                            at = to
                        }
                    }
                    seq = end
                    entry += 1
                }
                return
            }
            var byte = Int(run.byteStart)
            var entry = log.partitioningIndex { $0.seq > run.seq } - 1
            let (list, first) = deletions.stretches(replicas[Int(run.replica)], from: run.seq)
            var i = first
            for k in 0..<run.length {
                let seq = run.seq &+ k
                while entry + 1 < log.count, log[entry + 1].seq <= seq { entry += 1 }
                let stamp = entry >= 0 ? log[entry].stamp : nil
                let insertedByThen = (stamp?.milliseconds ?? 0) <= t
                var element = PastElement(replica: run.replica, seq: seq, inserted: stamp, isVisible: !run.isDeleted,
                                          wasVisible: false, utf8: [])
                if !run.isDeleted {
                    let end = byte + Self.scalarBytes(content[byte])
                    element.utf8 = content[byte..<end]
                    element.wasVisible = insertedByThen
                    byte = end
                } else {
                    while i < list.count, list[i].seqs.upperBound <= seq { i += 1 }
                    if i < list.count, list[i].seqs.contains(seq) {
                        element.utf8 = deletions.bytes(of: seq..<seq &+ 1, in: list[i])
                        element.wasVisible = insertedByThen && list[i].stamp.milliseconds > t
                    } else if insertedByThen {
                        unknown = true
                    }
                }
                body(element)
            }
        }
        return unknown
    }

    /// The first `scalars` scalars of the UTF-8 `bytes`.
    private static func prefix(of bytes: ArraySlice<UInt8>, scalars: Int) -> ArraySlice<UInt8> {
        var end = bytes.startIndex
        for _ in 0..<scalars where end < bytes.endIndex { end += scalarBytes(bytes[end]) }
        return bytes[bytes.startIndex..<min(end, bytes.endIndex)]
    }

    /// Bytes of the UTF-8 scalar whose lead byte is `lead` (valid UTF-8).
    static func scalarBytes(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// What ``text(atMilliseconds:deletions:)`` found besides the text.
    struct PastText {
        /// The UTF-8 text.
        var utf8: [UInt8] = []
        /// Whether a deleted element inserted by then has no deletion event (deleted at an
        /// unknown time, shown as deleted).
        var unknownDeletions = false
    }

    /// The text at `t` (Unix milliseconds): the elements ``forEachElement(atMilliseconds:deletions:_:)``
    /// finds visible then.
    func text(atMilliseconds t: UInt64, deletions: DeletionTimes) -> PastText {
        var out = PastText()
        out.unknownDeletions = forEachElement(atMilliseconds: t, deletions: deletions, wholeRuns: true) { element in
            if element.wasVisible { out.utf8.append(contentsOf: element.utf8) }
        }
        return out
    }
}

extension TextSequence {
    /// Every replica's insertions by clock-log entry: the replica, the entry's stamp and how
    /// many ids it stamps (up to the next entry, or to the replica's next seq).
    func insertionBatches() -> [(replica: ReplicaID, stamp: HLCTimestamp, count: Int)] {
        var out: [(replica: ReplicaID, stamp: HLCTimestamp, count: Int)] = []
        for r in replicas.indices {
            let entries = clockLog[r].entries
            for (i, entry) in entries.enumerated() {
                let end = i + 1 < entries.count ? entries[i + 1].seq : nextSeq[r]
                if end > entry.seq { out.append((replicas[r], entry.stamp, Int(end - entry.seq))) }
            }
        }
        return out
    }
}

extension TextSequence {
    /// How many of the ids `seqs` of `replica` are deleted here: tombstones and compacted ids
    /// (ids this copy has not counted yet are not). A deletion event whose change a crash lost
    /// names ids that are still visible, and counts none of them.
    func deletedCount(of replica: ReplicaID, seqs: Range<UInt32>) -> Int {
        guard let r = replicaIndex[replica] else { return 0 }
        var seq = seqs.lowerBound
        var count = 0
        let end = min(seqs.upperBound, nextSeq[Int(r)])
        while seq < end {
            guard leafOf[Int(r)].holds(seq) else {
                count += 1
                seq += 1
                continue
            }
            let run = run(at: locate(ItemRef(replica: r, seq: seq)))
            let stop = min(run.seqEnd, end)
            if run.isDeleted { count += Int(stop - seq) }
            seq = stop
        }
        return count
    }
}
