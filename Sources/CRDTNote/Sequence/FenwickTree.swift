/// A Fenwick (binary indexed) tree of non-negative counts: prefix sums and
/// "which slot holds the k-th unit" in O(log n). Rebuilt in O(n) when slots are inserted.
///
/// Changes to one slot are held back (`pendingIndex`, `pendingDelta`) until another slot
/// changes: consecutive local edits mostly touch one leaf, so most of them cost no tree
/// walk at all. Queries account for the held-back change exactly.
struct FenwickTree: Sendable {
    /// 1-based implicit tree, without the pending change.
    var tree: [Int] = [0]
    /// The slot whose change is held back (-1: none), and the change.
    private(set) var pendingIndex = -1
    private(set) var pendingDelta = 0

    init() {}

    /// Rebuilds the tree over `values` in linear time.
    mutating func rebuild(_ values: [Int]) {
        tree = [0] + values
        propagate()
    }

    /// Rebuilds the tree over `count` slots whose values are `value(slot)`, keeping the nodes that
    /// cover only slots before `start` (those slots must not have changed): O(count - start).
    mutating func rebuild(from start: Int, count n: Int, value: (Int) -> Int) {
        let keep: Int
        if start <= 0 || start > n || tree.count < start + 1 {
            keep = 0
            pendingIndex = -1
            pendingDelta = 0
        } else {
            // Held-back change first, so the kept nodes are exact.
            flush()
            keep = start
        }
        // One resize, then plain stores: no capacity check per slot.
        if tree.count > keep + 1 { tree.removeSubrange((keep + 1)...) }
        tree.append(contentsOf: repeatElement(0, count: n - keep))
        tree.withUnsafeMutableBufferPointer { t in
            for slot in keep..<n { t[slot + 1] = value(slot) }
            // Kept nodes whose parents are rebuilt: the chain that sums slots 0..<keep.
            var c = keep
            while c > 0 {
                let parent = c + (c & -c)
                if parent <= n { t[parent] += t[c] }
                c -= c & -c
            }
            var i = keep + 1
            while i <= n {
                let parent = i + (i & -i)
                if parent <= n { t[parent] += t[i] }
                i += 1
            }
        }
    }

    /// Turns `tree[1...]`, holding plain per-slot values, into a Fenwick tree in linear time
    /// (any held-back change is dropped: the values are the truth).
    mutating func propagate() {
        pendingIndex = -1
        pendingDelta = 0
        let n = tree.count - 1
        if n <= 0 { return }
        tree.withUnsafeMutableBufferPointer { t in
            for i in 1...n {
                let parent = i + (i & -i)
                if parent <= n { t[parent] += t[i] }
            }
        }
    }

    /// Adds `delta` to slot `index` (0-based).
    @inline(__always)
    mutating func add(_ delta: Int, at index: Int) {
        if index == pendingIndex {
            pendingDelta &+= delta
            return
        }
        flush()
        pendingIndex = index
        pendingDelta = delta
    }

    /// Applies the held-back change to the tree.
    mutating func flush() {
        guard pendingIndex >= 0 else { return }
        let delta = pendingDelta
        var i = pendingIndex + 1
        pendingIndex = -1
        pendingDelta = 0
        if delta == 0 { return }
        tree.withUnsafeMutableBufferPointer { t in
            let n = t.count
            while i < n {
                t[i] &+= delta
                i += i & -i
            }
        }
    }

    /// Sum of slots `0..<end`, without the held-back change.
    private func storedPrefixSum(_ end: Int) -> Int {
        tree.withUnsafeBufferPointer { t in
            var i = end
            var sum = 0
            while i > 0 {
                sum &+= t[i]
                i -= i & -i
            }
            return sum
        }
    }

    /// Sum of slots `0..<end`.
    func prefixSum(_ end: Int) -> Int {
        let sum = storedPrefixSum(end)
        return pendingIndex >= 0 && pendingIndex < end ? sum &+ pendingDelta : sum
    }

    /// `find` on the stored tree alone.
    private func storedFind(_ k: Int) -> (index: Int, before: Int) {
        tree.withUnsafeBufferPointer { t in
            var pos = 0
            var remaining = k
            var step = 1
            while step * 2 < t.count { step *= 2 }
            while step > 0 {
                let next = pos + step
                if next < t.count, t[next] <= remaining {
                    pos = next
                    remaining -= t[next]
                }
                step >>= 1
            }
            return (pos, k - remaining)
        }
    }

    /// The slot that holds unit `k` (0-based), and how many units lie before that slot.
    /// Requires `k` < total.
    func find(_ k: Int) -> (index: Int, before: Int) {
        let q = pendingIndex
        if q < 0 || pendingDelta == 0 { return storedFind(k) }
        // Slots before q are exact; q holds its stored value plus the delta; slots after q
        // are shifted by the delta.
        let before = storedPrefixSum(q)
        if k < before { return storedFind(k) }
        let value = storedPrefixSum(q + 1) - before + pendingDelta
        if k < before + value { return (q, before) }
        let found = storedFind(k - pendingDelta)
        return (found.index, found.before + pendingDelta)
    }

    /// `a.add(da, at: index)` and `b.add(db, at: index)` for two trees over the same slots (the
    /// scalar and UTF-16 counts of the leaves): when both hold back a change to the same other
    /// slot, as they do when always changed together, that change is added in one walk of both.
    @inline(__always)
    static func add(_ da: Int, to a: inout FenwickTree, _ db: Int, to b: inout FenwickTree, at index: Int) {
        if index == a.pendingIndex && index == b.pendingIndex {
            a.pendingDelta &+= da
            b.pendingDelta &+= db
            return
        }
        if a.pendingIndex == b.pendingIndex && a.pendingIndex >= 0 && a.tree.count == b.tree.count {
            var i = a.pendingIndex + 1
            let (deltaA, deltaB) = (a.pendingDelta, b.pendingDelta)
            a.tree.withUnsafeMutableBufferPointer { ta in
                b.tree.withUnsafeMutableBufferPointer { tb in
                    let n = ta.count
                    while i < n {
                        ta[i] &+= deltaA
                        tb[i] &+= deltaB
                        i += i & -i
                    }
                }
            }
        } else {
            a.flush()
            b.flush()
        }
        a.pendingIndex = index
        a.pendingDelta = da
        b.pendingIndex = index
        b.pendingDelta = db
    }

    /// `(a.prefixSum(end), b.prefixSum(end))` for two trees over the same slots, in one walk.
    @inline(__always)
    static func prefixSums(_ a: FenwickTree, _ b: FenwickTree, _ end: Int) -> (Int, Int) {
        guard a.tree.count == b.tree.count else { return (a.prefixSum(end), b.prefixSum(end)) }
        var (sumA, sumB) = a.tree.withUnsafeBufferPointer { ta in
            b.tree.withUnsafeBufferPointer { tb in
                var i = end
                var sa = 0
                var sb = 0
                while i > 0 {
                    sa &+= ta[i]
                    sb &+= tb[i]
                    i -= i & -i
                }
                return (sa, sb)
            }
        }
        if a.pendingIndex >= 0 && a.pendingIndex < end { sumA &+= a.pendingDelta }
        if b.pendingIndex >= 0 && b.pendingIndex < end { sumB &+= b.pendingDelta }
        return (sumA, sumB)
    }
}
