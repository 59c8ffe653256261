/// A Fenwick (binary indexed) tree of non-negative counts: prefix sums and
/// "which slot holds the k-th unit" in O(log n). Rebuilt in O(n) when slots are inserted.
struct FenwickTree: Sendable {
    /// 1-based implicit tree.
    var tree: [Int] = [0]

    init() {}

    /// Rebuilds the tree over `values` in linear time.
    mutating func rebuild(_ values: [Int]) {
        tree = [0] + values
        propagate()
    }

    /// Turns `tree[1...]`, holding plain per-slot values, into a Fenwick tree in linear time.
    mutating func propagate() {
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
    mutating func add(_ delta: Int, at index: Int) {
        var i = index + 1
        let n = tree.count
        while i < n {
            tree[i] += delta
            i += i & -i
        }
    }

    /// Sum of slots `0..<end`.
    func prefixSum(_ end: Int) -> Int {
        var i = end
        var sum = 0
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    /// The slot that holds unit `k` (0-based), and how many units lie before that slot.
    /// Requires `k` < total.
    func find(_ k: Int) -> (index: Int, before: Int) {
        var pos = 0
        var remaining = k
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = pos + step
            if next < tree.count, tree[next] <= remaining {
                pos = next
                remaining -= tree[next]
            }
            step >>= 1
        }
        return (pos, k - remaining)
    }
}
