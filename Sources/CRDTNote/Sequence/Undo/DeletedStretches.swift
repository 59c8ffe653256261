/// Visible characters of one run removed by a local deletion: their first and last ids and
/// their bytes in the content buffer (append-only, so the bytes stay there after the deletion).
///
/// Undo keeps them as the pieces of text it brings back, joining neighbours whose ids and bytes
/// continue each other.
struct VisibleStretch: Sendable {
    /// The first and last of the deleted elements, in document order.
    var first: ItemRef
    var last: ItemRef
    /// The text, in the note's content buffer.
    var bytes: Range<Int>
    var scalars: Int
    var utf16: Int

    /// Whether `piece` comes right before this one, in ids and in bytes.
    func canTakeInFront(_ piece: VisibleStretch) -> Bool {
        piece.last.replica == first.replica && piece.last.seq &+ 1 == first.seq && piece.bytes.upperBound == bytes.lowerBound
    }

    /// Puts `piece` (which ``canTakeInFront(_:)``) in front of this one.
    mutating func prepend(_ piece: VisibleStretch) {
        first = piece.first
        bytes = piece.bytes.lowerBound..<bytes.upperBound
        scalars += piece.scalars
        utf16 += piece.utf16
    }

    /// Puts `piece` (in front of which this one ``canTakeInFront(_:)``) after this one.
    mutating func append(_ piece: VisibleStretch) {
        last = piece.last
        bytes = bytes.lowerBound..<piece.bytes.upperBound
        scalars += piece.scalars
        utf16 += piece.utf16
    }
}

/// What a local deletion tells about the text it removes, from its own walk of the tree
/// (``TextSequence/deleteLocal(_:recording:)``): one stretch per run, in document order.
protocol DeletionRecorder {
    mutating func deleted(_ stretch: VisibleStretch)
}

/// Keeps nothing: the deletion of a note without undo history (compiled away).
struct IgnoredDeletions: DeletionRecorder {
    @inline(__always)
    func deleted(_ stretch: VisibleStretch) {}
}

/// Keeps the stretches a deletion removed, in document order: the first apart (usually the only
/// one: no array for a single keystroke), the rest in an array.
struct DeletedStretches: DeletionRecorder, Sendable {
    private(set) var first: VisibleStretch? = nil
    private(set) var more: [VisibleStretch] = []

    @inline(__always)
    mutating func deleted(_ stretch: VisibleStretch) {
        if first == nil { first = stretch } else { more.append(stretch) }
    }

    /// Forgets the stretches, keeping the array's storage.
    mutating func removeAll() {
        first = nil
        if !more.isEmpty { more.removeAll(keepingCapacity: true) }
    }
}

/// Hands every stretch to `inner` and keeps it too, for the note's deletion log.
struct LoggingDeletions<Inner: DeletionRecorder>: DeletionRecorder {
    var inner: Inner
    var stretches = DeletedStretches()

    @inline(__always)
    mutating func deleted(_ stretch: VisibleStretch) {
        inner.deleted(stretch)
        stretches.deleted(stretch)
    }
}
