/// Orders runs so that each comes after the elements its origins name: the order in
/// which a document can integrate them. Used when applying changes and when checking a
/// decoded snapshot, so that a state with cyclic or dangling origins is refused up front
/// instead of failing to merge later.
enum CausalOrder {
    /// - Parameters:
    ///   - queues: per replica, item indexes in increasing id order (ids must be contiguous).
    ///   - known: per replica, ids already present (`0..<known[r]`); origins below it are satisfied.
    ///   - item: an item's replica, first id, length and origins. An origin that is the
    ///     item's own predecessor (same replica, first id - 1) is satisfied by queue order.
    /// - Returns: item indexes in an order where every origin precedes its dependants.
    static func order(queues: [[Int]], known: [UInt32],
                      item: (Int) -> (replica: UInt32, seq: UInt32, length: UInt32, left: ItemRef, right: ItemRef))
        throws(ChangeSetError) -> [Int] {
        var head = [Int](repeating: 0, count: queues.count)
        var integrated = known
        var onStack = queues.map { [Bool](repeating: false, count: $0.count) }
        var result: [Int] = []
        result.reserveCapacity(queues.reduce(0) { $0 + $1.count })
        for r in 0..<queues.count {
            while head[r] < queues[r].count {
                var stack = [(r, head[r])]
                onStack[r][head[r]] = true
                while let (qr, qi) = stack.last {
                    let index = queues[qr][qi]
                    let it = item(index)
                    var blocker: Int? = nil
                    for origin in [it.left, it.right] where !origin.isNone {
                        let o = Int(origin.replica)
                        guard o < integrated.count else {
                            throw ChangeSetError(.inconsistent, "item \(index) has an origin naming replica index \(o)")
                        }
                        if origin.replica == it.replica && origin.seq == it.seq &- 1 { continue }
                        if origin.seq >= integrated[o] { blocker = o; break }
                    }
                    if let b = blocker {
                        guard head[b] < queues[b].count else {
                            throw ChangeSetError(.missingDependency, "item \(index) depends on ids of replica index \(b) that are missing")
                        }
                        if onStack[b][head[b]] {
                            throw ChangeSetError(.inconsistent, "item \(index) has cyclic origins")
                        }
                        onStack[b][head[b]] = true
                        stack.append((b, head[b]))
                        continue
                    }
                    stack.removeLast()
                    result.append(index)
                    integrated[qr] = it.seq &+ it.length
                    head[qr] += 1
                }
            }
        }
        return result
    }
}
