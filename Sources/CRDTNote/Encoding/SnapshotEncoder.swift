/// Writes a document's full state as a snapshot body (Docs/FORMAT.md, "Snapshot body").
/// Deleted text is not stored; ids, origins and tombstones are, column by column.
struct SnapshotEncoder {
    /// The body in `format`: the replica table and text, then the run table of that version
    /// (format 3 puts the compaction ledger before it and uses format 2's; its runs may leave
    /// compacted ids out; format 6 is format 3 with the clock logs in columns after the table;
    /// format 7 is format 6 whose ledger lists the re-pointed ids).
    static func encode(_ seq: TextSequence, format: SnapshotFormat, ledger: CompactionLedger? = nil) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: seq.scalarCount + seq.runCount * 4 + 64)
        let logs = seq.clockLog.map(\.entries)
        if format.rawValue >= SnapshotFormat.version6.rawValue {
            ClockTableCoding.write(seq.replicas, nextSeq: seq.nextSeq, latest: seq.latestStamp, logs: logs, layout: .columns, into: &out)
            ClockLogColumns.write(logs, into: &out)
        } else {
            ClockTableCoding.write(seq.replicas, nextSeq: seq.nextSeq, latest: seq.latestStamp, logs: logs, into: &out)
        }
        out.writeLengthPrefixed(seq.utf8Bytes())
        if format.rawValue >= 3 {
            CompactionLedgerCoding.write(ledger, replicas: seq.replicas, listingRepointed: format.rawValue >= SnapshotFormat.version7.rawValue, into: &out)
        }
        let runs = seq.runsInOrder()
        if format.rawValue >= 2 {
            RunColumnsV2Encoder.write(runs, replicaCount: seq.replicas.count, into: &out)
        } else {
            writeRunsV1(runs, replicaCount: seq.replicas.count, into: &out)
        }
        return out.bytes
    }

    /// The run table of format version 1: the run count and six plain columns.
    private static func writeRunsV1(_ runs: [Run], replicaCount: Int, into out: inout ByteWriter) {
        out.writeVarUInt(UInt64(runs.count))
        var flags = ByteWriter(reservingCapacity: runs.count)
        var replicaColumn = ByteWriter()
        var seqColumn = ByteWriter(reservingCapacity: runs.count * 2)
        var lengthColumn = ByteWriter(reservingCapacity: runs.count)
        var leftColumn = ByteWriter()
        var rightColumn = ByteWriter()
        var lastSeqEnd = [UInt32](repeating: 0, count: replicaCount)
        var previous: Run? = nil
        var previousRightMode = SnapshotFlags.rightNone
        for (i, run) in runs.enumerated() {
            var flag: UInt8 = run.isDeleted ? SnapshotFlags.deleted : 0
            if run.replica != previous?.replica ?? 0 {
                flag |= SnapshotFlags.explicitReplica
                replicaColumn.writeVarUInt(UInt64(run.replica))
            }
            seqColumn.writeVarInt(Int64(run.seq) - Int64(lastSeqEnd[Int(run.replica)]))
            lastSeqEnd[Int(run.replica)] = run.seqEnd
            lengthColumn.writeVarUInt(UInt64(run.length - 1))
            let previousElement = previous.map { ItemRef(replica: $0.replica, seq: $0.seqEnd - 1) } ?? .none
            let left: UInt8
            if run.left == previousElement { left = SnapshotFlags.leftPreviousElement }
            else if run.left.isNone { left = SnapshotFlags.leftNone }
            else if run.left == ItemRef(replica: run.replica, seq: run.seq &- 1) { left = SnapshotFlags.leftSameReplicaPredecessor }
            else {
                left = SnapshotFlags.leftExplicit
                leftColumn.writeVarUInt(UInt64(run.left.replica))
                leftColumn.writeVarUInt(UInt64(run.left.seq))
            }
            let nextElement = i + 1 < runs.count ? ItemRef(replica: runs[i + 1].replica, seq: runs[i + 1].seq) : ItemRef.none
            let right: UInt8
            if run.right.isNone { right = SnapshotFlags.rightNone }
            else if run.right == nextElement { right = SnapshotFlags.rightNextElement }
            else if let previous, run.right == previous.right, previousRightMode != SnapshotFlags.rightNextElement {
                right = SnapshotFlags.rightSameAsPrevious
            }
            else {
                right = SnapshotFlags.rightExplicit
                rightColumn.writeVarUInt(UInt64(run.right.replica))
                rightColumn.writeVarUInt(UInt64(run.right.seq))
            }
            flag |= left << SnapshotFlags.leftShift | right << SnapshotFlags.rightShift
            flags.writeByte(flag)
            previous = run
            previousRightMode = right
        }
        for column in [flags, replicaColumn, seqColumn, lengthColumn, leftColumn, rightColumn] {
            out.writeLengthPrefixed(column.bytes)
        }
    }
}
