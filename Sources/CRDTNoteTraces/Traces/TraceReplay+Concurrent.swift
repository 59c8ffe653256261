import CRDTNoteSupport
import CRDTNote
extension TraceReplay {
    /// Replays a multi-writer trace with one replica per agent (replica id = agent + 1) and
    /// merges at multi-parent transactions; returns the merge of every branch tip.
    ///
    /// Each transaction starts from its parents' documents merged. A transaction's result is kept
    /// only until its last child takes it, so the common linear case edits one document in place
    /// rather than copying it. Throws when a patch does not fit, naming the transaction and patch.
    public static func replay(_ trace: ConcurrentTrace) throws(TraceError) -> NoteText {
        let txns = trace.transactions
        var childrenLeft = [Int](repeating: 0, count: txns.count)
        for (t, txn) in txns.enumerated() {
            for p in uniqueParents(txn.parents) {
                guard p >= 0, p < t else {
                    throw TraceError(.invalidTrace, "txns[\(t)]: parent \(p) is not an earlier transaction")
                }
                childrenLeft[p] += 1
            }
        }
        var open: [Int: NoteText] = [:]
        for (t, txn) in txns.enumerated() {
            guard txn.agent >= 0, txn.agent < Int(UInt32.max) else {
                throw TraceError(.invalidTrace, "txns[\(t)]: agent \(txn.agent) is out of range")
            }
            let replica = ReplicaID(rawValue: UInt64(txn.agent) + 1)
            var note = try start(of: t, parents: uniqueParents(txn.parents), replica: replica,
                                 open: &open, childrenLeft: &childrenLeft)
            try apply(txn.patches, to: &note, transaction: t)
            open[t] = consume note
        }
        // Whatever is still open has no children left: the branch tips.
        var result: NoteText?
        for t in open.keys.sorted() where childrenLeft[t] == 0 {
            guard let tip = open.removeValue(forKey: t) else { continue }
            if result == nil { result = tip } else { try merge(tip, into: &result, transaction: t) }
        }
        return result ?? NoteText(replica: ReplicaID(rawValue: 1))
    }

    /// Merges `other` into `note`, naming transaction `t` when the two states contradict each other.
    private static func merge(_ other: NoteText, into note: inout NoteText?, transaction t: Int) throws(TraceError) {
        do {
            try note?.merge(other)
        } catch {
            throw TraceError(.replayFailed, "txns[\(t)]: branches cannot be merged: \(error)")
        }
    }

    /// The merged parents of transaction `t`, forked as `replica`. Takes each parent out of
    /// `open` when `t` is its last child, so the document stays uniquely referenced.
    ///
    /// Documents are moved, never copied, where the parent is not needed again: a copy of a
    /// `NoteText` retains every array it holds, and its release later releases them all again.
    private static func start(
        of t: Int, parents: [Int], replica: ReplicaID,
        open: inout [Int: NoteText], childrenLeft: inout [Int]
    ) throws(TraceError) -> NoteText {
        for p in parents { childrenLeft[p] -= 1 }
        var merged: NoteText?
        // Parents this is the last child of go first: merging into a document nobody else holds
        // changes it in place, where merging into one still shared would copy it (merging is
        // commutative, so the order does not change the result).
        for pass in 0..<2 {
            let lastChild = pass == 0
            for p in parents where (childrenLeft[p] == 0) == lastChild {
                var parent = lastChild ? open.removeValue(forKey: p) : open[p]
                if parent == nil {
                    throw TraceError(.replayFailed, "txns[\(t)]: parent \(p) is no longer available")
                }
                if merged == nil {
                    merged = parent.take()
                } else if let other = parent.take() {
                    try merge(other, into: &merged, transaction: t)
                }
            }
        }
        guard let note = merged.take() else { return NoteText(replica: replica) }
        if note.replica == replica { return note }
        return note.forked(as: replica)
    }

    /// Parents in order of first appearance, each once (a quadratic scan: transactions have
    /// one or two parents, rarely more).
    private static func uniqueParents(_ parents: [Int]) -> [Int] {
        if parents.count < 2 { return parents }
        var unique: [Int] = []
        unique.reserveCapacity(parents.count)
        for p in parents where !unique.contains(p) { unique.append(p) }
        return unique
    }
}
