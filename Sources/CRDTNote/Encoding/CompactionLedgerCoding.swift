/// The compaction ledger of a format 3 snapshot body (Docs/FORMAT.md §4.7, "Ledger"), between
/// the text and the run table. Replicas are indexes into the body's replica table; devices are
/// replica ids, since a device that only merged a note has no entry in its table.
enum CompactionLedgerCoding {
    /// Writes `ledger` (none: an empty one) for a body whose replica table is `replicas`, with
    /// its re-pointed ids when `listingRepointed` (format 7 bodies).
    /// Entries naming a replica outside the table, and zero stamps, carry nothing and are left out.
    static func write(_ ledger: CompactionLedger?, replicas: [ReplicaID], listingRepointed: Bool = false, into out: inout ByteWriter) {
        let ledger = ledger ?? CompactionLedger()
        var index: [ReplicaID: Int] = [:]
        for (i, id) in replicas.enumerated() { index[id] = i }
        func writeVector(_ vector: [ReplicaID: HLCTimestamp]) {
            let entries = vector.compactMap { id, stamp in index[id].flatMap { stamp > .zero ? ($0, stamp) : nil } }.sorted { $0.0 < $1.0 }
            out.writeVarUInt(UInt64(entries.count))
            for (i, stamp) in entries {
                out.writeVarUInt(UInt64(i))
                out.writeVarUInt(stamp.rawValue)
            }
        }
        let devices = ledger.seen.keys.sorted { $0.rawValue < $1.rawValue }
        out.writeVarUInt(UInt64(devices.count))
        for device in devices {
            out.writeUInt64LE(device.rawValue)
            writeVector(ledger.seen[device] ?? [:])
        }
        writeVector(ledger.cut)
        writeRanges(ledger.proposed, index: index, into: &out)
        if listingRepointed { writeRanges(ledger.repointed, index: index, into: &out) }
    }

    /// Id ranges per replica: their count, then each as (replica index, seq delta, length − 1).
    private static func writeRanges(_ byReplica: [ReplicaID: [Range<UInt32>]], index: [ReplicaID: Int], into out: inout ByteWriter) {
        var ranges: [(Int, Range<UInt32>)] = []
        for (id, list) in byReplica {
            guard let i = index[id] else { continue }
            for range in list where !range.isEmpty { ranges.append((i, range)) }
        }
        ranges.sort { ($0.0, $0.1.lowerBound) < ($1.0, $1.1.lowerBound) }
        out.writeVarUInt(UInt64(ranges.count))
        var last = (replica: -1, end: UInt32(0))
        for (i, range) in ranges {
            out.writeVarUInt(UInt64(i))
            out.writeVarUInt(UInt64(range.lowerBound - (i == last.replica ? last.end : 0)))
            out.writeVarUInt(UInt64(range.count - 1))
            last = (i, range.upperBound)
        }
    }

    /// Reads a ledger for a body whose replica table is `replicas` with id counts `nextSeq`
    /// (with its re-pointed ids when `listingRepointed`, format 7), checking every index, order
    /// and range; nil when it is empty.
    static func read(_ reader: inout ByteReader, replicas: [ReplicaID], nextSeq: [UInt32], listingRepointed: Bool = false,
                     limits: NoteLimits) throws(BinaryDecodingError) -> CompactionLedger? {
        var ledger = CompactionLedger()
        func readVector(_ what: String) throws(BinaryDecodingError) -> [ReplicaID: HLCTimestamp] {
            let countOffset = reader.offset
            let count = try reader.readCount("\(what) entry count", minimumBytesEach: 2)
            guard count <= replicas.count else {
                throw BinaryDecodingError(.invalidValue, at: countOffset, "\(what) has \(count) entries for \(replicas.count) replicas")
            }
            var vector: [ReplicaID: HLCTimestamp] = [:]
            var previous = -1
            for _ in 0..<count {
                let offset = reader.offset
                let i = try reader.readVarUInt(max: UInt64(max(replicas.count - 1, 0)), "replica of \(what)")
                guard i > previous, i < replicas.count else {
                    throw BinaryDecodingError(.invalidValue, at: offset, "\(what) lists replica index \(i) out of order or outside the table")
                }
                previous = i
                vector[replicas[i]] = HLCTimestamp(rawValue: try reader.readVarUInt())
            }
            return vector
        }
        let devicesOffset = reader.offset
        let devices = try reader.readCount("ledger device count", minimumBytesEach: 9)
        guard devices <= limits.maximumReplicas else {
            throw BinaryDecodingError(.lengthTooLarge, at: devicesOffset, "\(devices) ledger devices exceed the limit of \(limits.maximumReplicas)")
        }
        var previousDevice: UInt64? = nil
        for _ in 0..<devices {
            let offset = reader.offset
            let id = try reader.readUInt64LE()
            guard previousDevice.map({ id > $0 }) ?? true else {
                throw BinaryDecodingError(.invalidValue, at: offset, "ledger device \(ReplicaID(rawValue: id)) is out of order or listed twice")
            }
            previousDevice = id
            ledger.seen[ReplicaID(rawValue: id)] = try readVector("seen vector of device \(ReplicaID(rawValue: id))")
        }
        ledger.cut = try readVector("the proposal's cut")
        ledger.proposed = try readRanges(&reader, "proposed", replicas: replicas, nextSeq: nextSeq, limits: limits)
        if listingRepointed {
            ledger.repointed = try readRanges(&reader, "re-pointed", replicas: replicas, nextSeq: nextSeq, limits: limits)
        }
        return ledger.isEmpty ? nil : ledger
    }

    /// Id ranges as ``writeRanges(_:index:into:)`` writes them (`what` names them in errors):
    /// replicas in table order, each replica's ranges increasing, apart and within its ids.
    static func readRanges(_ reader: inout ByteReader, _ what: String, replicas: [ReplicaID], nextSeq: [UInt32],
                                   limits: NoteLimits) throws(BinaryDecodingError) -> [ReplicaID: [Range<UInt32>]] {
        let rangesOffset = reader.offset
        let ranges = try reader.readCount("\(what) range count", minimumBytesEach: 3)
        guard ranges <= limits.maximumRuns else {
            throw BinaryDecodingError(.lengthTooLarge, at: rangesOffset, "\(ranges) \(what) ranges exceed the limit of \(limits.maximumRuns) runs")
        }
        var out: [ReplicaID: [Range<UInt32>]] = [:]
        var last = (replica: -1, end: 0)
        for _ in 0..<ranges {
            let offset = reader.offset
            let i = try reader.readVarUInt(max: UInt64(max(replicas.count - 1, 0)), "replica of a \(what) range")
            guard i >= last.replica, i < replicas.count else {
                throw BinaryDecodingError(.invalidValue, at: offset, "\(what) range names replica index \(i) out of order or outside the table")
            }
            let base = i == last.replica ? last.end : 0
            let seq = base + (try reader.readVarUInt(max: UInt64(UInt32.max - 1), "id of a \(what) range"))
            let length = try reader.readVarUInt(max: UInt64(UInt32.max - 1), "length of a \(what) range") + 1
            guard seq + length <= Int(nextSeq[i]), i != last.replica || seq > last.end else {
                throw BinaryDecodingError(.invalidValue, at: offset, "\(what) ids \(seq)..<\(seq + length) of replica \(replicas[i]) overlap others or lie past its \(nextSeq[i]) ids")
            }
            out[replicas[i], default: []].append(UInt32(seq)..<UInt32(seq + length))
            last = (i, seq + length)
        }
        return out
    }
}
