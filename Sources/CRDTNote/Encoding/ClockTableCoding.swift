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
