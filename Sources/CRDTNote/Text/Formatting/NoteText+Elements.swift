/// One element of a note's order (a character ever inserted, tombstones included) with its
/// origins: what the formatting model reads to place marks and paragraphs.
struct NoteElement: Hashable, Sendable {
    /// The element's id.
    var id: ElementID
    /// Its left origin (nil: the document start).
    var left: ElementID?
    /// Its right origin (nil: the document end).
    var right: ElementID?
    /// The visible scalar, nil for a tombstone.
    var scalar: Unicode.Scalar?
}

/// The id of one element: the replica that inserted it and that replica's sequence number.
struct ElementID: Hashable, Sendable, CustomStringConvertible {
    var replica: ReplicaID
    var seq: UInt32

    var description: String { "\(replica.rawValue).\(seq)" }
}

extension NoteText {
    /// Every element in document order, tombstones included, with origins and visible scalars.
    /// O(n) in elements: the formatting model's reference reading, not a fast path.
    ///
    /// Throws ``NoteTextError/Code/corruptSnapshot`` when a loaded snapshot's index cannot be built.
    func elementsInOrder() throws(NoteTextError) -> [NoteElement] {
        let sequence = try indexForReading()
        let scalars = Array(sequence.string.unicodeScalars)
        var elements: [NoteElement] = []
        var visible = 0
        func id(_ ref: ItemRef) -> ElementID? {
            ref.isNone ? nil : ElementID(replica: sequence.replicas[Int(ref.replica)], seq: ref.seq)
        }
        sequence.forEachRun { run in
            let replica = sequence.replicas[Int(run.replica)]
            for k in 0..<run.length {
                var scalar: Unicode.Scalar?
                if !run.isDeleted {
                    scalar = scalars[visible]
                    visible += 1
                }
                elements.append(NoteElement(id: ElementID(replica: replica, seq: run.seq &+ k), left: id(run.leftOrigin(at: k)),
                                            right: id(run.right), scalar: scalar))
            }
        }
        return elements
    }
}

extension ElementID {
    /// The id of the element `ref` names (not none) in `sequence`.
    init(_ ref: ItemRef, in sequence: TextSequence) {
        self.init(replica: sequence.replicas[Int(ref.replica)], seq: ref.seq)
    }

    /// The id of the visible scalar with index `k` (`0 <= k < scalarCount`) of `sequence`: O(log n).
    init(ofScalar k: Int, in sequence: TextSequence) {
        self.init(sequence.ref(at: sequence.position(ofScalar: k)), in: sequence)
    }
}
