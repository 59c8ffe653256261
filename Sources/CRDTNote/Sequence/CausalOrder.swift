/// Orders runs so that each comes after the elements its origins name: the order in
/// which a document can integrate them. Used when applying changes and when checking a
/// decoded snapshot, so that a state with cyclic or dangling origins is refused up front
/// instead of failing to merge later.
enum CausalOrder {
    /// The item description `order` works with: replica, first id, length and origins.
    typealias Item = (replica: UInt32, seq: UInt32, length: UInt32, left: ItemRef, right: ItemRef)

    /// - Parameters:
    ///   - queues: per replica, item indexes in increasing id order (ids must be contiguous).
    ///   - known: per replica, ids already present (`0..<known[r]`); origins below it are satisfied.
    ///   - item: an item's replica, first id, length and origins. An origin that is the
    ///     item's own predecessor (same replica, first id - 1) is satisfied by queue order.
    /// - Returns: item indexes in an order where every origin precedes its dependants.
    static func order(queues: [[Int]], known: [UInt32], item: (Int) -> Item) throws(ChangeSetError) -> [Int] {
        let flat = Array(queues.joined())
        var bounds = [0]
        bounds.reserveCapacity(queues.count + 1)
        for q in queues { bounds.append(bounds[bounds.count - 1] + q.count) }
        return try order(queueBounds: bounds, known: known, item: { item(flat[$0]) }, index: { flat[$0] })
            .map { flat[$0] }
    }

    /// `order(queues:known:item:)` over queues laid end to end: queue `r` is the positions
    /// `bounds[r]..<bounds[r + 1]`, `item` and `index` (the number error messages give) take a
    /// position, and so does the result. Allocates a few flat arrays, not one per queue.
    static func order(queueBounds bounds: [Int], known: [UInt32], item: (Int) -> Item, index: (Int) -> Int)
        throws(ChangeSetError) -> [Int] {
        let queueCount = bounds.count - 1
        let total = bounds[queueCount]
        if inQueueOrder(queueBounds: bounds, known: known, item: item) { return Array(0..<total) }
        var head = bounds
        var integrated = known
        var onStack = [Bool](repeating: false, count: total)
        var result: [Int] = []
        result.reserveCapacity(total)
        var stack: [(queue: Int, position: Int)] = []
        for r in 0..<queueCount {
            while head[r] < bounds[r + 1] {
                stack.append((r, head[r]))
                onStack[head[r]] = true
                while let (q, position) = stack.last {
                    let it = item(position)
                    // The first origin not integrated yet (its replica), if any.
                    func blocking(_ origin: ItemRef) throws(ChangeSetError) -> Int? {
                        if origin.isNone { return nil }
                        let o = Int(origin.replica)
                        guard o < integrated.count else {
                            throw ChangeSetError(.inconsistent, "item \(index(position)) has an origin naming replica index \(o)")
                        }
                        if origin.replica == it.replica && origin.seq == it.seq &- 1 { return nil }
                        return origin.seq >= integrated[o] ? o : nil
                    }
                    let blocker: Int?
                    if let b = try blocking(it.left) { blocker = b } else { blocker = try blocking(it.right) }
                    if let b = blocker {
                        guard head[b] < bounds[b + 1] else {
                            throw ChangeSetError(.missingDependency, "item \(index(position)) depends on ids of replica index \(b) that are missing")
                        }
                        if onStack[head[b]] {
                            throw ChangeSetError(.inconsistent, "item \(index(position)) has cyclic origins")
                        }
                        onStack[head[b]] = true
                        stack.append((b, head[b]))
                        continue
                    }
                    stack.removeLast()
                    result.append(position)
                    integrated[q] = it.seq &+ it.length
                    head[q] += 1
                }
            }
        }
        return result
    }

    /// Whether the queues laid end to end are already a causal order: every origin is known, an
    /// item's own predecessor, or an id of an item earlier in the row. Then the walk of
    /// `order(queueBounds:known:item:index:)` takes no detour and returns every position in
    /// order, so that is the answer without its stacks (the common case: the items of one
    /// writer, or writers that did not build on each other's new text).
    private static func inQueueOrder(queueBounds bounds: [Int], known: [UInt32], item: (Int) -> Item) -> Bool {
        var integrated = known
        // The same test as the walk's `blocking` (an origin naming no replica is its error to report).
        func satisfied(_ origin: ItemRef, _ it: Item) -> Bool {
            if origin.isNone { return true }
            let o = Int(origin.replica)
            guard o < integrated.count else { return false }
            if origin.replica == it.replica && origin.seq == it.seq &- 1 { return true }
            return origin.seq < integrated[o]
        }
        for q in 0..<(bounds.count - 1) {
            for position in bounds[q]..<bounds[q + 1] {
                let it = item(position)
                guard satisfied(it.left, it) && satisfied(it.right, it) else { return false }
                integrated[q] = it.seq &+ it.length
            }
        }
        return true
    }
}
