/// Per paragraph key, the winning operation of each attribute name among a note's paragraph
/// operations (``NoteFormatting``'s index, so that reading one paragraph's attributes costs
/// O(1)). A key's winners are ordered by attribute name.
///
/// A table of its own rather than a `Dictionary`: a note formatted as it is typed looks a key
/// up on every newline typed in an attributed paragraph, and `Dictionary` hashes each key
/// through `Hasher`, several times the cost of the rest of the lookup. Here a key is one word
/// mixed with the process's keys (``OperationHashKeys``), and the table holds 4-byte positions.
struct ParagraphWinners: Sendable {
    /// The keys, in the order they came.
    private(set) var keys: [ParagraphKey] = []
    /// `winners[i]` are the winners of `keys[i]`.
    private var winners: [[ParagraphOperation]] = []
    /// Open addressing with linear probing: 0 is an empty slot, `i + 1` names `keys[i]`. Its
    /// count is a power of two at least twice the number of keys (or 0 while there is none).
    private var slots: [Int32] = []

    /// An empty index.
    init() {}

    /// The winners of `key` (nil when no operation names it).
    subscript(key: ParagraphKey) -> [ParagraphOperation]? {
        let (found, slot) = find(key)
        return found ? winners[Int(slots[slot]) - 1] : nil
    }

    /// Calls `body` on `key`'s winners (an empty list for a key not seen before).
    mutating func updateWinners(of key: ParagraphKey, _ body: (inout [ParagraphOperation]) -> Void) {
        var (found, slot) = find(key)
        if !found {
            if (keys.count + 1) * 2 > slots.count {
                grow()
                slot = find(key).slot
            }
            keys.append(key)
            winners.append([])
            slots[slot] = Int32(truncatingIfNeeded: keys.count)
        }
        body(&winners[Int(slots[slot]) - 1])
    }

    /// `transform` of every key's winners.
    func mapValues<T>(_ transform: ([ParagraphOperation]) -> T) -> [ParagraphKey: T] {
        var out: [ParagraphKey: T] = [:]
        out.reserveCapacity(keys.count)
        for (key, list) in zip(keys, winners) { out[key] = transform(list) }
        return out
    }

    @inline(__always)
    private static func hash(_ key: ParagraphKey) -> Int {
        OperationHashKeys.mix(key.word, 0)
    }

    /// Whether `key` is in the table, and the slot that names it, or else the empty slot where
    /// it would go (any slot when there is no table yet).
    private func find(_ key: ParagraphKey) -> (found: Bool, slot: Int) {
        guard !slots.isEmpty else { return (false, 0) }
        let mask = slots.count - 1
        var slot = Self.hash(key) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return (false, slot) }
            if keys[entry - 1] == key { return (true, slot) }
            slot = (slot + 1) & mask
        }
    }

    /// Doubles the table (8 slots at first) and places every key again.
    private mutating func grow() {
        let size = Swift.max(8, slots.count * 2)
        slots = [Int32](repeating: 0, count: size)
        let mask = size - 1
        for (i, key) in keys.enumerated() {
            var slot = Self.hash(key) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: i + 1)
        }
    }
}

extension ParagraphWinners: Hashable {
    /// Equal when they hold the same keys with the same winners, in whatever order the keys came.
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.keys.count == rhs.keys.count && zip(lhs.keys, lhs.winners).allSatisfy { key, list in rhs[key] == list }
    }

    /// The count and an order-free sum of the entries' hashes.
    func hash(into hasher: inout Hasher) {
        hasher.combine(keys.count)
        var sum = 0
        for (key, list) in zip(keys, winners) {
            var entry = Hasher()
            entry.combine(key)
            entry.combine(list)
            sum &+= entry.finalize()
        }
        hasher.combine(sum)
    }
}
