/// What one replica has contributed to a note: how much it typed and when.
///
/// For inspection tools (`crdtnote show`) and logs; merging never needs it.
package struct ReplicaHistory: Hashable, Sendable {
    /// The replica.
    package var replica: ReplicaID
    /// Characters (Unicode scalars) the replica has inserted that this copy holds, deleted ones included.
    package var insertedCount: UInt64
    /// Clock stamp of the replica's first insertion, if it inserted anything.
    package var firstInsertion: HLCTimestamp?
    /// Clock stamp of the replica's latest operation (insertion or deletion), if any.
    package var latestEdit: HLCTimestamp?
}

extension NoteText {
    /// Every replica that has edited this copy, by replica id. Replicas known to the copy but
    /// without any operation (such as this copy's own replica before its first edit) are left out.
    package var replicaHistories: [ReplicaHistory] {
        var out: [ReplicaHistory] = []
        // Read from the clock table: a loaded note answers without building its index.
        let nextSeq = idCounts, latestStamp = latestStamps, clockLog = clockLogs
        for (i, replica) in replicaTable.enumerated() {
            // The tables are parallel; bounds are checked anyway since this is only a report.
            let inserted = i < nextSeq.count ? UInt64(nextSeq[i]) : 0
            let latest = i < latestStamp.count ? latestStamp[i] : .zero
            guard inserted > 0 || latest > .zero else { continue }
            let first = i < clockLog.count ? clockLog[i].first?.stamp : nil
            out.append(ReplicaHistory(
                replica: replica, insertedCount: inserted,
                firstInsertion: first.flatMap { $0 > .zero ? $0 : nil },
                latestEdit: latest > .zero ? latest : nil))
        }
        return out.sorted { $0.replica < $1.replica }
    }
}
