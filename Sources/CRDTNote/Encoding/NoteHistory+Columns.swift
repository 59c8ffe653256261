/// Version 2 of the history payload's events (Docs/FORMAT.md §11.2, "Version 2 events"): after
/// the replica table, the event count and the stamp base, eight coded columns (``CodedColumn``:
/// raw or rANS, whichever is smaller) with one value per event each, then the text column as in
/// version 1. The values are predicted so that an editing session makes the columns repetitive:
/// millisecond deltas from the stamp base (low byte and high part apart), the HLC counter alone,
/// the replica indices, lengths minus one, seq codes that follow a backspace or delete-key run
/// (``SeqRun``), and the text's bytes beyond one per scalar (0 for ASCII).
extension NoteHistory {
    /// Most events a version 2 body may declare per byte that follows its event count: coded
    /// columns can make an event cost a fraction of a byte, so without a bound a few bytes could
    /// declare 2^21 events. The writer writes version 1 for a set that would pass it.
    static let maximumEventsPerByte = 4

    /// Most bytes one value takes in each varuint column (its largest valid value's varuint), so a
    /// column is refused before it is decoded when it holds more than this many per event.
    private enum Width {
        static let stampHigh = 6, counter = 3, replica = 5, length = 5, seq = 5, extraBytes = 5
    }

    /// The stamp base and the nine columns (text included) of `events` (sorted, no repeats; `index` their replicas' table indices),
    /// or nil when they would pass ``maximumEventsPerByte``.
    static func columns(of events: [DeletionEvent], index: [ReplicaID: Int]) -> [UInt8]? {
        var deltas: [UInt64] = []
        deltas.reserveCapacity(events.count)
        var milliseconds: UInt64 = 0
        for event in events {
            deltas.append(event.stamp.milliseconds - milliseconds)
            milliseconds = event.stamp.milliseconds
        }
        let base = stampBase(deltas)
        var low: [UInt8] = []
        low.reserveCapacity(events.count)
        var high = ByteWriter(), counter = ByteWriter(), deleter = ByteWriter(), inserter = ByteWriter()
        var length = ByteWriter(), seq = ByteWriter(), extra = ByteWriter()
        var text: [UInt8] = []
        var runs = [SeqRun](repeating: SeqRun(), count: index.count)
        for (event, delta) in zip(events, deltas) {
            let shifted = Int64(delta) - Int64(base)
            low.append(UInt8(truncatingIfNeeded: shifted))
            high.writeVarInt(shifted >> 8)
            counter.writeVarUInt(UInt64(event.stamp.counter))
            let i = index[event.inserter] ?? 0
            deleter.writeVarUInt(UInt64(index[event.deleter] ?? 0))
            inserter.writeVarUInt(UInt64(i))
            length.writeVarUInt(UInt64(event.seqs.count - 1))
            seq.writeVarUInt(runs[i].code(for: event.seqs))
            extra.writeVarUInt(UInt64(event.text.count - event.seqs.count))
            text.append(contentsOf: event.text)
        }
        var out = ByteWriter(reservingCapacity: text.count / 2 + events.count * 2 + 64)
        out.writeVarUInt(base)
        for column in [low, high.bytes, counter.bytes, deleter.bytes, inserter.bytes, length.bytes, seq.bytes, extra.bytes, text] {
            CodedColumn.write(column, into: &out)
        }
        guard events.count <= maximumEventsPerByte * out.count else { return nil }
        return out.bytes
    }

