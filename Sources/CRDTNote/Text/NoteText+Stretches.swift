/// One maximal stretch of the element order: consecutive sequence numbers of one replica,
/// all deleted or all visible. See ``NoteText/forEachStretch(_:)``.
struct NoteTextStretch: Hashable, Sendable {
    /// The replica that inserted the elements.
    var replica: ReplicaID
    /// First sequence number.
    var start: UInt32
    /// One past the last sequence number.
    var end: UInt32
    /// Whether the elements are tombstones.
    var deleted: Bool
}

extension NoteText {
    /// Calls `body` with the element order in canonical form: maximal stretches of
    /// id-consecutive elements with the same deleted state, in document order. Equal states give
    /// the same stretches however their runs happen to be split internally.
    ///
    /// Builds a loaded snapshot's index (once, shared by its copies); throws, calling `body`
    /// for nothing, when the snapshot's runs are corrupt.
    func forEachStretch(_ body: (NoteTextStretch) -> Void) throws(BinaryDecodingError) {
        let seq = try loadedSequence()
        var current: NoteTextStretch?
        seq.forEachRun { run in
            let id = seq.replicas[Int(run.replica)]
            if var c = current, c.replica == id, c.end == run.seq, c.deleted == run.isDeleted {
                c.end = run.seqEnd
                current = c
            } else {
                if let c = current { body(c) }
                current = NoteTextStretch(replica: id, start: run.seq, end: run.seqEnd, deleted: run.isDeleted)
            }
        }
        if let c = current { body(c) }
    }
}
