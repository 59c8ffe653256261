/// Operations one document can send another: insert runs (with their origins and,
/// unless deleted, their text), deleted id ranges, and clock information.
///
/// Replica references inside are indexes into `replicas`. A change set extracted for a
/// version vector holds exactly what a peer at that version lacks; applying it equals
/// merging the full state.
@usableFromInline  // NoteChanges holds one in a @usableFromInline property.
struct ChangeSet: Sendable, Equatable {
    struct Insert: Sendable, Equatable {
        var replica: UInt32
        var seq: UInt32
        var length: UInt32
        var left: ItemRef
        var right: ItemRef
        /// UTF-8 content in `content`; `byteCount == 0` means the run arrives deleted.
        var byteStart: UInt32
        var byteCount: UInt32
        var utf16: UInt32
    }

    struct Delete: Sendable, Equatable {
        var replica: UInt32
        var seq: UInt32
        var length: UInt32
    }

    var replicas: [ReplicaID] = []
    /// Inserts in the sender's document order.
    var inserts: [Insert] = []
    var content: [UInt8] = []
    /// Deleted id ranges, sorted by (replica, seq), coalesced.
    var deletes: [Delete] = []
    /// Per replica: clock entries covering the ids in `inserts`.
    var clockLogs: [[ClockLogEntry]] = []
    /// Per replica: its latest operation stamp.
    var latestStamps: [HLCTimestamp] = []

    var isEmpty: Bool { inserts.isEmpty && deletes.isEmpty }
}

extension TextSequence {
    /// The operations a document holding `known[r]` ids of each replica lacks
    /// (indexed by this document's replica indexes; missing entries count as 0).
    func changes(since known: [UInt32]) -> ChangeSet {
        var set = ChangeSet()
        set.replicas = replicas
        set.latestStamps = latestStamp
        var deletes: [ChangeSet.Delete] = []
        func from(_ r: UInt32) -> UInt32 { Int(r) < known.count ? known[Int(r)] : 0 }
        for slot in order {
            for run in leaves[Int(slot)] {
                let have = from(run.replica)
                if run.seqEnd <= have {
                    if run.isDeleted { deletes.append(.init(replica: run.replica, seq: run.seq, length: run.length)) }
                    continue
                }
                var part = run
                if run.seq < have {
                    let skip = have - run.seq
                    if run.isDeleted { deletes.append(.init(replica: run.replica, seq: run.seq, length: skip)) }
                    part.seq = have
                    part.length = run.length - skip
                    part.left = ItemRef(replica: run.replica, seq: have - 1)
                    if !run.isDeleted {
                        let cut = UTF8Counting.prefix(of: content, start: Int(run.byteStart), scalars: Int(skip))
                        part.byteStart += UInt32(cut.bytes)
                        part.byteCount -= UInt32(cut.bytes)
                        part.utf16 -= UInt32(cut.utf16)
                    }
                }
                let start = UInt32(set.content.count)
                if !part.isDeleted {
                    set.content.append(contentsOf: content[Int(part.byteStart)..<Int(part.byteStart + part.byteCount)])
                }
                set.inserts.append(.init(replica: part.replica, seq: part.seq, length: part.length, left: part.left,
                                         right: part.right, byteStart: start, byteCount: part.byteCount, utf16: part.utf16))
            }
        }
        deletes.sort { ($0.replica, $0.seq) < ($1.replica, $1.seq) }
        for d in deletes {
            if let last = set.deletes.last, last.replica == d.replica, last.seq + last.length == d.seq {
                set.deletes[set.deletes.count - 1].length += d.length
            } else {
                set.deletes.append(d)
            }
        }
        set.clockLogs = clockLog.enumerated().map { r, log in
            let have = from(UInt32(r))
            guard have < nextSeq[r] else { return [] }
            // Keep the entry in force at `have` and everything after it.
            var lo = 0
            var hi = log.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if log[mid].seq <= have { lo = mid + 1 } else { hi = mid }
            }
            return Array(log[max(lo - 1, 0)...])
        }
        return set
    }
}
