extension UnsafeBufferPointer {
    /// The index of the last element whose key is at most `key` (0 when none is), for elements
    /// sorted by key: a binary search whose halving step is a conditional move, not a branch on
    /// the comparison (the chunk and segment searches of the delete set and the id slots).
    @inlinable @inline(__always)
    func lastIndex(withKeyAtMost key: UInt32, _ keyOf: (Element) -> UInt32) -> Int {
        var base = 0
        var n = count
        while n > 1 {
            let half = n &>> 1
            base = keyOf(self[base &+ half]) <= key ? base &+ half : base
            n &-= half
        }
        return base
    }
}
