/// One local deletion of consecutive ids of one replica, as the note's history keeps it
/// (Docs/FORMAT.md §11): which elements, who deleted them and when, and the text they held.
/// Not part of the CRDT state: the payload keeps only the tombstones.
struct DeletionEvent: Hashable, Sendable {
    /// The replica that inserted the deleted elements.
    var inserter: ReplicaID
    /// Their seqs (consecutive, never empty).
    var seqs: Range<UInt32>
    /// The replica that deleted them.
    var deleter: ReplicaID
    /// The deleting edit's stamp.
    var stamp: HLCTimestamp
    /// The UTF-8 text the elements held, in id order.
    var text: [UInt8]

    /// How long after an event's stamp a deletion that continues it still joins it, in
    /// milliseconds: the resolution of insertion times too (``TextSequence/clockLogResolution``).
    static let coalescingWindow = TextSequence.clockLogResolution

    /// This event with `next` (a later deletion of one stretch) joined to it, when `next` was made
    /// by the same deleter less than ``coalescingWindow`` after this event's stamp and removed the
    /// same inserter's ids just before this event's (a backspace) or just after them (the
    /// delete key); nil otherwise. The joined event keeps this event's stamp.
    func joined(with next: DeletionEvent) -> DeletionEvent? {
        guard next.deleter == deleter, next.inserter == inserter, next.stamp > stamp,
              next.stamp.milliseconds &- stamp.milliseconds < Self.coalescingWindow else { return nil }
        var out = self
        if next.seqs.upperBound == seqs.lowerBound {
            out.seqs = next.seqs.lowerBound..<seqs.upperBound
            out.text = next.text + text
        } else if next.seqs.lowerBound == seqs.upperBound {
            out.seqs = seqs.lowerBound..<next.seqs.upperBound
            out.text = text + next.text
        } else {
            return nil
        }
        return out
    }

    /// Whether this event covers `other`: the same stamp, deleter and inserter, `other`'s ids
    /// among its own, and for them the same text (`other` is this event as it was before later
    /// deletions joined it).
    func holds(_ other: DeletionEvent) -> Bool {
        var cursor = TextCursor()
        return holds(other, from: &cursor)
    }

    /// A place in an event's text: a scalar offset and the byte offset where that scalar starts.
    struct TextCursor {
        var scalars = 0
        var bytes = 0
    }

    /// ``holds(_:)``, finding where `other`'s text starts in this event's by stepping on from
    /// `cursor` (a place in this event's text, left where `other`'s text starts): events
    /// compared in order of their first id against one event cost its text's length once in
    /// all, not once each.
    func holds(_ other: DeletionEvent, from cursor: inout TextCursor) -> Bool {
        guard other.stamp == stamp, other.deleter == deleter, other.inserter == inserter,
              other.seqs.lowerBound >= seqs.lowerBound, other.seqs.upperBound <= seqs.upperBound else { return false }
        let offset = Int(other.seqs.lowerBound - seqs.lowerBound)
        if offset < cursor.scalars { cursor = TextCursor() }
        while cursor.scalars < offset {
            guard cursor.bytes < text.count else { return false }
            cursor.bytes += TextSequence.scalarBytes(text[cursor.bytes])
            cursor.scalars += 1
        }
        let start = cursor.bytes
        return start <= text.count && text.count - start >= other.text.count
            && text[start..<start + other.text.count].elementsEqual(other.text)
    }

    /// Orders events by stamp, then by every other field, so a set of events has one order.
    static func precedes(_ a: DeletionEvent, _ b: DeletionEvent) -> Bool {
        if a.stamp != b.stamp { return a.stamp < b.stamp }
        if a.deleter != b.deleter { return a.deleter < b.deleter }
        if a.inserter != b.inserter { return a.inserter < b.inserter }
        if a.seqs.lowerBound != b.seqs.lowerBound { return a.seqs.lowerBound < b.seqs.lowerBound }
        if a.seqs.upperBound != b.seqs.upperBound { return a.seqs.upperBound < b.seqs.upperBound }
        return a.text.lexicographicallyPrecedes(b.text)
    }
}

extension TextSequence {
    /// The events of a local deletion by `deleter` at `stamp` that removed `stretches` (as a
    /// ``DeletionRecorder`` saw them), their text copied from the content buffer, which keeps
    /// deleted text until the sequence is rebuilt.
    func deletionEvents<S: Sequence>(of stretches: S, deleter: ReplicaID, stamp: HLCTimestamp) -> [DeletionEvent] where S.Element == VisibleStretch {
        stretches.map { stretch in
            DeletionEvent(inserter: replicas[Int(stretch.first.replica)],
                          seqs: stretch.first.seq..<stretch.last.seq &+ 1,
                          deleter: deleter, stamp: stamp, text: Array(content[stretch.bytes]))
        }
    }
}

extension DeletedStretches {
    /// Every stretch, in document order.
    var all: [VisibleStretch] {
        guard let first else { return [] }
        return [first] + more
    }
}
