/// The shadow section of a version 2 history payload (Docs/FORMAT.md §11.6): the shadows a
/// history keeps and the clock-log entries compactions dropped, after the text column, written
/// only when there are any.
extension NoteHistory {
    /// Fewest bytes one encoded shadow takes (five one-byte varuints).
    static let minimumShadowBytes = 5

    /// Every replica the shadows and their entries name.
    var shadowReplicas: Set<ReplicaID> {
        var out = Set(shadowStamps.keys)
        for shadow in shadows {
            out.insert(shadow.inserter)
            if let left = shadow.left { out.insert(left.replica) }
            if let right = shadow.right { out.insert(right.replica) }
        }
        return out
    }

    /// Writes the section (replicas as indices into the body's table, which holds them all).
    func writeShadows(index: [ReplicaID: Int], into body: inout ByteWriter) {
        body.writeVarUInt(UInt64(shadows.count))
        var previous: (inserter: Int, end: UInt32)?
        for shadow in shadows {
            let inserter = index[shadow.inserter] ?? 0
            let base = previous.map { $0.inserter == inserter ? $0.end : 0 } ?? 0
            body.writeVarUInt(UInt64(inserter))
            body.writeVarUInt(UInt64(shadow.seqs.lowerBound &- base))  // normalized: no overlaps
            body.writeVarUInt(UInt64(shadow.seqs.count - 1))
            for origin in [shadow.left, shadow.right] {
                guard let origin else { body.writeVarUInt(0); continue }
                body.writeVarUInt(UInt64(index[origin.replica] ?? 0) + 1)
                body.writeVarUInt(UInt64(origin.seq))
            }
            previous = (inserter, shadow.seqs.upperBound)
        }
        let replicas = shadowStamps.filter { !$0.value.isEmpty }.keys.sorted()
        body.writeVarUInt(UInt64(replicas.count))
        for replica in replicas {
            let entries = shadowStamps[replica] ?? []
            body.writeVarUInt(UInt64(index[replica] ?? 0))
            body.writeVarUInt(UInt64(entries.count))
            var last = ClockLogEntry(seq: 0, stamp: .zero)
            for entry in entries {
                // United entries: seqs increase, stamps never go back (ShadowRun.union).
                body.writeVarUInt(UInt64(entry.seq &- last.seq))
                body.writeVarUInt(entry.stamp.rawValue &- last.stamp.rawValue)
                last = entry
            }
        }
    }

    /// Reads the section: shadows in order without overlaps, entries with increasing seqs and
    /// stamps that never go back, every index within `replicas`; counts refused before anything
    /// is allocated for them.
    static func readShadows(_ reader: inout ByteReader, replicas: [ReplicaID], limits: NoteLimits)
        throws(BinaryDecodingError) -> (shadows: [ShadowRun], stamps: [ReplicaID: [ClockLogEntry]]) {
        let count = try reader.readCount("shadows", minimumBytesEach: minimumShadowBytes, limit: limits.maximumHistoryEvents)
        var shadows: [ShadowRun] = []
        shadows.reserveCapacity(count)
        var previous: (inserter: Int, end: UInt32)?
        for _ in 0..<count {
            let inserterOffset = reader.offset
            let inserter = try readReplicaIndex(&reader, replicas)
            if let previous, inserter < previous.inserter {
                throw BinaryDecodingError(.invalidValue, at: inserterOffset, "shadows are not in order of their inserting replica")
            }
            let base = previous.map { $0.inserter == inserter ? UInt64($0.end) : 0 } ?? 0
            let seqOffset = reader.offset
            let seq = base + UInt64(try reader.readVarUInt(max: UInt64(UInt32.max), "seq of a shadow"))
            let length = UInt64(try reader.readVarUInt(max: UInt64(UInt32.max) - 1, "length of a shadow")) + 1
            guard seq + length <= UInt64(UInt32.max) else {
                throw BinaryDecodingError(.invalidValue, at: seqOffset, "a shadow of \(length) ids from seq \(seq) passes 2^32 - 1")
            }
            let left = try readOrigin(&reader, replicas)
            let right = try readOrigin(&reader, replicas)
            shadows.append(ShadowRun(inserter: replicas[inserter], seqs: UInt32(seq)..<UInt32(seq + length), left: left, right: right))
            previous = (inserter, UInt32(seq + length))
        }
        let withEntries = try reader.readCount("replicas with dropped clock entries", minimumBytesEach: 2, limit: replicas.count)
        var stamps: [ReplicaID: [ClockLogEntry]] = [:]
        var lastIndex = -1
        var total = 0
        for _ in 0..<withEntries {
            let indexOffset = reader.offset
            let r = try readReplicaIndex(&reader, replicas)
            guard r > lastIndex else {
                throw BinaryDecodingError(.invalidValue, at: indexOffset, "replicas of the dropped clock entries are not strictly increasing")
            }
            lastIndex = r
            let entriesOffset = reader.offset
            let n = try reader.readCount("dropped clock entries", minimumBytesEach: 2)
            total += n
            guard n >= 1, total <= limits.maximumHistoryEvents else {
                throw BinaryDecodingError(n == 0 ? .invalidValue : .lengthTooLarge, at: entriesOffset,
                                          n == 0 ? "an empty list of dropped clock entries" : "\(total) dropped clock entries exceed the limit of \(limits.maximumHistoryEvents)")
            }
            var entries: [ClockLogEntry] = []
            entries.reserveCapacity(n)
            var seq: UInt64 = 0
            var stamp: UInt64 = 0
            for i in 0..<n {
                let deltaOffset = reader.offset
                let delta = UInt64(try reader.readVarUInt(max: UInt64(UInt32.max), "seq of a dropped clock entry"))
                seq += delta
                guard (i == 0 || delta > 0), seq < UInt64(UInt32.max) else {
                    throw BinaryDecodingError(.invalidValue, at: deltaOffset, "dropped clock entry seqs must increase and stay below 2^32 - 1")
                }
                let stampOffset = reader.offset
                let (sum, overflow) = stamp.addingReportingOverflow(try reader.readVarUInt())
                guard !overflow else { throw BinaryDecodingError(.invalidValue, at: stampOffset, "a dropped clock entry's stamp passes 2^64 - 1") }
                stamp = sum
                entries.append(ClockLogEntry(seq: UInt32(seq), stamp: HLCTimestamp(rawValue: stamp)))
            }
            stamps[replicas[r]] = entries
        }
        return (shadows, stamps)
    }

    /// An origin: 0 for none, else a replica index plus one and a seq.
    private static func readOrigin(_ reader: inout ByteReader, _ replicas: [ReplicaID]) throws(BinaryDecodingError) -> ShadowRun.Origin? {
        let offset = reader.offset
        let tag = try reader.readVarUInt()
        guard tag > 0 else { return nil }
        guard tag <= UInt64(replicas.count) else {
            throw BinaryDecodingError(.invalidValue, at: offset, "origin replica index \(tag - 1) is outside the table of \(replicas.count)")
        }
        let seq = try reader.readVarUInt(max: UInt64(UInt32.max) - 1, "seq of an origin")
        return ShadowRun.Origin(replica: replicas[Int(tag - 1)], seq: UInt32(seq))
    }
}
