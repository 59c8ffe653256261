/// A run: consecutive characters inserted by one replica with consecutive sequence
/// numbers, stored, indexed, encoded and merged as one unit.
///
/// Character `i` of the run has id `(replica, seq + i)`. Its left origin is the run's
/// `left` for `i == 0` and the previous character of the run otherwise; every
/// character shares the run's `right` origin (the FugueMax / YjsMod rule).
/// A deleted run (tombstone) keeps its ids and origins but no content: `byteCount`
/// and `utf16` are zero, which is how deletion is represented.
struct Run: Sendable, Equatable {
    var replica: UInt32
    var seq: UInt32
    /// Number of characters (Unicode scalars) and ids in the run.
    var length: UInt32
    /// UTF-16 code units of the visible content; 0 when deleted.
    var utf16: UInt32
    /// Start of the run's UTF-8 content in the document's content buffer.
    var byteStart: UInt32
    /// UTF-8 bytes of the visible content; 0 when deleted.
    var byteCount: UInt32
    var left: ItemRef
    var right: ItemRef

    var isDeleted: Bool { byteCount == 0 }
    /// Visible Unicode scalars.
    var visibleScalars: Int { byteCount == 0 ? 0 : Int(length) }
    /// Visible UTF-16 units.
    var visibleUTF16: Int { Int(utf16) }
    var seqEnd: UInt32 { seq &+ length }

    /// Whether the run holds id `(r, s)`. One unsigned comparison covers both ends of the id
    /// range (ids before `seq` wrap around to values past any length: `seq + length` never
    /// exceeds `UInt32.max`).
    @inline(__always)
    func contains(replica r: UInt32, seq s: UInt32) -> Bool {
        s &- seq < length && replica == r
    }

    /// The left origin of the character at `offset`.
    func leftOrigin(at offset: UInt32) -> ItemRef {
        offset == 0 ? left : ItemRef(replica: replica, seq: seq &+ offset &- 1)
    }

    /// Whether `next` can be appended to this run without changing any origin.
    func canAbsorb(_ next: Run) -> Bool {
        guard next.replica == replica, next.seq == seq &+ length, next.right == right,
              next.left == ItemRef(replica: replica, seq: next.seq &- 1) else { return false }
        if isDeleted { return next.isDeleted }
        return !next.isDeleted && byteStart &+ byteCount == next.byteStart
    }

    /// Marks the run deleted, dropping its content.
    mutating func markDeleted() {
        utf16 = 0
        byteCount = 0
    }
}
