/// A position in the raw (tombstone-including) sequence: a leaf's place in document
/// order, a run within that leaf, and a character within that run. Comparable, so
/// two elements' document order is a tuple comparison.
struct TreePosition: Comparable, Sendable {
    var order: Int
    var run: Int
    var offset: UInt32

    init(order: Int, run: Int, offset: UInt32) {
        self.order = order
        self.run = run
        self.offset = offset
    }

    static func < (a: Self, b: Self) -> Bool {
        if a.order != b.order { return a.order < b.order }
        if a.run != b.run { return a.run < b.run }
        return a.offset < b.offset
    }
}
