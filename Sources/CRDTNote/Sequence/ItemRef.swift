/// An element id inside one document: the document-local index of the replica that
/// inserted the character, and that replica's sequence number for it.
///
/// Replica ids (64-bit `ReplicaID`s) appear only at the edges (encoding, public API);
/// inside, every replica is a small index into the document's replica table.
struct ItemRef: Hashable, Sendable {
    var replica: UInt32
    var seq: UInt32

    init(replica: UInt32, seq: UInt32) {
        self.replica = replica
        self.seq = seq
    }

    /// "No item": the start of the document as a left origin, the end as a right origin.
    static let none = ItemRef(replica: .max, seq: .max)

    var isNone: Bool { replica == .max }
}
