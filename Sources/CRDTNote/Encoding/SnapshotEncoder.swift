/// Writes a document's full state as a snapshot body (Docs/FORMAT.md, "Snapshot body").
/// Deleted text is not stored; ids, origins and tombstones are, column by column.
struct SnapshotEncoder {
    /// The body in `format`: the replica table and text, then the run table of that version.
    static func encode(_ seq: TextSequence, format: SnapshotFormat) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: seq.scalarCount + seq.runCount * 4 + 64)
        ClockTableCoding.write(seq.replicas, nextSeq: seq.nextSeq, latest: seq.latestStamp, logs: seq.clockLog.map(\.entries), into: &out)
        out.writeLengthPrefixed(seq.utf8Bytes())
        var runs: [Run] = []
        runs.reserveCapacity(seq.runCount)
        for slot in seq.order { runs.append(contentsOf: seq.leaves[Int(slot)]) }
        if format == .version2 {
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

/// The replica table shared by snapshots and change sets: ids, id counts, latest
/// stamps and clock logs.
enum ClockTableCoding {
    static func write(_ replicas: [ReplicaID], nextSeq: [UInt32]?, latest: [HLCTimestamp], logs: [[ClockLogEntry]], into out: inout ByteWriter) {
        out.writeVarUInt(UInt64(replicas.count))
        for (r, id) in replicas.enumerated() {
            out.writeUInt64LE(id.rawValue)
            if let nextSeq { out.writeVarUInt(UInt64(nextSeq[r])) }
            out.writeVarUInt(r < latest.count ? latest[r].rawValue : 0)
            let log = r < logs.count ? logs[r] : []
            out.writeVarUInt(UInt64(log.count))
            var seq: UInt32 = 0
            var stamp: UInt64 = 0
            for entry in log {
                out.writeVarUInt(UInt64(entry.seq - seq))
                out.writeVarInt(Int64(bitPattern: entry.stamp.rawValue &- stamp))
                seq = entry.seq
                stamp = entry.stamp.rawValue
            }
        }
    }

    struct Table {
        var replicas: [ReplicaID] = []
        var nextSeq: [UInt32] = []
        var latest: [HLCTimestamp] = []
        var logs: [[ClockLogEntry]] = []
    }

    static func read(_ reader: inout ByteReader, withCounts: Bool, limits: NoteLimits) throws(BinaryDecodingError) -> Table {
        var table = Table()
        let countOffset = reader.offset
        let count = try reader.readCount("replica count", minimumBytesEach: withCounts ? 11 : 10)
        guard count <= limits.maximumReplicas else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset, "\(count) replicas exceed the limit of \(limits.maximumReplicas)")
        }
        var seen = Set<ReplicaID>()
        var total = 0
        for _ in 0..<count {
            let idOffset = reader.offset
            let id = ReplicaID(rawValue: try reader.readUInt64LE())
            guard seen.insert(id).inserted else {
                throw BinaryDecodingError(.invalidValue, at: idOffset, "replica \(id) is listed twice")
            }
            table.replicas.append(id)
            if withCounts {
                let n = try reader.readVarUInt(max: UInt64(UInt32.max - 1), "id count of replica \(id)")
                total += n
                guard total <= limits.maximumElements else {
                    throw BinaryDecodingError(.lengthTooLarge, at: idOffset, "more than \(limits.maximumElements) elements declared")
                }
                table.nextSeq.append(UInt32(n))
            }
            table.latest.append(HLCTimestamp(rawValue: try reader.readVarUInt()))
            let entries = try reader.readCount("clock log of replica \(id)", minimumBytesEach: 2)
            var log: [ClockLogEntry] = []
            log.reserveCapacity(entries)
            var seq: UInt64 = 0
            var stamp: UInt64 = 0
            for e in 0..<entries {
                let entryOffset = reader.offset
                let delta = try reader.readVarUInt()
                let (next, overflow) = seq.addingReportingOverflow(delta)
                seq = next
                guard !overflow, (e == 0 || delta > 0), seq < UInt64(UInt32.max) else {
                    throw BinaryDecodingError(.invalidValue, at: entryOffset, "clock log entries of replica \(id) are not increasing")
                }
                stamp = stamp &+ UInt64(bitPattern: try reader.readVarInt())
                log.append(ClockLogEntry(seq: UInt32(seq), stamp: HLCTimestamp(rawValue: stamp)))
            }
            table.logs.append(log)
        }
        return table
    }
}
