/// Walking the elements as they were at a past time, from the elements and the deletion events
/// (Docs/FORMAT.md §11.4), without changing the sequence: the text at a time, blame, restore.
extension TextSequence {
    /// When and with what text each deleted element of `events` was deleted: the earliest
    /// event naming it (two devices may delete one character concurrently). Flat arrays, one
    /// binary search per deleted element.
    struct DeletionTimes {
        struct Entry { var seqs: Range<UInt32>; var stamp: HLCTimestamp; var event: Int }
        /// Per inserting replica: entries sorted by first seq, and for each the highest seq end
        /// of it and every entry before it (so a lookup knows how far back overlaps reach).
        private var byReplica: [ReplicaID: (entries: [Entry], reach: [UInt32])] = [:]
        let events: [DeletionEvent]
        /// `offsets[base[e] + k]`: the byte offset of the k-th scalar of event e's text (one
        /// more entry: the text's end).
        private var base: [Int] = []
        private var offsets: [Int32] = []

        init(_ events: [DeletionEvent]) {
            self.events = events
            var lists: [ReplicaID: [Entry]] = [:]
            base.reserveCapacity(events.count)
            for (e, event) in events.enumerated() {
                lists[event.inserter, default: []].append(Entry(seqs: event.seqs, stamp: event.stamp, event: e))
                base.append(offsets.count)
                var byte = 0
                for _ in 0..<event.seqs.count {
                    offsets.append(Int32(byte))
                    if byte < event.text.count { byte += TextSequence.scalarBytes(event.text[byte]) }
                }
                offsets.append(Int32(min(byte, event.text.count)))
            }
            for (replica, list) in lists {
                let sorted = list.sorted { $0.seqs.lowerBound < $1.seqs.lowerBound }
                var reach: [UInt32] = []
                reach.reserveCapacity(sorted.count)
                for entry in sorted { reach.append(max(reach.last ?? 0, entry.seqs.upperBound)) }
                byReplica[replica] = (sorted, reach)
            }
        }

        /// The earliest event deleting `replica`'s element `seq`: its stamp, index and the
        /// element's bytes in its text; nil when no event names it.
        func entry(_ replica: ReplicaID, _ seq: UInt32) -> (stamp: HLCTimestamp, event: Int, bytes: Range<Int>)? {
            guard let list = byReplica[replica] else { return nil }
            var i = list.entries.partitioningIndex { $0.seqs.lowerBound > seq } - 1
            var found: Entry?
            while i >= 0, list.reach[i] > seq {
                let entry = list.entries[i]
                if entry.seqs.contains(seq), found.map({ entry.stamp < $0.stamp }) ?? true { found = entry }
                i -= 1
            }
            guard let found else { return nil }
            let k = base[found.event] + Int(seq - found.seqs.lowerBound)
            return (found.stamp, found.event, Int(offsets[k])..<Int(offsets[k + 1]))
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
    /// With `wholeRuns`, a visible run whose every id was inserted by `t` comes as one element
    /// holding the run's bytes (for callers that only gather text).
    @discardableResult
    func forEachElement(atMilliseconds t: UInt64, deletions: DeletionTimes, wholeRuns: Bool = false,
                        _ body: (PastElement) -> Void) -> Bool {
        var unknown = false
        // Each replica's clock log read once; a run's stamps found by one search, then in step.
        let logs = clockLog.map(\.entries)
        forEachRun { run in
            let log = logs[Int(run.replica)]
            let replicaID = replicas[Int(run.replica)]
            var byte = Int(run.byteStart)
            var entry = log.partitioningIndex { $0.seq > run.seq } - 1
            if wholeRuns, !run.isDeleted {
                // A replica's clock-log stamps grow with its seqs: the last id's is the latest.
                let last = log.partitioningIndex { $0.seq > run.seqEnd &- 1 } - 1
                if (last >= 0 ? log[last].stamp.milliseconds : 0) <= t {
                    body(PastElement(replica: run.replica, seq: run.seq, inserted: entry >= 0 ? log[entry].stamp : nil, isVisible: true,
                                     wasVisible: true, utf8: content[Int(run.byteStart)..<Int(run.byteStart + run.byteCount)]))
                    return
                }
            }
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
                } else if let deleted = deletions.entry(replicaID, seq) {
                    element.utf8 = deletions.events[deleted.event].text[deleted.bytes]
                    element.wasVisible = insertedByThen && deleted.stamp.milliseconds > t
                } else if insertedByThen {
                    unknown = true
                }
                body(element)
            }
        }
        return unknown
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
