/// Whether runs listed in document order are in the order the merge rule (Docs/FORMAT.md §6)
/// gives their elements, checked in one pass (FORMAT.md §4.4, "Rule order").
///
/// The rule's order, stated without the scan: every element's **parent** is its left origin
/// (none: the document start). The order is the tree's pre-order, so each element comes after
/// its parent and an element's descendants (its **block**) follow it without a gap. The children
/// of one parent are ordered by their right origins: a child whose right origin is a later
/// child of the same parent sits in that child's **group**, right before it (groups by
/// increasing id, each member preceded by its own group); the other children, whose right
/// origins lie after the parent's block, come in order of decreasing right-origin position,
/// then increasing id, each preceded by its group. Ids compare as (replica id as an unsigned
/// integer, seq). Integrating one run with the scan of §6 into a state in this order places it
/// where this order does, so any state in this order is one the rule produces, whatever order its
/// runs arrive in; a stored order that differs (a payload listing "b" before "a" where the rule
/// puts "a" first) would make merges depend on their order, and is refused.
///
/// The pass keeps the path from the document start to the current element (runs, each with the
/// ids on the path) and, per element on the path, its children seen whose group has not yet been
/// closed by a later child. A run's first element must have its left origin on the path; what
/// the path leaves behind is checked as it is left: the children still open there must have right
/// origins at or after the element that ends the block, in decreasing position (then increasing
/// id). Each run is pushed and popped once, and a position is looked up (a binary search over the
/// runs of one replica) only where a right origin is neither the document end nor the element
/// that ends the block: O(runs), plus O(log runs) per such origin. Both readers of the format
/// (this one and Tests/Fixtures/golden/second_reader.py) make this check.
enum IntegrationOrder {
    /// Why a stored order is not the rule's: the run (index in document order) where the check
    /// failed, and what was wrong.
    struct Violation: Error, Equatable {
        var run: Int
        var message: String
    }

    /// The first run (in the order of the check) out of the rule's order, or nil when `runs`
    /// (document order; every id of every replica exactly once; origins existing and causally
    /// ordered) are in the rule's order. `byID[r]`: the indexes of replica `r`'s runs in
    /// increasing id order. `replicaIDs` decide ties between children with the same right origin.
    static func firstViolation(_ runs: [Run], byID: [[Int]], replicaIDs: [ReplicaID]) -> Violation? {
        var check = Check(runs: runs, byID: byID, replicaIDs: replicaIDs)
        return check.run()
    }

    /// A run's ids on the path from the document start: `first...last` of `replica`, held by run
    /// `run`; each element's one child so far is the next (its successor in the run), except the
    /// last, whose children so far are `opens[openBase...]`.
    private struct Segment {
        var replica: UInt32
        var first: UInt32
        var last: UInt32
        var run: Int
        var right: ItemRef
        var openBase: Int
    }

    /// A child seen whose group is still open: its id, its right origin, the run holding it.
    private struct Open {
        var child: ItemRef
        var right: ItemRef
        var run: Int
    }

    private struct Check {
        let runs: [Run]
        let byID: [[Int]]
        let replicaIDs: [ReplicaID]
        var path: [Segment] = []
        var opens: [Open] = []

        init(runs: [Run], byID: [[Int]], replicaIDs: [ReplicaID]) {
            self.runs = runs
            self.byID = byID
            self.replicaIDs = replicaIDs
            // The document start: the parent of every run whose left origin is none.
            path.reserveCapacity(Swift.min(runs.count + 1, 1 << 16))
            opens.reserveCapacity(Swift.min(runs.count, 1 << 16))
            path.append(Segment(replica: .max, first: 0, last: 0, run: -1, right: .none, openBase: 0))
        }

        /// A position in document order: run index in the high bits, offset in the run in the low.
        /// The document end is `runs.count << 32`; a right origin of none is after it.
        private func position(of ref: ItemRef, arriving: Int) -> UInt64 {
            if ref.isNone { return .max }
            if arriving < runs.count, runs[arriving].replica == ref.replica, runs[arriving].seq == ref.seq {
                return UInt64(arriving) << 32
            }
            let own = byID[Int(ref.replica)]
            // The last run of the replica starting at or before `ref.seq` (runs tile the ids).
            var low = 0
            var high = own.count
            while high - low > 1 {
                let mid = (low + high) / 2
                if runs[own[mid]].seq <= ref.seq { low = mid } else { high = mid }
            }
            let i = own[low]
            return UInt64(i) << 32 | UInt64(ref.seq &- runs[i].seq)
        }

