/// An open-addressing table of positions into an array its owner keeps (``OperationSet``'s
/// elements, ``ParagraphWinners``' keys), each entered under a hash the owner computes: 4 bytes
/// a slot, linear probing. The owner compares candidates itself (`first(hash:where:)`), so the
/// table holds no elements and copies nothing.
struct PositionTable: Sendable {
    /// 0 is an empty slot, `i + 1` names position `i`. A power of two long (0 before the first
    /// ``rebuild(count:hash:)``).
    private var slots: [Int32] = []

    /// Number of slots: the owner rebuilds before entries would fill more than half of them.
    var capacity: Int { slots.count }

    /// The first position on `hash`'s probe sequence that `matches`, nil when none does.
    @inline(__always)
    func first(hash: Int, where matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if matches(entry - 1) { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Enters `position` under `hash` (the table must have room: see ``capacity``).
    @inline(__always)
    mutating func insert(_ position: Int, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(truncatingIfNeeded: position + 1)
    }

    /// Doubles the table (8 slots at first, more until it is at least twice `count`) and enters
    /// the positions `0..<count` again, each under `hash(position)`.
    mutating func rebuild(count: Int, hash: (Int) -> Int) {
        var size = Swift.max(8, slots.count * 2)
        while size < count * 2 { size *= 2 }
        slots = [Int32](repeating: 0, count: size)
        for position in 0..<count { insert(position, hash: hash(position)) }
    }
}
