/// What re-parenting text would save (issue 31): a measure for `crdtnote-bench growth`, not
/// something any writer does, and no reader accepts a copy of one id with two left origins.
///
/// A deleted line whose newline the next visible line names as its left origin stays after
/// every compaction (the origin closure keeps it, FORMAT.md §4.7): the visible line is a child of
/// that newline. When that tombstone run `D` has no other child and no right origin names it,
/// the line `V` could take `D`'s place instead: `V` names `D`'s left and right origins, and `D`
/// goes. ``reparented(_:replicaCount:replicaIDs:)`` does that run by run, repeatedly (a line
/// then climbs past a run of deleted lines), keeping each step only when the result is still in
/// the rule's order (FORMAT.md §4.4), so the elements that stay keep their order.
enum Reparenting {
    /// The runs (document order, every origin held) with every such `D` gone, and how many went.
    static func reparented(_ runs: [Run], replicaCount: Int, replicaIDs: [ReplicaID], skipsRightOrigins: Bool = false) -> (runs: [Run], dropped: Int) {
        var current = runs
        var dropped = 0
        var changed = true
        while changed {
            changed = false
            let byID = RunsByID(current, replicaCount: replicaCount)
            func holder(_ ref: ItemRef) -> Int { byID.index(byID.last(replica: Int(ref.replica), atMost: ref.seq)) }
            var namedAsLeft = [UInt32](repeating: 0, count: current.count)
            var namedAsRight = [UInt32](repeating: 0, count: current.count)
            for run in current {
                if !run.left.isNone { namedAsLeft[holder(run.left)] += 1 }
                if !run.right.isNone { namedAsRight[holder(run.right)] += 1 }
            }
            func accepted(_ candidate: [Run]) -> Bool {
                IntegrationOrder.firstViolation(candidate, byID: RunsByID(candidate, replicaCount: replicaCount), replicaIDs: replicaIDs) == nil
            }
            for v in current.indices {
                // `v` takes the place of the deleted line it is a child of.
                if !current[v].left.isNone {
                    let d = holder(current[v].left)
                    let parent = current[d]
                    if parent.isDeleted, current[v].left.seq == parent.seqEnd &- 1, namedAsLeft[d] == 1, namedAsRight[d] == 0 {
                        var candidate = current
                        candidate[v].left = parent.left
                        candidate[v].right = parent.right
                        candidate.remove(at: d)
                        if accepted(candidate) {
                            current = candidate
                            dropped += 1
                            changed = true
                            break
                        }
                    }
                }
                // `v` names the right origin of the one tombstone it names as its right origin.
                if skipsRightOrigins, !current[v].right.isNone {
                    let t = holder(current[v].right)
                    let held = current[t]
                    if held.isDeleted, held.length == 1, namedAsLeft[t] == 0, namedAsRight[t] == 1 {
                        var candidate = current
                        candidate[v].right = held.right
                        candidate.remove(at: t)
                        if accepted(candidate) {
                            current = candidate
                            dropped += 1
                            changed = true
                            break
                        }
                    }
                }
            }
        }
        return (current, dropped)
    }
}
