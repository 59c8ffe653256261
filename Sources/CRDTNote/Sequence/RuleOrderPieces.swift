/// The elements of a set of runs as pieces: the runs cut after every element that has a child
/// other than its successor, so a piece's elements form a chain and children hang off piece ends.
/// ``TextSequence/ruleOrder(of:)`` builds the merge rule's order of the runs from them, from the
/// right (Docs/FORMAT.md §4.4, "Rule order").
struct RuleOrderPieces {
    /// In id order: replica `r`'s are `start[r]..<start[r + 1]`.
    var pieces: [Run] = []
    var start: [Int] = []
    /// Per piece, its id as the rule compares ids: the rank of its replica's id, then its seq.
    var idKey: [UInt64] = []
    /// The piece whose last element is each piece's left origin; -1: the document start.
    var parent: [Int32] = []
    /// Children of each node (its index + 1; 0: the document start): `children[childStart[i]..<childStart[i + 1]]`.
    var childStart: [Int32] = []
    var children: [Int32] = []

    init(_ runs: [Run], replicaIDs: [ReplicaID], cut: (Run, UInt32) -> (Run, Run)) {
        let replicaCount = replicaIDs.count
        let byID = RunsByID(runs, replicaCount: replicaCount)
        // Where left origins fall inside runs: cut after them.
        var cuts: [UInt64] = []
        for run in runs where !run.left.isNone {
            let k = byID.last(replica: Int(run.left.replica), atMost: run.left.seq)
            let offset = run.left.seq &- byID.seq(k) &+ 1
            if offset < runs[byID.index(k)].length { cuts.append(UInt64(k) << 32 | UInt64(offset)) }
        }
        cuts.sort()
        pieces.reserveCapacity(runs.count + cuts.count)
        start = [Int](repeating: 0, count: replicaCount + 1)
        var c = 0
        for r in 0..<replicaCount {
            start[r] = pieces.count
            for k in byID.start[r]..<byID.start[r + 1] {
                var rest = runs[byID.index(k)]
                var done: UInt32 = 0
                while c < cuts.count && Int(cuts[c] >> 32) == k {
                    let offset = UInt32(truncatingIfNeeded: cuts[c])
                    c += 1
                    if offset <= done { continue }
                    let (first, second) = cut(rest, offset - done)
                    pieces.append(first)
                    rest = second
                    done = offset
                }
                pieces.append(rest)
            }
        }
        start[replicaCount] = pieces.count
        var rank = [UInt64](repeating: 0, count: replicaCount)
        for (k, r) in replicaIDs.indices.sorted(by: { replicaIDs[$0].rawValue < replicaIDs[$1].rawValue }).enumerated() { rank[r] = UInt64(k) }
        idKey = pieces.map { rank[Int($0.replica)] << 32 | UInt64($0.seq) }
        // Parents and children.
        parent = [Int32](repeating: -1, count: pieces.count)
        var counts = [Int32](repeating: 0, count: pieces.count + 2)
        for p in pieces.indices {
            let left = pieces[p].left
            if !left.isNone { parent[p] = Int32(piece(containing: left)) }
            counts[Int(parent[p]) + 2] += 1
        }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        childStart = Array(counts.prefix(pieces.count + 2))
        children = [Int32](repeating: 0, count: pieces.count)
        var fill = childStart
        for p in pieces.indices {
            let node = Int(parent[p]) + 1
            children[Int(fill[node])] = Int32(p)
            fill[node] += 1
        }
    }

    /// The piece holding element `ref`.
    func piece(containing ref: ItemRef) -> Int {
        var low = start[Int(ref.replica)]
        var high = start[Int(ref.replica) + 1]
        while high - low > 1 {
            let mid = (low + high) / 2
            if pieces[mid].seq <= ref.seq { low = mid } else { high = mid }
        }
        return low
    }

