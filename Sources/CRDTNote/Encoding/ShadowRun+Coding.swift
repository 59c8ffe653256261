/// The shadow section of a version 2 history payload (Docs/FORMAT.md §11.6): the shadows a
/// history keeps and the clock-log entries compactions dropped, after the text column, written
/// only when there are any. Both are coded as columns (``CodedColumn``), like the events, so a
/// typing session's entries (seqs a few apart, stamps about a second apart, counters 0) cost
/// about two bytes each.
extension NoteHistory {
    /// Most bytes one value takes in each varuint column (its largest valid value's varuint), so
    /// a column is refused before it is decoded when it holds more than this many per value.
    private enum ShadowWidth {
        static let replica = 5, seq = 5, origin = 5, milliseconds = 7, counter = 3
    }

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
        if !shadows.isEmpty {
            var inserter = ByteWriter(), seq = ByteWriter(), length = ByteWriter()
            var left = ByteWriter(), right = ByteWriter(), originSeq = ByteWriter()
            var previous: (inserter: Int, end: UInt32)?
            for shadow in shadows {
                let i = index[shadow.inserter] ?? 0
                let base = previous.map { $0.inserter == i ? $0.end : 0 } ?? 0
                inserter.writeVarUInt(UInt64(i))
                seq.writeVarUInt(UInt64(shadow.seqs.lowerBound &- base))  // normalized: no overlaps
                length.writeVarUInt(UInt64(shadow.seqs.count - 1))
                // Origins as replica tags, and seqs relative to a typed run's: the left one just
                // before the first id, the right one just after the last.
                left.writeVarUInt(shadow.left.map { UInt64(index[$0.replica] ?? 0) + 1 } ?? 0)
                right.writeVarUInt(shadow.right.map { UInt64(index[$0.replica] ?? 0) + 1 } ?? 0)
                if let origin = shadow.left { originSeq.writeVarInt(Int64(origin.seq) - (Int64(shadow.seqs.lowerBound) - 1)) }
                if let origin = shadow.right { originSeq.writeVarInt(Int64(origin.seq) - Int64(shadow.seqs.upperBound)) }
                previous = (i, shadow.seqs.upperBound)
            }
            for column in [inserter, seq, length, left, right, originSeq] { CodedColumn.write(column.bytes, into: &body) }
        }
        let replicas = shadowStamps.filter { !$0.value.isEmpty }.keys.sorted()
        body.writeVarUInt(UInt64(replicas.count))
        var seq = ByteWriter(), milliseconds = ByteWriter(), counter = ByteWriter()
        for replica in replicas {
            let entries = shadowStamps[replica] ?? []
            body.writeVarUInt(UInt64(index[replica] ?? 0))
            body.writeVarUInt(UInt64(entries.count))
            var last = ClockLogEntry(seq: 0, stamp: .zero)
            for entry in entries {
                // United entries: seqs increase, stamps never go back (ShadowRun.union).
                seq.writeVarUInt(UInt64(entry.seq &- last.seq))
                milliseconds.writeVarUInt(entry.stamp.milliseconds &- last.stamp.milliseconds)
                counter.writeVarUInt(UInt64(entry.stamp.counter))
                last = entry
            }
        }
        guard !replicas.isEmpty else { return }
        for column in [seq, milliseconds, counter] { CodedColumn.write(column.bytes, into: &body) }
    }

    /// Reads the section: shadows in order without overlaps, entries with increasing seqs and
    /// stamps that never go back, every index within `replicas`; counts refused before anything
    /// is allocated for them.
    static func readShadows(_ reader: inout ByteReader, replicas: [ReplicaID], limits: NoteLimits)
        throws(BinaryDecodingError) -> (shadows: [ShadowRun], stamps: [ReplicaID: [ClockLogEntry]]) {
        let count = try readColumnCount(&reader, "shadows", limits: limits)
        var shadows: [ShadowRun] = []
        if count > 0 {
            shadows.reserveCapacity(count)
            var inserter = try CodedColumn.read(&reader, maximumCount: ShadowWidth.replica * count, "the shadows' replicas")
            var seq = try CodedColumn.read(&reader, maximumCount: ShadowWidth.seq * count, "the shadows' seqs")
            var length = try CodedColumn.read(&reader, maximumCount: ShadowWidth.seq * count, "the shadows' lengths")
            var left = try CodedColumn.read(&reader, maximumCount: ShadowWidth.replica * count, "the shadows' left origins")
            var right = try CodedColumn.read(&reader, maximumCount: ShadowWidth.replica * count, "the shadows' right origins")
            var originSeq = try CodedColumn.read(&reader, maximumCount: 2 * ShadowWidth.origin * count, "the origins' seqs")
            var previous: (inserter: Int, end: UInt32)?
            for _ in 0..<count {
                let inserterOffset = inserter.offset
                let i = try readReplicaIndex(&inserter, replicas)
                if let previous, i < previous.inserter {
                    throw BinaryDecodingError(.invalidValue, at: inserterOffset, "shadows are not in order of their inserting replica")
                }
                let base = previous.map { $0.inserter == i ? UInt64($0.end) : 0 } ?? 0
                let seqOffset = seq.offset
                let first = base + UInt64(try seq.readVarUInt(max: UInt64(UInt32.max), "seq of a shadow"))
                let n = UInt64(try length.readVarUInt(max: UInt64(UInt32.max) - 1, "length of a shadow")) + 1
                guard first + n <= UInt64(UInt32.max) else {
                    throw BinaryDecodingError(.invalidValue, at: seqOffset, "a shadow of \(n) ids from seq \(first) passes 2^32 - 1")
                }
                let l = try readOrigin(tags: &left, seqs: &originSeq, near: Int64(first) - 1, replicas)
                let r = try readOrigin(tags: &right, seqs: &originSeq, near: Int64(first + n), replicas)
                shadows.append(ShadowRun(inserter: replicas[i], seqs: UInt32(first)..<UInt32(first + n), left: l, right: r))
                previous = (i, UInt32(first + n))
            }
            for column in [inserter, seq, length, left, right, originSeq] { try column.expectEnd("a shadow column") }
        }
        let withEntries = try reader.readCount("replicas with dropped clock entries", minimumBytesEach: 2, limit: replicas.count)
        var lists: [(replica: ReplicaID, count: Int)] = []
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
            let n = try readColumnCount(&reader, "dropped clock entries", limits: limits)
            total += n
            guard n >= 1, total <= limits.maximumHistoryEvents else {
                throw BinaryDecodingError(n == 0 ? .invalidValue : .lengthTooLarge, at: entriesOffset,
                                          n == 0 ? "an empty list of dropped clock entries" : "\(total) dropped clock entries exceed the limit of \(limits.maximumHistoryEvents)")
            }
            lists.append((replicas[r], n))
        }
        var stamps: [ReplicaID: [ClockLogEntry]] = [:]
        guard total > 0 else { return (shadows, stamps) }
        var seq = try CodedColumn.read(&reader, maximumCount: ShadowWidth.seq * total, "the dropped entries' seqs")
        var milliseconds = try CodedColumn.read(&reader, maximumCount: ShadowWidth.milliseconds * total, "the dropped entries' milliseconds")
        var counter = try CodedColumn.read(&reader, maximumCount: ShadowWidth.counter * total, "the dropped entries' counters")
        for (replica, n) in lists {
            var entries: [ClockLogEntry] = []
            entries.reserveCapacity(n)
            var last: (seq: UInt64, milliseconds: UInt64, counter: UInt64) = (0, 0, 0)
            for i in 0..<n {
                let deltaOffset = seq.offset
                let delta = UInt64(try seq.readVarUInt(max: UInt64(UInt32.max), "seq of a dropped clock entry"))
                let at = last.seq + delta
                guard (i == 0 || delta > 0), at < UInt64(UInt32.max) else {
                    throw BinaryDecodingError(.invalidValue, at: deltaOffset, "dropped clock entry seqs must increase and stay below 2^32 - 1")
                }
                let stampOffset = milliseconds.offset
                let ms = UInt64(try milliseconds.readVarUInt(max: HLCTimestamp.maxMilliseconds, "milliseconds of a dropped clock entry"))
                let tick = UInt64(try counter.readVarUInt(max: UInt64(UInt16.max), "counter of a dropped clock entry"))
                guard ms <= HLCTimestamp.maxMilliseconds - last.milliseconds, ms > 0 || i == 0 || tick >= last.counter else {
                    throw BinaryDecodingError(.invalidValue, at: stampOffset, "a dropped clock entry's stamp goes back or passes \(HLCTimestamp.maxMilliseconds) ms")
                }
                last = (at, last.milliseconds + ms, tick)
                entries.append(ClockLogEntry(seq: UInt32(at), stamp: HLCTimestamp(rawValue: last.milliseconds << HLCTimestamp.counterBits | tick)))
            }
            stamps[replica] = entries
        }
        for column in [seq, milliseconds, counter] { try column.expectEnd("a dropped clock entry column") }
        return (shadows, stamps)
    }

    /// A count of values coded as columns: at most ``maximumEventsPerByte`` per byte left (coded
    /// columns can make a value cost a fraction of a byte) and ``NoteLimits/maximumHistoryEvents``.
    private static func readColumnCount(_ reader: inout ByteReader, _ what: String, limits: NoteLimits) throws(BinaryDecodingError) -> Int {
        let offset = reader.offset
        let declared = try reader.readVarUInt()
        guard declared <= UInt64(maximumEventsPerByte) * UInt64(reader.remaining) else {
            throw BinaryDecodingError(.lengthTooLarge, at: offset, "\(declared) \(what) in \(reader.remaining) bytes: more than \(maximumEventsPerByte) per byte")
        }
        guard declared <= UInt64(limits.maximumHistoryEvents) else {
            throw BinaryDecodingError(.lengthTooLarge, at: offset, "\(declared) \(what) exceed the limit of \(limits.maximumHistoryEvents)")
        }
        return Int(declared)
    }

    /// An origin: a tag (0 for none, else a replica index plus one) and, for one, a seq coded
    /// relative to `near`.
    private static func readOrigin(tags: inout ByteReader, seqs: inout ByteReader, near: Int64,
                                   _ replicas: [ReplicaID]) throws(BinaryDecodingError) -> ShadowRun.Origin? {
        let offset = tags.offset
        let tag = try tags.readVarUInt()
        guard tag > 0 else { return nil }
        guard tag <= UInt64(replicas.count) else {
            throw BinaryDecodingError(.invalidValue, at: offset, "origin replica index \(tag - 1) is outside the table of \(replicas.count)")
        }
        let seqOffset = seqs.offset
        let (seq, overflow) = near.addingReportingOverflow(try seqs.readVarInt())
        guard !overflow, seq >= 0, seq <= Int64(UInt32.max) - 1 else {
            throw BinaryDecodingError(.invalidValue, at: seqOffset, "an origin's seq \(seq) is outside 0 ..< 2^32 - 1")
        }
        return ShadowRun.Origin(replica: replicas[Int(tag - 1)], seq: UInt32(seq))
    }
}
