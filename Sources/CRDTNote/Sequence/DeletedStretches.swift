/// Visible characters of one run removed by a local deletion: their first and last ids and
/// their bytes in the content buffer (append-only, so the bytes stay there after the deletion).
struct VisibleStretch: Sendable {
    var first: ItemRef
    var last: ItemRef
    var bytes: Range<Int>
    var scalars: Int
    var utf16: Int
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
