/// Rebuilding the text as it was at a past time from the elements and the deletion events
/// (Docs/FORMAT.md §11.4), without changing the sequence.
extension TextSequence {
    /// When and with what text each deleted element of `events` was deleted: the earliest
    /// event naming it (two devices may delete one character concurrently).
    struct DeletionTimes {
        struct Entry { var stamp: HLCTimestamp; var event: Int; var bytes: Range<Int> }
        var byID: [ReplicaID: [UInt32: Entry]] = [:]
        var events: [DeletionEvent]

        init(_ events: [DeletionEvent]) {
            self.events = events
            for (e, event) in events.enumerated() {
                var byte = 0
                var seq = event.seqs.lowerBound
                var perReplica = byID[event.inserter] ?? [:]
                while byte < event.text.count, seq < event.seqs.upperBound {
                    var end = byte + 1
                    while end < event.text.count, event.text[end] & 0xC0 == 0x80 { end += 1 }
                    let entry = Entry(stamp: event.stamp, event: e, bytes: byte..<end)
                    if let old = perReplica[seq], old.stamp <= entry.stamp {} else { perReplica[seq] = entry }
                    byte = end
                    seq &+= 1
                }
                byID[event.inserter] = perReplica
            }
        }

        func entry(_ replica: ReplicaID, _ seq: UInt32) -> Entry? { byID[replica]?[seq] }
    }

    /// What ``text(atMilliseconds:deletions:)`` found besides the text.
    struct PastText {
        /// The UTF-8 text.
        var utf8: [UInt8] = []
        /// Whether a deleted element inserted by then has no deletion event (deleted at an
        /// unknown time, shown as deleted).
        var unknownDeletions = false
    }

    /// The text at `t` (Unix milliseconds): every element inserted at or before `t` (its
    /// clock-log stamp) that was not deleted at or before `t` by an event of `deletions`;
    /// deleted elements without an event count as deleted.
    func text(atMilliseconds t: UInt64, deletions: DeletionTimes) -> PastText {
        var out = PastText()
        forEachRun { run in
            let log = clockLog[Int(run.replica)]
            let replicaID = replicas[Int(run.replica)]
            var byte = Int(run.byteStart)
            for k in 0..<run.length {
                let seq = run.seq &+ k
                var end = byte
                if !run.isDeleted {
                    end = byte + 1
                    while end < content.count, content[end] & 0xC0 == 0x80 { end += 1 }
                }
                defer { byte = end }
                // An id no entry stamps (none in force) counts as inserted from the start.
                guard (log.stamp(at: seq)?.milliseconds ?? 0) <= t else { continue }
                if !run.isDeleted {
                    out.utf8.append(contentsOf: content[byte..<end])
                } else if let deleted = deletions.entry(replicaID, seq) {
                    if deleted.stamp.milliseconds > t { out.utf8.append(contentsOf: deletions.events[deleted.event].text[deleted.bytes]) }
                } else {
                    out.unknownDeletions = true
                }
            }
        }
        return out
    }
}