    /// The pieces in the rule's order, built from the end of the document backwards.
    func order() -> [Run] {
        // Per piece, the elements emitted after its last one (it is emitted whole); -1: not yet.
        var emittedAfter = [Int](repeating: -1, count: pieces.count)
        var emitted = 0
        var out: [Int32] = []
        out.reserveCapacity(pieces.count)
        // Children of the nodes being walked, in document order; a frame walks its own from the back.
        var kids: [Int32] = []
        var frames: [(node: Int, start: Int, next: Int)] = []
        var node = -1
        while true {
            let first = kids.count
            orderChildren(of: node, into: &kids, emittedAfter: emittedAfter)
            frames.append((node, first, kids.count))
            // Descend into the last child not walked yet; emit the nodes whose children are done.
            var descended = false
            while let frame = frames.last {
                if frame.next > frame.start {
                    frames[frames.count - 1].next -= 1
                    node = Int(kids[frame.next - 1])
                    descended = true
                    break
                }
                frames.removeLast()
                kids.removeLast(kids.count - frame.start)
                if frame.node >= 0 {
                    emittedAfter[frame.node] = emitted
                    emitted += Int(pieces[frame.node].length)
                    out.append(Int32(frame.node))
                }
            }
            if !descended { break }
        }
        return out.reversed().map { pieces[Int($0)] }
    }

    private struct RootKey: Comparable {
        var distance: Int
        var id: UInt64
        var piece: Int32
        static func < (a: RootKey, b: RootKey) -> Bool { a.distance != b.distance ? a.distance < b.distance : a.id < b.id }
    }

    private struct GroupKey: Comparable {
        var group: Int32
        var id: UInt64
        var piece: Int32
        static func < (a: GroupKey, b: GroupKey) -> Bool { a.group != b.group ? a.group < b.group : a.id < b.id }
    }

    /// Appends the children of `node` (-1: the document start) to `out` in the rule's order:
    /// children whose right origin is a sibling form that sibling's group, right before it, in
    /// increasing id order; the others by decreasing right-origin position (fewer elements
    /// emitted after it), then increasing id.
    private func orderChildren(of node: Int, into out: inout [Int32], emittedAfter: [Int]) {
        let low = Int(childStart[node + 1])
        let high = Int(childStart[node + 2])
        if high - low <= 1 {
            if high > low { out.append(children[low]) }
            return
        }
        var roots: [RootKey] = []
        var grouped: [GroupKey] = []
        for c32 in children[low..<high] {
            let c = Int(c32)
            let right = pieces[c].right
            if right.isNone {
                roots.append(RootKey(distance: -1, id: idKey[c], piece: c32))
                continue
            }
            let p = piece(containing: right)
            if pieces[p].seq == right.seq && p != c && Int(parent[p]) == node {
                grouped.append(GroupKey(group: Int32(p), id: idKey[c], piece: c32))
            } else {
                // Emitted already (it lies after this node's block), unless the state breaks the rule.
                let after = emittedAfter[p]
                let distance = after < 0 ? Int.max : after + Int(pieces[p].length &- 1 &- (right.seq &- pieces[p].seq))
                roots.append(RootKey(distance: distance, id: idKey[c], piece: c32))
            }
        }
        roots.sort()
        grouped.sort()
        let before = out.count
        // Post-order of each root's group tree: a member's own group comes right before it.
        var stack: [(piece: Int32, next: Int, end: Int)] = []
        func enter(_ p: Int32) {
            var from = 0
            var to = grouped.count
            while from < to {
                let mid = (from + to) / 2
                if grouped[mid].group < p { from = mid + 1 } else { to = mid }
            }
            var end = from
            while end < grouped.count && grouped[end].group == p { end += 1 }
            stack.append((p, from, end))
        }
        for root in roots {
            enter(root.piece)
            while let top = stack.last {
                if top.next < top.end {
                    stack[stack.count - 1].next += 1
                    enter(grouped[top.next].piece)
                } else {
                    out.append(top.piece)
                    stack.removeLast()
                }
            }
        }
        if out.count - before < high - low {
            // Groups that reach no root form a cycle of right origins, which causal order rules
            // out; placed last, in id order, to stay deterministic all the same.
            let placed = Set(out[before...])
            out.append(contentsOf: children[low..<high].filter { !placed.contains($0) }.sorted { idKey[Int($0)] < idKey[Int($1)] })
        }
    }
}
