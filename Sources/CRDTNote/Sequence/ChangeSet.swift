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
    /// Inserts in the sender's document order (in (replica, id) order when made for a merge:
    /// see `TextSequence.changes(since:receiver:)`).
    var inserts: [Insert] = []
    /// UTF-8 the inserts point into: their bytes, or for a merge the sender's whole buffer.
    var content: [UInt8] = []
    /// Deleted id ranges, sorted by (replica, seq), coalesced.
    var deletes: [Delete] = []
    /// Per replica: clock entries covering the ids in `inserts`.
    var clockLogs: [[ClockLogEntry]] = []
    /// Per replica: its latest operation stamp.
    var latestStamps: [HLCTimestamp] = []
    /// Ids the sender compacted (Docs/FORMAT.md §4.7) that the receiver has not seen (at or past
    /// its count), sorted by (replica, seq): the receiver counts them as compacted too. Inserts
    /// and these together continue each replica's ids without a gap.
    var compacted: [Delete] = []

    var isEmpty: Bool { inserts.isEmpty && deletes.isEmpty && compacted.isEmpty }
}

extension TextSequence {
    /// The operations a document holding `known[r]` ids of each replica lacks
    /// (indexed by this document's replica indexes; missing entries count as 0).
    ///
    /// Costs what is sent, not the size of the note: the new ids of each replica are found
    /// through `leafOf` (only the leaves holding them are scanned; when much of the note is new,
    /// one walk in document order instead) and the tombstones through the delete set, so it is
    /// O(k log n + d) for k new runs and d deleted id ranges. When the
    /// receiving document is at hand (`receiver`), stretches of the delete set it holds as they
    /// are here (copies forked from each other share unchanged storage) are left out, and the
    /// inserts found through `leafOf` come in (replica, id) order rather than document order:
    /// the order `apply` plans in, so neither side sorts them (applying gives the same result
    /// in any order); the set's content is then this document's content buffer, shared, unless
    /// `copyingContent` (a set to be encoded: only the inserts' bytes).
    ///
    /// `needed`: elements of this document (its replica indexes) the receiver must hold after
    /// the merge besides the origins of what is sent (those formatting names): any it compacted
    /// are sent back to it, as for origins (``addRevivals(for:to:sharingContent:needed:)``).
    func changes(since known: [UInt32], receiver: TextSequence? = nil, copyingContent: Bool = false,
                 needed: [ItemRef] = []) -> ChangeSet {
        var set = ChangeSet()
        set.replicas = replicas
        set.latestStamps = latestStamp
        func from(_ r: Int) -> UInt32 { r < known.count ? known[r] : 0 }
        var found: [Run] = []
        var newIDs = 0
        for r in replicas.indices where from(r) < nextSeq[r] { newIDs += Int(nextSeq[r] - from(r)) }
        if newIDs >= runCount / 8 {
            // Much of the note is new to the peer: one walk in document order is cheaper.
            for slot in order {
                leaves[Int(slot)].withUnsafeBufferPointer { runs in
                    for run in runs where run.seqEnd > from(Int(run.replica)) { found.append(run) }
                }
            }
        } else {
            found = newRunsThroughIDIndex(known, capacity: Swift.min(newIDs, runCount), documentOrder: receiver == nil)
        }
        // Sized once: a merge of a few edits would otherwise grow these arrays several times.
        set.inserts.reserveCapacity(found.count)
        // Merging right away: the set's content is this document's buffer itself (shared storage,
        // nothing copied), the inserts pointing into it. Sent elsewhere, only their bytes go.
        let sharesContent = receiver != nil && !copyingContent
        if sharesContent {
            set.content = content
        } else {
            var bytes = 0
            for run in found { bytes += Int(run.byteCount) }
            set.content.reserveCapacity(bytes)
        }
        for run in found {
            let have = from(Int(run.replica))
            var part = run
            if run.seq < have {
                let skip = have - run.seq
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
            let start: UInt32
            if sharesContent {
                start = part.isDeleted ? 0 : part.byteStart
            } else {
                start = UInt32(set.content.count)
                if !part.isDeleted {
                    set.content.append(contentsOf: content[Int(part.byteStart)..<Int(part.byteStart + part.byteCount)])
                }
            }
            set.inserts.append(.init(replica: part.replica, seq: part.seq, length: part.length, left: part.left,
                                     right: part.right, byteStart: start, byteCount: part.byteCount, utf16: part.utf16))
        }
        // Tombstones among the ids the peer has (newer ids travel as inserts, deleted or not).
        for r in replicas.indices {
            let have = from(r)
            let unshared = receiver.flatMap { other in other.replicaIndex[replicas[r]].map { deleted[r].chunks(notHeldBy: other.deleted[Int($0)]) } }
            chunks: for chunk in unshared ?? deleted[r].chunks.map({ $0[...] }) {
                for range in chunk {
                    if range.lowerBound >= have { break chunks }
                    let end = min(range.upperBound, have)
                    set.deletes.append(.init(replica: UInt32(r), seq: range.lowerBound, length: end - range.lowerBound))
                }
            }
        }
        if hasCompactedIDs { addCompacted(since: known, to: &set) }
        if let receiver, receiver.hasCompactedIDs { addRevivals(for: receiver, to: &set, sharingContent: sharesContent, needed: needed) }
        set.clockLogs = clockLog.enumerated().map { r, log in
            let have = from(r)
            guard have < nextSeq[r] else { return [] }
            // The entry in force at `have` and everything after it.
            return log.entries(inForceFrom: have)
        }
        return set
    }
}

extension TextSequence {
    /// The runs holding ids beyond `known`, found through `leafOf`: for each stretch of new ids
    /// that one leaf holds, that leaf is scanned for the runs of the stretch (a run lies in one
    /// stretch, so none is found twice). The scan of a leaf ends once the runs found cover the
    /// stretch (half the leaf on average). `capacity`: at least the number of runs expected (the
    /// new ids, at most the runs of the note).
    ///
    /// In document order: their places (leaf position, index in the leaf) sorted as plain
    /// integers, and the runs read back from them. Otherwise in (replica, id) order: stretches
    /// come in id order, and the few runs of one stretch are put in id order where they are found.
    fileprivate func newRunsThroughIDIndex(_ known: [UInt32], capacity: Int, documentOrder: Bool) -> [Run] {
        var places: [Int64] = []
        places.reserveCapacity(capacity)
        for r in replicas.indices {
            let replica = UInt32(r)
            leafOf[r].forEachStretch(from: r < known.count ? known[r] : 0) { slot32, ids in
                guard slot32 != SlotRanges.compacted else { return }  // held by no run: `addCompacted`
                let slot = Int(slot32)
                let place = Int64(orderIndex[slot]) << 32
                let first = ids.lowerBound
                let end = ids.upperBound
                let stretchStart = places.count
                leaves[slot].withUnsafeBufferPointer { runs in
                    // The leaf holds every id of the stretch: stop once the runs found cover it.
                    var uncovered = end - first
                    for i in runs.indices {
                        let run = runs[i]
                        if run.replica == replica && run.seqEnd > first && run.seq < end {
                            places.append(place | Int64(i))
                            uncovered -= Swift.min(run.seqEnd, end) - Swift.max(run.seq, first)
                            if uncovered == 0 { break }
                        }
                    }
                    if !documentOrder && places.count - stretchStart > 1 {
                        // Insertion sort by id: a stretch holds a run or a few.
                        func seq(_ place: Int64) -> UInt32 { runs[Int(place & 0xFFFF_FFFF)].seq }
                        for j in (stretchStart + 1)..<places.count {
                            let moving = places[j]
                            var k = j
                            while k > stretchStart && seq(places[k - 1]) > seq(moving) {
                                places[k] = places[k - 1]
                                k -= 1
                            }
                            places[k] = moving
                        }
                    }
                }
            }
        }
        if documentOrder { places.sort() }
        var found: [Run] = []
        found.reserveCapacity(places.count)
        for place in places {
            found.append(leaves[Int(order[Int(place >> 32)])][Int(place & 0xFFFF_FFFF)])
        }
        return found
    }
}
