/// Per paragraph key, the winning operation of each attribute name among a note's paragraph
/// operations (``NoteFormatting``'s index, so that reading one paragraph's attributes costs
/// O(1)). A key's winners are ordered by attribute name.
///
/// A table of its own rather than a `Dictionary`: a note formatted as it is typed looks a key
/// up on every newline typed in an attributed paragraph, and `Dictionary` hashes each key
/// through `Hasher`, several times the cost of the rest of the lookup. Here a key is one word
/// mixed with the process's keys (``OperationHashKeys``), in a ``PositionTable``.
struct ParagraphWinners: Sendable {
    /// The keys, in the order they came.
    private(set) var keys: [ParagraphKey] = []
    /// `winners[i]` are the winners of `keys[i]`.
    private var winners: [[ParagraphOperation]] = []
    /// The positions of the keys; its capacity at least twice their number.
    private var table = PositionTable()

    /// An empty index.
    init() {}

    /// The winners of `key` (nil when no operation names it).
    subscript(key: ParagraphKey) -> [ParagraphOperation]? {
        index(of: key).map { winners[$0] }
    }

    /// Calls `body` on `key`'s winners (an empty list for a key not seen before).
    mutating func updateWinners(of key: ParagraphKey, _ body: (inout [ParagraphOperation]) -> Void) {
        if let i = index(of: key) {
            body(&winners[i])
            return
        }
        if (keys.count + 1) * 2 > table.capacity {
            table.rebuild(count: keys.count) { Self.hash(keys[$0]) }
        }
        table.insert(keys.count, hash: Self.hash(key))
        keys.append(key)
        winners.append([])
        body(&winners[winners.count - 1])
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

    /// Where `key` is in `keys`, nil when it is not.
    private func index(of key: ParagraphKey) -> Int? {
        table.first(hash: Self.hash(key)) { keys[$0] == key }
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