    /// A version 2 body's events and columns, after the replica table, each value checked as
    /// version 1 checks it and everything bounded before it is allocated.
    static func readColumns(_ reader: inout ByteReader, replicas: [ReplicaID], limits: NoteLimits) throws(BinaryDecodingError) -> [DeletionEvent] {
        let countOffset = reader.offset
        let declared = try reader.readVarUInt()
        guard declared <= UInt64(maximumEventsPerByte) * UInt64(reader.remaining) else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset,
                                      "\(declared) deletion events in \(reader.remaining) bytes: more than \(maximumEventsPerByte) per byte")
        }
        guard declared <= UInt64(limits.maximumHistoryEvents) else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset, "\(declared) deletion events exceed the limit of \(limits.maximumHistoryEvents)")
        }
        let count = Int(declared)
        let base = UInt64(try reader.readVarUInt(max: HLCTimestamp.maxMilliseconds, "the stamp base"))
        var low = try CodedColumn.read(&reader, exactly: count, "the stamps' low bytes", per: "events")
        var high = try CodedColumn.read(&reader, maximumCount: Width.stampHigh * count, "the stamps' high parts")
        var counter = try CodedColumn.read(&reader, maximumCount: Width.counter * count, "the stamps' counters")
        var deleter = try CodedColumn.read(&reader, maximumCount: Width.replica * count, "the deleting replicas")
        var inserter = try CodedColumn.read(&reader, maximumCount: Width.replica * count, "the inserting replicas")
        var length = try CodedColumn.read(&reader, maximumCount: Width.length * count, "the lengths")
        var seq = try CodedColumn.read(&reader, maximumCount: Width.seq * count, "the seqs")
        var extra = try CodedColumn.read(&reader, maximumCount: Width.extraBytes * count, "the text byte counts")
        var events: [DeletionEvent] = []
        events.reserveCapacity(count)
        var sizes: [Int] = []
        sizes.reserveCapacity(count)
        var milliseconds: UInt64 = 0
        var runs = [SeqRun](repeating: SeqRun(), count: replicas.count)
        var textBytes = 0
        let highest = Int64(HLCTimestamp.maxMilliseconds >> 8)
        for _ in 0..<count {
            let highOffset = high.offset
            let lowByte = Int64(try low.readByte())
            let highPart = try high.readVarInt()
            guard highPart >= -highest - 1, highPart <= highest else {
                throw BinaryDecodingError(.invalidValue, at: highOffset, "a stamp's high part \(highPart) is out of range")
            }
            let delta = Int64(base) + (highPart << 8 | lowByte)
            guard delta >= 0, UInt64(delta) <= HLCTimestamp.maxMilliseconds - milliseconds else {
                throw BinaryDecodingError(.invalidValue, at: highOffset, "a deletion event's stamp is before the previous one or passes \(HLCTimestamp.maxMilliseconds) ms")
            }
            milliseconds += UInt64(delta)
            let tick = try counter.readVarUInt(max: UInt64(UInt16.max), "a stamp's counter")
            let deleting = replicas[try readReplicaIndex(&deleter, replicas)]
            let i = try readReplicaIndex(&inserter, replicas)
            let n = try length.readVarUInt(max: UInt64(UInt32.max) - 1, "length of a deleted range") + 1
            let seqOffset = seq.offset
            guard let range = runs[i].range(for: try seq.readVarUInt(), length: Int64(n)) else {
                throw BinaryDecodingError(.invalidValue, at: seqOffset, "a deleted range of \(n) ids is outside 0 ..< 2^32 - 1")
            }
            let extraOffset = extra.offset
            let size = n + (try extra.readVarUInt(max: 3 * UInt64(n), "extra bytes of a deleted text"))
            textBytes += size
            guard textBytes <= limits.maximumTextBytes else {
                throw BinaryDecodingError(.lengthTooLarge, at: extraOffset, "the deleted text passes the limit of \(limits.maximumTextBytes) bytes")
            }
            let stamp = HLCTimestamp(rawValue: milliseconds << HLCTimestamp.counterBits | UInt64(tick))
            events.append(DeletionEvent(inserter: replicas[i], seqs: range, deleter: deleting,
                                        stamp: stamp, text: []))
            sizes.append(size)
        }
        for column in [high, counter, deleter, inserter, length, seq, extra] { try column.expectEnd("a history column") }
        return try withText(events, sizes: sizes, textBytes: textBytes, from: &reader)
    }
}

extension NoteHistory {
    /// The stamp base of version 2: the millisecond delta `b` with the most deltas in
    /// `b ..< b + 256` (the smallest such), so that the low-byte column takes typing intervals
    /// whole and the high parts are mostly 0. 0 for no events.
    static func stampBase(_ deltas: [UInt64]) -> UInt64 {
        let sorted = deltas.sorted()
        var best: (count: Int, base: UInt64) = (0, 0)
        var end = 0
        for (start, base) in sorted.enumerated() {
            if end < start { end = start }
            while end < sorted.count, sorted[end] - base < 256 { end += 1 }
            if end - start > best.count { best = (end - start, base) }
        }
        return best.base
    }

    /// One inserter's place in version 2's seq column: its previous event's range and the
    /// direction it last deleted in. Code 0 continues that direction (backwards: the range ends
    /// where the previous began, a backspace; forwards: it begins where the previous ended, the
    /// delete key), 1 turns to the other one, and 2 + zigzag(end − previous first seq) jumps.
    struct SeqRun {
        var lower: Int64 = 0
        var upper: Int64 = 0
        var forwards = false

        /// The code of `seqs`, moving on to it.
        mutating func code(for seqs: Range<UInt32>) -> UInt64 {
            let (first, end) = (Int64(seqs.lowerBound), Int64(seqs.upperBound))
            let backspace = end == lower, delete = first == upper
            defer { (lower, upper) = (first, end) }
            if backspace || delete {
                defer { forwards = delete }
                return backspace == !forwards ? 0 : 1
            }
            let step = end - lower
            return 2 + UInt64(bitPattern: (step << 1) ^ (step >> 63))
        }

        /// The range `code` gives for `length` ids, moving on to it; nil outside 0 ..< 2^32 - 1.
        mutating func range(for code: UInt64, length: Int64) -> Range<UInt32>? {
            var end: Int64
            switch code {
            case 0, 1:
                if code == 1 { forwards.toggle() }
                end = forwards ? upper + length : lower
            default:
                let zigzag = code - 2
                let step = Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
                let (sum, overflow) = lower.addingReportingOverflow(step)
                guard !overflow else { return nil }
                end = sum
            }
            guard end >= length, end <= Int64(UInt32.max) else { return nil }
            (lower, upper) = (end - length, end)
            return UInt32(lower)..<UInt32(end)
        }
    }
}
