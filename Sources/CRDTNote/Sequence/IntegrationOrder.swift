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
    /// ordered) are in the rule's order. `byID`: the same runs by id. `replicaIDs` decide ties
    /// between children with the same right origin.
    static func firstViolation(_ runs: [Run], byID: RunsByID, replicaIDs: [ReplicaID]) -> Violation? {
        runs.withUnsafeBufferPointer { runs in
            var check = Check(runs: runs, byID: byID, replicaIDs: replicaIDs)
            defer {
                check.path.deallocate()
                check.opens.deallocate()
            }
            guard !check.run() else { return nil }
            let message: String
            switch check.failure {
            case .leftOrigin: message = "its left origin does not come before it as the rule requires"
            case .sameOrigins: message = "it comes after run \(check.other), which has the same origins and a larger id"
            case .rightOriginInBlock: message = "its right origin lies before the end of its left origin's block"
            case .siblingOrder: message = "it comes after run \(check.other), which the rule places after it"
            case .rightOriginInRun: message = "its right origin lies inside or before the text typed after it"
            }
            return Violation(run: check.failedRun, message: message)
        }
    }

    /// Runs `first...last` on the path from the document start: each run's first element is
    /// the one child so far of the previous run's last element, and every element's one child
    /// so far is its successor, except the top element (`top` of run `last`), whose children
    /// so far are `opens[openBase...]`. `first == -1`: the document start.
    private struct Chain {
        var first: Int
        var last: Int
        var top: UInt32
        var openBase: Int
    }

    /// A child seen whose group is still open: its id, its right origin, the run holding it.
    private struct Open {
        var child: ItemRef
        var right: ItemRef
        var run: Int
    }

    private enum Failure {
        case leftOrigin, sameOrigins, rightOriginInBlock, siblingOrder, rightOriginInRun
    }

    private struct Check {
        let runs: UnsafeBufferPointer<Run>
        let byID: RunsByID
        let replicaIDs: [ReplicaID]
        /// The stacks, grown by doubling: each run adds a chain or extends one, and opens at most
        /// two entries (one when it arrives, one when it cuts a chain), so they hold at most
        /// `runs + 1` and `2 × runs` entries; most notes need a few.
        var path: UnsafeMutableBufferPointer<Chain>
        var pathCount = 1
        var opens: UnsafeMutableBufferPointer<Open>
        var openCount = 0
        /// Set when a check fails: the run named, why, and the other run involved (if any).
        var failedRun = -1
        var failure = Failure.leftOrigin
        var other = -1

        init(runs: UnsafeBufferPointer<Run>, byID: RunsByID, replicaIDs: [ReplicaID]) {
            self.runs = runs
            self.byID = byID
            self.replicaIDs = replicaIDs
            path = .allocate(capacity: Swift.min(runs.count + 1, 256))
            opens = .allocate(capacity: Swift.min(2 * runs.count + 1, 256))
        }

        /// Room for one more entry in each stack.
        private mutating func reserve() {
            if pathCount == path.count { path = Self.grown(path, keeping: pathCount) }
            if openCount == opens.count { opens = Self.grown(opens, keeping: openCount) }
        }

        private static func grown<T>(_ buffer: UnsafeMutableBufferPointer<T>, keeping count: Int) -> UnsafeMutableBufferPointer<T> {
            let larger = UnsafeMutableBufferPointer<T>.allocate(capacity: 2 * buffer.count)
            _ = larger.initialize(fromContentsOf: buffer[..<count])
            buffer.deallocate()
            return larger
        }

        /// Records a failure; returns false for the caller to pass on.
        private mutating func fail(_ failure: Failure, run: Int, other: Int = -1) -> Bool {
            self.failure = failure
            failedRun = run
            self.other = other
            return false
        }

        /// A position in document order: run index in the high bits, offset in the run in the low.
        /// The document end is `runs.count << 32`; a right origin of none is after it.
        @inline(__always)
        private func position(of ref: ItemRef, arriving: Int) -> UInt64 {
            if ref.isNone { return .max }
            if arriving < runs.count, runs[arriving].replica == ref.replica, runs[arriving].seq == ref.seq {
                return UInt64(arriving) << 32
            }
            let k = byID.last(replica: Int(ref.replica), atMost: ref.seq)
            return UInt64(byID.index(k)) << 32 | UInt64(ref.seq &- byID.seq(k))
        }

        private func order(_ a: ItemRef, before b: ItemRef) -> Bool {
            let x = replicaIDs[Int(a.replica)].rawValue
            let y = replicaIDs[Int(b.replica)].rawValue
            return x != y ? x < y : a.seq < b.seq
        }

        /// True when every run is where the rule places it.
        mutating func run() -> Bool {
            path[0] = Chain(first: -1, last: -1, top: 0, openBase: 0)
            for i in runs.indices {
                let run = runs[i]
                let left = run.left
                var chain = path[pathCount &- 1]
                if chain.last == i &- 1 && chain.openBase == openCount && chain.first >= 0 && !left.isNone
                    && left.seq == chain.top && left.replica == runs[i &- 1].replica && chain.top == runs[i &- 1].seqEnd &- 1 {
                    // The common case: the first child of the previous run's last element.
                    path[pathCount &- 1].last = i
                    path[pathCount &- 1].top = run.seqEnd &- 1
                    continue
                }
                // Leave the path up to the chain holding the left origin, then cut that chain after it.
                if left.isNone {
                    while pathCount > 1 { guard close(from: path[pathCount &- 1].first, arriving: i) else { return false } }
                } else {
                    var found = -1
                    while found < 0 {
                        chain = path[pathCount &- 1]
                        if chain.first < 0 { return fail(.leftOrigin, run: i) }
                        var k = chain.last
                        while k >= chain.first {
                            let holder = runs[k]
                            let end = k == chain.last ? chain.top : holder.seqEnd &- 1
                            if holder.replica == left.replica && left.seq &- holder.seq <= end &- holder.seq { found = k; break }
                            k &-= 1
                        }
                        if found < 0 { guard close(from: chain.first, arriving: i) else { return false } }
                    }
                    if found != chain.last || left.seq != chain.top {
                        guard cut(at: found, seq: left.seq, arriving: i) else { return false }
                    }
                }
                // The run's first element is the next child of the path's top element: it closes
                // the group of children waiting for it (they must be in increasing id order).
                let x = ItemRef(replica: run.replica, seq: run.seq)
                let base = path[pathCount &- 1].openBase
                if openCount > base && opens[openCount &- 1].right == x {
                    openCount &-= 1
                    var later = opens[openCount]
                    while openCount > base && opens[openCount &- 1].right == x {
                        openCount &-= 1
                        let earlier = opens[openCount]
                        if !order(earlier.child, before: later.child) { return fail(.sameOrigins, run: later.run, other: earlier.run) }
                        later = earlier
                    }
                }
                reserve()
                opens[openCount] = Open(child: x, right: run.right, run: i)
                openCount &+= 1
                path[pathCount] = Chain(first: i, last: i, top: run.seqEnd &- 1, openBase: openCount)
                pathCount &+= 1
            }
            while pathCount > 1 { guard close(from: path[pathCount &- 1].first, arriving: runs.count) else { return false } }
            return closeOpens(from: 0, arriving: runs.count)
        }

        /// Leaves the runs `from...` of the path's last chain (all of it when `from` is its
        /// first), whose elements' blocks end before run `arriving`.
        private mutating func close(from: Int, arriving: Int) -> Bool {
            let chain = path[pathCount &- 1]
            guard closeOpens(from: chain.openBase, arriving: arriving) else { return false }
            // Each run's elements have the run's right origin's children (their successors, and
            // the next run's first element), closed with them.
            let end = UInt64(arriving) << 32
            var k = chain.last
            while k >= from {
                if position(of: runs[k].right, arriving: arriving) < end { return fail(.rightOriginInRun, run: k) }
                k &-= 1
            }
            if from == chain.first { pathCount &-= 1 }
            return true
        }

        /// Leaves the elements after `seq` (in run `k`) on the path's last chain: `seq` keeps
        /// its successor (or the next run's first element) as a child still open.
        private mutating func cut(at k: Int, seq: UInt32, arriving: Int) -> Bool {
            let chain = path[pathCount &- 1]
            if chain.last > k {
                guard close(from: k &+ 1, arriving: arriving) else { return false }
            } else {
                guard closeOpens(from: chain.openBase, arriving: arriving) else { return false }
            }
            let holder = runs[k]
            let next = seq == holder.seqEnd &- 1 ? k &+ 1 : k
            reserve()
            opens[openCount] = Open(child: next == k ? ItemRef(replica: holder.replica, seq: seq &+ 1)
                                                     : ItemRef(replica: runs[next].replica, seq: runs[next].seq),
                                    right: runs[next].right, run: next)
            openCount &+= 1
            path[pathCount &- 1] = Chain(first: chain.first, last: k, top: seq, openBase: openCount &- 1)
            return true
        }

        /// The children `opens[base...]` of an element whose block ends before run `arriving`:
        /// each right origin at or after that run, in decreasing position, then increasing id.
        private mutating func closeOpens(from base: Int, arriving: Int) -> Bool {
            guard base < openCount else { return true }
            let count = openCount
            openCount = base
            let end = UInt64(arriving) << 32
            var previous = opens[base]
            var previousPosition = position(of: previous.right, arriving: arriving)
            if previousPosition < end { return fail(.rightOriginInBlock, run: previous.run) }
            var k = base &+ 1
            while k < count {
                let open = opens[k]
                let p = open.right == previous.right ? previousPosition : position(of: open.right, arriving: arriving)
                if p < end { return fail(.rightOriginInBlock, run: open.run) }
                if p > previousPosition || (p == previousPosition && !order(previous.child, before: open.child)) {
                    return fail(.siblingOrder, run: open.run, other: previous.run)
                }
                previous = open
                previousPosition = p
                k &+= 1
            }
            return true
        }
    }
}
