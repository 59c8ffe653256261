/// An element id inside one document: the document-local index of the replica that
/// inserted the character, and that replica's sequence number for it.
///
/// Replica ids (64-bit `ReplicaID`s) appear only at the edges (encoding, public API);
/// inside, every replica is a small index into the document's replica table.
@usableFromInline
struct ItemRef: Hashable, Sendable {
    @usableFromInline var replica: UInt32
    @usableFromInline var seq: UInt32

    @inlinable init(replica: UInt32, seq: UInt32) {
        self.replica = replica
        self.seq = seq
    }

    /// "No item": the start of the document as a left origin, the end as a right origin.
    @usableFromInline static let none = ItemRef(replica: .max, seq: .max)

    @inlinable var isNone: Bool { replica == .max }
}
