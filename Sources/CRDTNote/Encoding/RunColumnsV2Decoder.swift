import CRDTNoteSupport

/// Reads the run table of a version 2 snapshot body (Docs/FORMAT.md, "Runs, version 2") into
/// the runs in document order, every origin resolved, the visible text assigned and fully used.
/// Checks every column against the runs' needs and every id against the replica table; the
/// checks shared with version 1 (ids tiling each replica, causality) are the caller's. Never traps.
enum RunColumnsV2Decoder {
    private typealias V2 = RunColumnsV2

    /// Reads the run count, which must be within the run limit, at most the ids declared (runs
    /// tile them) and at most ``SnapshotFormat/maximumRunsPerRunTableByte`` per byte of the run
    /// table after it, so nothing is allocated for runs the payload's bytes do not pay for.
    static func runCount(_ reader: inout ByteReader, table: ClockTableCoding.Table, limits: NoteLimits) throws(BinaryDecodingError) -> Int {
        let countOffset = reader.offset
        let ids = table.nextSeq.reduce(0) { $0 + Int($1) }
        let runCount = try reader.readVarUInt(max: UInt64(Int32.max), "run count")
        guard runCount <= limits.maximumRuns, runCount <= ids else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset,
                                      "\(runCount) runs exceed the limit of \(limits.maximumRuns) runs or the \(ids) ids declared")
        }
        let perByte = SnapshotFormat.maximumRunsPerRunTableByte
        guard runCount <= perByte * reader.remaining else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset,
                                      "\(runCount) runs in a run table of \(reader.remaining) bytes: more than \(perByte) runs per byte")
        }
        return runCount
    }

    static func decode(_ reader: inout ByteReader, table: ClockTableCoding.Table, content: [UInt8], textOffset: Int,
                       limits: NoteLimits) throws(BinaryDecodingError) -> [Run] {
        let replicaCount = table.replicas.count
        let countOffset = reader.offset
        let runCount = try runCount(&reader, table: table, limits: limits)
        var flags = try CodedColumn.read(&reader, maximumCount: runCount, V2.Column.flags.name)
        guard flags.remaining == runCount else {
            throw BinaryDecodingError(.invalidValue, at: countOffset, "\(runCount) runs but \(flags.remaining) flag bytes")
        }
        // What each column may hold follows from the flags: read them before sizing the rest.
        var needs = [Int](repeating: 0, count: V2.Column.allCases.count)
        var flagReader = flags
        while !flagReader.isAtEnd {
            let flag = try flagReader.readByte()
            let code = flag >> V2.codeShift
            if code == V2.codeInColumn { needs[V2.Column.codes.rawValue] += 1 }
            if code == 0 { needs[V2.Column.deltas.rawValue] += 10 }
            if flag & V2.explicitReplica != 0 { needs[V2.Column.replicas.rawValue] += 5 }
            if (flag >> V2.leftShift) & 3 == V2.leftExplicit { needs[V2.Column.lefts.rawValue] += 10 }
            if (flag >> V2.rightShift) & 3 == V2.rightExplicit { needs[V2.Column.rights.rawValue] += 10 }
        }
        needs[V2.Column.lengths.rawValue] = runCount * 5
        var codes = try CodedColumn.read(&reader, maximumCount: needs[V2.Column.codes.rawValue], V2.Column.codes.name)
        var deltas = try CodedColumn.read(&reader, maximumCount: needs[V2.Column.deltas.rawValue], V2.Column.deltas.name)
        var lengths = try CodedColumn.read(&reader, maximumCount: needs[V2.Column.lengths.rawValue], V2.Column.lengths.name)
        var replicas = try CodedColumn.read(&reader, maximumCount: needs[V2.Column.replicas.rawValue], V2.Column.replicas.name)
        var lefts = try CodedColumn.read(&reader, maximumCount: needs[V2.Column.lefts.rawValue], V2.Column.lefts.name)
        var rights = try CodedColumn.read(&reader, maximumCount: needs[V2.Column.rights.rawValue], V2.Column.rights.name)
        try reader.expectEnd("snapshot")

        var runs: [Run] = []
        runs.reserveCapacity(runCount)
        var rightModes: [UInt8] = []
        rightModes.reserveCapacity(runCount)
        var openEnds = V2.OpenEnds(replicaCount: replicaCount)
        var lastSeqEnd = [Int64](repeating: 0, count: replicaCount)
        var replica = 0
        var byte = 0
        for i in 0..<runCount {
            let flagOffset = flags.offset
            let flag = try flags.readByte()
            if flag & V2.explicitReplica != 0 {
                replica = try replicas.readVarUInt(max: UInt64(max(replicaCount - 1, 0)), "replica of a run")
            }
            guard replica < replicaCount else {
                throw BinaryDecodingError(.invalidValue, at: flagOffset, "run \(i) names replica \(replica) of \(replicaCount)")
            }
            var code = Int(flag >> V2.codeShift)
            if code == Int(V2.codeInColumn) {
                let codeOffset = codes.offset
                code = Int(try codes.readByte())
                guard code >= Int(V2.codeInColumn), code <= V2.stackSearchDepth else {
                    throw BinaryDecodingError(.invalidValue, at: codeOffset, "run \(i) has sequence code \(code), not 3...\(V2.stackSearchDepth)")
                }
            }
            let seqOffset = code == 0 ? deltas.offset : flagOffset
            let seq: Int64
            if code == 0 {
                // The delta is any Int64: add with overflow checks, compared below without forming `seq + length`.
                let (sum, overflow) = lastSeqEnd[replica].addingReportingOverflow(try deltas.readVarInt())
                seq = overflow ? -1 : sum
            } else {
                guard let end = openEnds.take(depth: code - 1, replica: replica) else {
                    throw BinaryDecodingError(.invalidValue, at: flagOffset, "run \(i) continues open end \(code - 1) of replica \(table.replicas[replica]), which has fewer")
                }
                seq = Int64(end)
            }
            let length = Int64(try lengths.readVarUInt(max: UInt64(UInt32.max), "length of a run")) + 1
            guard seq >= 0, seq <= Int64(table.nextSeq[replica]) - length else {
                throw BinaryDecodingError(.invalidValue, at: seqOffset, "run \(i) ids \(seq < 0 ? "out of range" : "\(seq)") (\(length) of them) are outside replica \(table.replicas[replica])'s \(table.nextSeq[replica])")
            }
            lastSeqEnd[replica] = seq + length
            openEnds.push(UInt32(seq + length), replica: replica)
            var run = Run(replica: UInt32(replica), seq: UInt32(seq), length: UInt32(length), utf16: 0,
                          byteStart: UInt32(byte), byteCount: 0, left: .none, right: .none)
            if flag & V2.deleted == 0 { try SnapshotDecoder.takeText(for: &run, index: i, content: content, byte: &byte, textOffset: textOffset) }
            run.left = try SnapshotDecoder.leftOrigin(mode: (flag >> V2.leftShift) & 3, V2.leftModes, previous: runs.last,
                                                      replica: replica, seq: seq, column: &lefts, table: table, flagOffset: flagOffset, index: i)
            let rightMode = (flag >> V2.rightShift) & 3
            if rightMode == V2.rightExplicit {
                run.right = try SnapshotDecoder.readRef(&rights, table: table, what: "right origin of a run")
            }
            rightModes.append(rightMode)
            runs.append(run)
        }
        guard byte == content.count else {
            throw BinaryDecodingError(.invalidValue, at: textOffset, "text has \(content.count - byte) bytes no run uses")
        }
        for column in [codes, deltas, lengths, replicas, lefts, rights] { try column.expectEnd("column") }
        let predicted = V2.predictedRightOrigins(count: runs.count, replicaCount: replicaCount,
                                                 replica: { runs[$0].replica }, seq: { runs[$0].seq })
        for i in runs.indices {
            switch rightModes[i] {
            case V2.rightPredicted:
                runs[i].right = predicted[i]
            case V2.rightNextElement:
                guard i + 1 < runs.count else { throw BinaryDecodingError(.invalidValue, at: countOffset, "last run points to a next element") }
                runs[i].right = ItemRef(replica: runs[i + 1].replica, seq: runs[i + 1].seq)
            default: break
            }
        }
        return runs
    }
}
