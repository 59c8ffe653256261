/// The replica table shared by snapshots and change sets: ids, id counts, latest
/// stamps and clock logs. Format 6 snapshots keep only each log's length here and the entries
/// in coded columns after the table (``ClockLogColumns``, Docs/FORMAT.md §4.8).
enum ClockTableCoding {
    /// Where a table's clock-log entries are: inside it, after each replica's log length (every
    /// payload but format 6 snapshots), or in the columns that follow it (format 6).
    enum LogLayout {
        case inline
        case columns
    }

    static func write(_ replicas: [ReplicaID], nextSeq: [UInt32]?, latest: [HLCTimestamp], logs: [[ClockLogEntry]],
                      layout: LogLayout = .inline, into out: inout ByteWriter) {
        out.writeVarUInt(UInt64(replicas.count))
        for (r, id) in replicas.enumerated() {
            out.writeUInt64LE(id.rawValue)
            if let nextSeq { out.writeVarUInt(UInt64(nextSeq[r])) }
            out.writeVarUInt(r < latest.count ? latest[r].rawValue : 0)
            let log = r < logs.count ? logs[r] : []
            out.writeVarUInt(UInt64(log.count))
            guard layout == .inline else { continue }
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
        /// Format 6: how many entries each replica's log declares (read by ``ClockLogColumns``).
        var logLengths: [Int] = []
    }

    /// Reads the table; with `layout` `.columns` (format 6, where `withCounts` is true) the
    /// entries follow in ``ClockLogColumns`` and the logs hold no entries yet: their lengths are
    /// in `logLengths`.
    static func read(_ reader: inout ByteReader, withCounts: Bool, layout: LogLayout = .inline,
                     limits: NoteLimits) throws(BinaryDecodingError) -> Table {
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
            if layout == .columns {
                // Entries stamp distinct ids below the id count; the columns bound them by bytes.
                let lengthOffset = reader.offset
                let length = try reader.readVarUInt(max: UInt64(UInt32.max), "clock log length of replica \(id)")
                guard length <= max(Int(table.nextSeq.last ?? 0), 1) else {
                    throw BinaryDecodingError(.invalidValue, at: lengthOffset, "clock log of replica \(id) has \(length) entries for \(table.nextSeq.last ?? 0) ids")
                }
                table.logLengths.append(length)
                table.logs.append([])
                continue
            }
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
