/// The replicated sequence behind a note's text: every character ever inserted, in
/// document order, grouped in runs, with tombstones for deletions.
///
/// Storage is a two-level tree: leaves hold up to `leafCapacity` runs, and a
/// Fenwick tree over the leaves (in document order) counts visible Unicode scalars and
/// UTF-16 units, so positional lookup in either unit is O(log n) plus a short scan of
/// one leaf. Ids map to leaves through `leafOf` (ranges of ids per leaf, ``SlotRanges``), so
/// finding an element by id is a binary search plus a scan of one leaf, and memory follows the
/// runs, not the ids (a tombstone of millions of ids is one entry). Everything is stored in arrays, so
/// the whole structure has value semantics with copy-on-write for free.
///
/// `@usableFromInline` here and on the counts below is not for `@inlinable` code: it lets
/// the optimizer's cross-module pass inline `NoteText`'s count getters into other modules
/// (apps, trace replay). Without it every `note.scalarCount` from outside is a call that
/// copies the note's fields (measured: +45 instructions per replayed edit).
@usableFromInline
struct TextSequence: Sendable {
    static let leafCapacity = 64

    /// Replica table: document-local index to replica id.
    var replicas: [ReplicaID] = []
    var replicaIndex: [ReplicaID: UInt32] = [:]
    /// Per replica: how many of its ids this document holds (ids `0..<nextSeq`).
    var nextSeq: [UInt32] = []
    /// Per replica: the leaf slot holding each id, as ranges.
    var leafOf: [SlotRanges] = []
    /// Per replica: HLC stamps of its insertions (coalesced per millisecond).
    var clockLog: [ClockLog] = []
    /// Per replica: the latest HLC stamp of any of its operations, deletions included.
    var latestStamp: [HLCTimestamp] = []
    /// Per replica: which of its ids are deleted (the delete set), so a merge lists the
    /// tombstones to send without walking the note.
    var deleted: [DeletedIDs] = []
    /// Whether some replica has compacted ids (Docs/FORMAT.md §4.7): ids below `nextSeq` that no
    /// run holds, deleted everywhere. Merges check origins against them only when there are any.
    var hasCompactedIDs = false

    /// UTF-8 of inserted text; runs point into it. Append-only.
    var content: [UInt8] = []
    /// Leaf slots (arena); a slot's position in the document is `orderIndex[slot]`.
    var leaves: [[Run]] = [[]]
    var order: [Int32] = [0]
    var orderIndex: [Int32] = [0]
    /// Visible scalars / UTF-16 units per leaf slot (the Fenwick trees' point values, by slot),
    /// except for the change held back in `heldSlot`: read them after `flushSlotCounts()`.
    var slotScalars: [Int] = [0]
    var slotUTF16: [Int] = [0]
    /// A change to one slot's counts not yet added to `slotScalars` and `slotUTF16` (the Fenwick
    /// trees and the totals have it): consecutive edits in one leaf update three fields instead
    /// of two arrays (each mutation of an array checks its storage for copy-on-write). -1: none.
    var heldSlot = -1
    var heldScalars = 0
    var heldUTF16 = 0
    /// Fenwick trees indexed by document-order position.
    var scalarTree = FenwickTree()
    var utf16Tree = FenwickTree()
    @usableFromInline var scalarCount = 0
    @usableFromInline var utf16Count = 0
    /// Total runs, for statistics.
    @usableFromInline var runCount = 0
    /// Where the last local insertion ended, while nothing else has changed the structure:
    /// typing on at that spot extends the same run without any lookup.
    var typingCursor: TypingCursor? = nil
    /// A run near the last local edit and how many visible scalars precede it, while nothing
    /// else has changed the structure: the next local edit close by (backspacing, deleting
    /// forwards, typing again after a correction) finds its position by scanning from there
    /// instead of searching the Fenwick tree. Cleared wherever `typingCursor` is.
    var editCursor: EditCursor? = nil
    /// While applying many changes at once, leaves may grow to `deferredLeafCapacity` before
    /// splitting; they are split in one pass (and the indexes rebuilt once) at the end.
    var splitLimit = TextSequence.leafCapacity
    /// While `recordingPatch` is set, remote insertions and deletions (`integrate`, `deleteIDs`) record how
    /// they change the visible text, for the ``TextPatch`` a merge returns.
    var patchRecorder = TextPatchBuilder()
    var recordingPatch = false
    static let deferredLeafCapacity = 4 * leafCapacity
    /// Leaves that grew past `leafCapacity` while splits were deferred (may repeat).
    var oversizedSlots: [Int] = []

    #if DEBUG
    /// What the current mutation touched, for the internal checks (TextSequence+InternalChecks.swift).
    var internalChecks = InternalCheckLog()
    #endif

    init() {
        scalarTree.rebuild([0])
        utf16Tree.rebuild([0])
    }

    /// The document-local index of `replica`, adding it to the table when new.
    mutating func index(of replica: ReplicaID) -> UInt32 {
        if let i = replicaIndex[replica] { return i }
        let i = UInt32(replicas.count)
        replicas.append(replica)
        replicaIndex[replica] = i
        nextSeq.append(0)
        leafOf.append(SlotRanges())
        clockLog.append(ClockLog())
        latestStamp.append(.zero)
        deleted.append(DeletedIDs())
        return i
    }

    /// The visible text as UTF-8.
    func utf8Bytes() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(scalarCount + scalarCount / 8)
        content.withUnsafeBufferPointer { buffer in
            for slot in order {
                for run in leaves[Int(slot)] where run.byteCount > 0 {
                    let start = Int(run.byteStart)
                    out.append(contentsOf: buffer[start..<start + Int(run.byteCount)])
                }
            }
        }
        return out
    }

    /// The visible text.
    var string: String { String(decoding: utf8Bytes(), as: UTF8.self) }

    /// Records that `replica` performed an operation at `stamp`; insertions log the first id
    /// they created when a second or more has passed since the last entry, so every id's stamp
    /// can be recovered to within a second (Docs/FORMAT.md §1, "Clocks"). Always inlined (once
    /// per local edit).
    @inline(__always)
    mutating func noteStamp(_ stamp: HLCTimestamp, replica: UInt32, firstInsertedSeq: UInt32?) {
        let r = Int(replica)
        if stamp > latestStamp[r] { latestStamp[r] = stamp }
        guard let seq = firstInsertedSeq else { return }
        if let last = clockLog[r].last, stamp.milliseconds &- last.stamp.milliseconds < Self.clockLogResolution { return }
        clockLog[r].append(ClockLogEntry(seq: seq, stamp: stamp))
    }

    /// Milliseconds between the clock-log entries of local insertions (at least).
    static let clockLogResolution: UInt64 = 1_000
}

/// The run a local insertion just created or extended, and the scalar offset where it ends.
struct TypingCursor: Sendable {
    var scalarEnd: Int
    var slot: Int
    var index: Int
    var replica: UInt32
}

/// A run of a leaf and the number of visible scalars before it in the document.
struct EditCursor: Sendable {
    var slot: Int
    var index: Int
    var scalarsBefore: Int
}

/// The HLC stamp of a replica's insertions from `seq` on (until the next entry).
struct ClockLogEntry: Sendable, Hashable {
    var seq: UInt32
    var stamp: HLCTimestamp
}