        private func order(_ a: ItemRef, before b: ItemRef) -> Bool {
            let x = replicaIDs[Int(a.replica)].rawValue
            let y = replicaIDs[Int(b.replica)].rawValue
            return x != y ? x < y : a.seq < b.seq
        }

        mutating func run() -> Violation? {
            for i in runs.indices {
                let run = runs[i]
                let left = run.left
                if left.isNone {
                    while path.count > 1 { if let v = closeTop(arriving: i) { return v } }
                } else {
                    while true {
                        let top = path[path.count - 1]
                        if top.replica == left.replica && left.seq &- top.first <= top.last &- top.first { break }
                        if path.count == 1 {
                            return Violation(run: i, message: "its left origin does not come before it as the rule requires")
                        }
                        if let v = closeTop(arriving: i) { return v }
                    }
                    if left.seq != path[path.count - 1].last {
                        if let v = truncateTop(at: left.seq, arriving: i) { return v }
                    }
                }
                // The run's first element is the next child of the path's last element: it closes
                // the group of children waiting for it (they must be in increasing id order).
                let x = ItemRef(replica: run.replica, seq: run.seq)
                let base = path[path.count - 1].openBase
                if opens.count > base && opens[opens.count - 1].right == x {
                    var later = opens.removeLast()
                    while opens.count > base && opens[opens.count - 1].right == x {
                        let earlier = opens.removeLast()
                        if !order(earlier.child, before: later.child) {
                            return Violation(run: later.run, message: "it comes after run \(earlier.run), which has the same origins and a larger id")
                        }
                        later = earlier
                    }
                }
                opens.append(Open(child: x, right: run.right, run: i))
                path.append(Segment(replica: run.replica, first: run.seq, last: run.seqEnd &- 1, run: i, right: run.right,
                                    openBase: opens.count))
            }
            while path.count > 1 { if let v = closeTop(arriving: runs.count) { return v } }
            return closeOpens(from: 0, arriving: runs.count)
        }

        /// Leaves the path's last run, whose elements' blocks end before run `arriving`.
        private mutating func closeTop(arriving: Int) -> Violation? {
            let top = path.removeLast()
            if let v = closeOpens(from: top.openBase, arriving: arriving) { return v }
            if top.last != top.first { return checkAfterBlock(top.right, of: top.run, arriving: arriving) }
            return nil
        }

        /// Leaves the elements after `seq` on the path's last run: `seq` keeps its successor as a
        /// child still open.
        private mutating func truncateTop(at seq: UInt32, arriving: Int) -> Violation? {
            let top = path[path.count - 1]
            if let v = closeOpens(from: top.openBase, arriving: arriving) { return v }
            if top.last &- seq > 1, let v = checkAfterBlock(top.right, of: top.run, arriving: arriving) { return v }
            opens.append(Open(child: ItemRef(replica: top.replica, seq: seq &+ 1), right: top.right, run: top.run))
            path[path.count - 1].last = seq
            path[path.count - 1].openBase = opens.count - 1
            return nil
        }

        /// The children `opens[base...]` of an element whose block ends before run `arriving`:
        /// each right origin at or after that run, in decreasing position, then increasing id.
        private mutating func closeOpens(from base: Int, arriving: Int) -> Violation? {
            defer { opens.removeLast(opens.count - base) }
            guard base < opens.count else { return nil }
            let end = UInt64(arriving) << 32
            var previous = opens[base]
            var previousPosition = position(of: previous.right, arriving: arriving)
            if previousPosition < end {
                return Violation(run: previous.run, message: "its right origin lies before the end of its left origin's block")
            }
            for k in (base + 1)..<opens.count {
                let open = opens[k]
                let p = open.right == previous.right ? previousPosition : position(of: open.right, arriving: arriving)
                if p < end {
                    return Violation(run: open.run, message: "its right origin lies before the end of its left origin's block")
                }
                if p > previousPosition || (p == previousPosition && !order(previous.child, before: open.child)) {
                    return Violation(run: open.run, message: "it comes after run \(previous.run), which the rule places after it")
                }
                previous = open
                previousPosition = p
            }
            return nil
        }

        /// A run's successor children (right origin `right`) end their blocks before `arriving`.
        private func checkAfterBlock(_ right: ItemRef, of run: Int, arriving: Int) -> Violation? {
            if position(of: right, arriving: arriving) < UInt64(arriving) << 32 {
                return Violation(run: run, message: "its right origin lies inside or before the text typed after it")
            }
            return nil
        }
    }
}
