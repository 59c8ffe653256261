/// Writes the run table of a version 2 snapshot body (Docs/FORMAT.md, "Runs, version 2"): the
/// run count, then seven byte columns (``RunColumnsV2/Column``), each raw or rANS-coded.
/// Origins and ids are predicted from the runs already written where possible, so most runs
/// cost a flag byte, a length and, for runs that do not continue an earlier one, an id delta.
enum RunColumnsV2Encoder {
    /// Appends the run table of `runs` (document order) over `replicaCount` replicas.
    static func write(_ runs: [Run], replicaCount: Int, into out: inout ByteWriter) {
        out.writeVarUInt(UInt64(runs.count))
        for column in codedColumns(runs, replicaCount: replicaCount) { out.writeBytes(column) }
    }

    /// The run table's seven columns (``RunColumnsV2/Column`` order), each as written: raw or
    /// rANS-coded, whichever is smaller, or the length column raw when coded columns would be
    /// denser than readers accept.
    static func codedColumns(_ runs: [Run], replicaCount: Int) -> [[UInt8]] {
        typealias V2 = RunColumnsV2
        var columns = [ByteWriter](repeating: ByteWriter(), count: V2.Column.allCases.count)
        columns[V2.Column.flags.rawValue] = ByteWriter(reservingCapacity: runs.count)
        columns[V2.Column.lengths.rawValue] = ByteWriter(reservingCapacity: runs.count + runs.count / 8)
        let predicted = V2.predictedRightOrigins(count: runs.count, replicaCount: replicaCount,
                                                 replica: { runs[$0].replica }, seq: { runs[$0].seq })
        var openEnds = V2.OpenEnds(replicaCount: replicaCount)
        var lastSeqEnd = [UInt32](repeating: 0, count: replicaCount)
        var previous: Run? = nil
        for (i, run) in runs.enumerated() {
            let r = Int(run.replica)
            var flag: UInt8 = run.isDeleted ? V2.deleted : 0
            if run.replica != previous?.replica ?? 0 {
                flag |= V2.explicitReplica
                columns[V2.Column.replicas.rawValue].writeVarUInt(UInt64(run.replica))
            }
            let code: UInt8
            if let depth = openEnds.take(run.seq, replica: r) {
                code = UInt8(depth + 1)
            } else {
                code = 0
                columns[V2.Column.deltas.rawValue].writeVarInt(Int64(run.seq) - Int64(lastSeqEnd[r]))
            }
            if code >= V2.codeInColumn {
                flag |= V2.codeInColumn << V2.codeShift
                columns[V2.Column.codes.rawValue].writeByte(code)
            } else {
                flag |= code << V2.codeShift
            }
            openEnds.push(run.seqEnd, replica: r)
            lastSeqEnd[r] = run.seqEnd
            columns[V2.Column.lengths.rawValue].writeVarUInt(UInt64(run.length - 1))

            let previousElement = previous.map { ItemRef(replica: $0.replica, seq: $0.seqEnd - 1) } ?? .none
            let left: UInt8
            if run.left == previousElement { left = V2.leftPreviousElement }
            else if run.left.isNone { left = V2.leftNone }
            else if run.left == ItemRef(replica: run.replica, seq: run.seq &- 1) { left = V2.leftOwnPredecessor }
            else {
                left = V2.leftExplicit
                writeRef(run.left, into: &columns[V2.Column.lefts.rawValue])
            }
            let nextElement = i + 1 < runs.count ? ItemRef(replica: runs[i + 1].replica, seq: runs[i + 1].seq) : ItemRef.none
            let right: UInt8
            if run.right == predicted[i] { right = V2.rightPredicted }
            else if run.right == nextElement { right = V2.rightNextElement }
            else if run.right.isNone { right = V2.rightNone }
            else {
                right = V2.rightExplicit
                writeRef(run.right, into: &columns[V2.Column.rights.rawValue])
            }
            flag |= left << V2.leftShift | right << V2.rightShift
            columns[V2.Column.flags.rawValue].writeByte(flag)
            previous = run
        }
        func coded(rawLengths: Bool) -> [[UInt8]] {
            columns.enumerated().map { k, column in
                var out = ByteWriter()
                CodedColumn.write(column.bytes, into: &out, raw: rawLengths && k == V2.Column.lengths.rawValue)
                return out.bytes
            }
        }
        let table = coded(rawLengths: false)
        // Coded columns can be denser than readers accept (a note retyped and deleted character
        // by character compresses to almost nothing): the length column raw, a byte or more a run.
        guard runs.count > SnapshotFormat.maximumRunsPerRunTableByte * table.reduce(0, { $0 + $1.count }) else { return table }
        return coded(rawLengths: true)
    }

    private static func writeRef(_ ref: ItemRef, into column: inout ByteWriter) {
        column.writeVarUInt(UInt64(ref.replica))
        column.writeVarUInt(UInt64(ref.seq))
    }
}
