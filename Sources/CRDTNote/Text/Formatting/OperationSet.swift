/// A set of formatting operations (``NoteFormatting``'s marks and paragraph settings): set
/// semantics (an operation received twice is kept once; equality ignores order), stored in
/// arrival order.
///
/// Built for a note formatted as it is typed, where `Set` cost more than the formatting
/// itself: a `Set` of 128-byte operations rehashes and moves every element into a freshly
/// allocated table each time it doubles. Here the operations sit in fixed-size chunks that are
/// never moved (a new chunk, not a reallocation, when one fills), each operation is hashed
/// once (its hash is kept beside it), and the lookup table holds 4-byte positions, rebuilt
/// from the kept hashes when it grows. An operation stamped later than every one held (what
/// a device makes as its user formats) cannot be here already: it is appended without a
/// lookup, and entered into the table with others later, in a batch (a lookup costs a few
/// cache misses once the table is larger than the cache; a batch of entries overlaps them).
/// An operation's hash mixes two words of its identity
/// (``HashedOperation/identityWords``) with two random keys drawn once per process: a few
/// multiplications instead of `Hasher` on every keystroke-rate operation, and still no way for
/// a crafted payload to aim its operations at one slot without knowing the keys.
struct OperationSet<Element: HashedOperation>: Sendable {
    /// Elements per chunk (a power of two): 256 operations of ~128 bytes stay well below the
    /// size at which the allocator maps fresh pages for every block.
    private static var chunkShift: Int { 8 }
    private static var chunkSize: Int { 1 << chunkShift }

    /// The elements in arrival order, `chunkSize` per chunk (the last one partly filled).
    private var chunks: [[Element]] = []
    /// `hashes[i]` is `Self.hash(element(i))`.
    private var hashes: [Int] = []
    /// The positions of the elements before `indexed`, under their kept hashes; its capacity
    /// at least twice `indexed`.
    private var table = PositionTable()
    /// The elements `0..<indexed` are in `table`; the rest (at most `maximumUnindexed`) are
    /// looked up through their kept hashes.
    private var indexed = 0
    /// The latest author and stamp among the elements (nil while the set is empty).
    private var newest: (stamp: UInt64, replica: UInt64)?
    private static var maximumUnindexed: Int { 64 }

    /// Number of elements.
    var count: Int { hashes.count }

    /// An empty set.
    init() {}

    /// The set of `elements` (duplicates kept once).
    init(_ elements: some Sequence<Element>) {
        formUnion(elements)
    }

    /// Whether `element` is in the set.
    func contains(_ element: Element) -> Bool {
        let hash = Self.hash(element)
        if find(element, hash: hash) { return true }
        for i in indexed..<count where hashes[i] == hash && self[i] == element { return true }
        return false
    }

    /// Adds `element` unless the set holds it already; returns whether it was added.
    @discardableResult
    mutating func insert(_ element: Element) -> Bool {
        let hash = Self.hash(element)
        let key = (stamp: element.stamp.rawValue, replica: element.replica.rawValue)
        // Equal operations have one author and stamp: a later one is new.
        if let newest, key <= newest {
            indexPending()
            if find(element, hash: hash) { return false }
        } else {
            newest = key
        }
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        hashes.append(hash)
        if count - indexed > Self.maximumUnindexed { indexPending() }
        return true
    }

    /// Enters the elements appended since the last call into the table (rebuilding it larger
    /// first when they would fill more than half of it).
    private mutating func indexPending() {
        guard indexed < count else { return }
        if count * 2 > table.capacity {
            table.rebuild(count: count) { hashes[$0] }
        } else {
            for i in indexed..<count { table.insert(i, hash: hashes[i]) }
        }
        indexed = count
    }

    /// Adds every element of `other` the set does not hold.
    mutating func formUnion(_ other: some Sequence<Element>) {
        for element in other { insert(element) }
    }

    /// `element`'s identity words mixed with the process's keys.
    @inline(__always)
    private static func hash(_ element: Element) -> Int {
        let (a, b) = element.identityWords
        return OperationHashKeys.mix(a, b)
    }

    /// Whether `element` (whose hash is `hash`) is among the elements in the table.
    private func find(_ element: Element, hash: Int) -> Bool {
        table.first(hash: hash) { hashes[$0] == hash && self[$0] == element } != nil
    }
}

extension OperationSet: RandomAccessCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The `position`-th element in arrival order.
    subscript(position: Int) -> Element {
        chunks[position >> Self.chunkShift][position & (Self.chunkSize - 1)]
    }
}

extension OperationSet: Hashable {
    /// Equal when they hold the same elements, in whatever order they arrived.
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs.contains($0) }
    }

    /// The count and an order-free sum of the elements' hashes.
    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(hashes.reduce(0, &+))
    }
}

extension OperationSet: ExpressibleByArrayLiteral {
    /// The set of the listed elements.
    init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

/// A formatting operation as ``OperationSet`` stores it: equal operations have equal identity
/// words; different ones rarely do (the author and stamp, and where the operation applies).
protocol HashedOperation: Hashable, Sendable, StampedFormattingOperation {
    /// Two words that equal operations share (as they share ``StampedFormattingOperation/stamp``
    /// and ``StampedFormattingOperation/replica``).
    var identityWords: (UInt64, UInt64) { get }
}

/// The random keys of ``OperationSet``'s and ``ParagraphWinners``' hashes, drawn once per process.
enum OperationHashKeys {
    private static let first = UInt64.random(in: 0 ... .max)
    private static let second = UInt64.random(in: 0 ... .max)

    /// Two words mixed with the keys (a bijective mix of each word, so distinct words never
    /// cancel out): a few multiplications, and no way for a crafted payload to aim many
    /// entries at one slot without knowing the keys.
    @inline(__always)
    static func mix(_ a: UInt64, _ b: UInt64) -> Int {
        var h = (a ^ first) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        h = (h ^ b ^ second) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }
}
