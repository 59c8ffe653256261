/// What re-parenting text would save (issue 31): a measure for `crdtnote-bench growth`, not
/// something any writer does, and no reader accepts a copy of one id with two left origins.
///
/// A deleted line whose newline the next visible line names as its left origin stays after
/// every compaction (the origin closure keeps it, FORMAT.md §4.7): the visible line is a child of
/// that newline. When that tombstone run `D` has no other child and no right origin names it,
/// the line `V` could take `D`'s place instead: `V` names `D`'s left and right origins, and `D`
/// goes. With `skipsRightOrigins`, a run naming a one-element tombstone that nothing else names
/// as its right origin could name that tombstone's right origin instead, and the tombstone go.
/// ``reparented(_:replicaCount:replicaIDs:skipsRightOrigins:)`` does that run by run,
/// repeatedly (a line then climbs past a run of deleted lines), keeping each step only when the
/// result is still in the rule's order (FORMAT.md §4.4), so the elements that stay keep their
/// order.
enum Reparenting {
    /// The runs (document order, every origin held) with every such tombstone run gone, and how
    /// many went.
    static func reparented(_ runs: [Run], replicaCount: Int, replicaIDs: [ReplicaID], skipsRightOrigins: Bool = false)
        -> (runs: [Run], dropped: Int) {
        var current = runs
        var dropped = 0
        // Applies `edit` to the runs when the result is in the rule's order.
        func attempt(_ edit: (inout [Run]) -> Void) -> Bool {
            var candidate = current
            edit(&candidate)
            guard IntegrationOrder.firstViolation(candidate, byID: RunsByID(candidate, replicaCount: replicaCount), replicaIDs: replicaIDs) == nil
            else { return false }
            current = candidate
            dropped += 1
            return true
        }
        var changed = true
        while changed {
            changed = false
            let named = OriginCounts(current, replicaCount: replicaCount)
            for v in current.indices {
                let run = current[v]
                if !run.left.isNone {
                    let d = named.holder(run.left)
                    let parent = current[d]
                    if parent.isDeleted, run.left.seq == parent.seqEnd &- 1, named.asLeft[d] == 1, named.asRight[d] == 0,
                       attempt({ $0[v].left = parent.left; $0[v].right = parent.right; $0.remove(at: d) }) {
                        changed = true
                        break
                    }
                }
                if skipsRightOrigins, !run.right.isNone {
                    let t = named.holder(run.right)
                    let held = current[t]
                    if held.isDeleted, held.length == 1, named.asLeft[t] == 0, named.asRight[t] == 1,
                       attempt({ $0[v].right = held.right; $0.remove(at: t) }) {
                        changed = true
                        break
                    }
                }
            }
        }
        return (current, dropped)
    }
}
