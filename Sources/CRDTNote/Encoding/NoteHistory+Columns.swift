/// Version 2 of the history payload's events (Docs/FORMAT.md §11.2, "Version 2"): after the
/// replica table and the event count, nine coded columns (``CodedColumn``: raw or rANS, whichever
/// is smaller), one value per event in each, predicted so that a long edit makes them repetitive:
/// stamps as millisecond deltas (low byte and high part apart) with the HLC counter alone, the
/// replica indices, lengths minus one, seqs as a signed delta from the inserter's previous event
/// (a backspace run gives 0 each), the text's bytes beyond one per scalar (0 for ASCII), and the
/// text column as in version 1.
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

    /// The nine columns of `events` (sorted, no repeats; `index` their replicas' table indices),
    /// or nil when they would pass ``maximumEventsPerByte``.
    static func columns(of events: [DeletionEvent], index: [ReplicaID: Int]) -> [UInt8]? {
        var low: [UInt8] = []
        low.reserveCapacity(events.count)
        var high = ByteWriter(), counter = ByteWriter(), deleter = ByteWriter(), inserter = ByteWriter()
        var length = ByteWriter(), seq = ByteWriter(), extra = ByteWriter()
        var text: [UInt8] = []
        var milliseconds: UInt64 = 0
        var previousLower: [Int: Int64] = [:]
        for event in events {
            let delta = event.stamp.milliseconds - milliseconds
            milliseconds = event.stamp.milliseconds
            low.append(UInt8(truncatingIfNeeded: delta))
            high.writeVarUInt(delta >> 8)
            counter.writeVarUInt(UInt64(event.stamp.counter))
            let i = index[event.inserter] ?? 0
            deleter.writeVarUInt(UInt64(index[event.deleter] ?? 0))
            inserter.writeVarUInt(UInt64(i))
            length.writeVarUInt(UInt64(event.seqs.count - 1))
            seq.writeVarInt(Int64(event.seqs.upperBound) - previousLower[i, default: 0])
            previousLower[i] = Int64(event.seqs.lowerBound)
            extra.writeVarUInt(UInt64(event.text.count - event.seqs.count))
            text.append(contentsOf: event.text)
        }
        var out = ByteWriter(reservingCapacity: text.count / 2 + events.count * 2 + 64)
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
        let lowOffset = reader.offset
        var low = try CodedColumn.read(&reader, maximumCount: count, "the stamps' low bytes")
        guard low.remaining == count else {
            throw BinaryDecodingError(.invalidValue, at: lowOffset, "the stamps' low bytes are \(low.remaining) for \(count) events")
        }
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
        var previousLower = [Int64](repeating: 0, count: replicas.count)
        var textBytes = 0
        for _ in 0..<count {
            let highOffset = high.offset
            let delta = UInt64(try low.readByte()) | UInt64(try high.readVarUInt(max: HLCTimestamp.maxMilliseconds >> 8, "a stamp's high part")) << 8
            guard delta <= HLCTimestamp.maxMilliseconds - milliseconds else {
                throw BinaryDecodingError(.invalidValue, at: highOffset, "a deletion event's stamp passes \(HLCTimestamp.maxMilliseconds) ms")
            }
            milliseconds += delta
            let tick = try counter.readVarUInt(max: UInt64(UInt16.max), "a stamp's counter")
            let deleting = replicas[try readReplicaIndex(&deleter, replicas)]
            let i = try readReplicaIndex(&inserter, replicas)
            let n = try length.readVarUInt(max: UInt64(UInt32.max) - 1, "length of a deleted range") + 1
            let seqOffset = seq.offset
            let step = try seq.readVarInt()
            let (upper, overflow) = previousLower[i].addingReportingOverflow(step)
            guard !overflow, upper >= Int64(n), upper <= Int64(UInt32.max) else {
                throw BinaryDecodingError(.invalidValue, at: seqOffset, "a deleted range of \(n) ids ending at \(upper) is outside 0 ..< 2^32 - 1")
            }
            previousLower[i] = upper - Int64(n)
            let extraOffset = extra.offset
            let size = n + (try extra.readVarUInt(max: 3 * UInt64(n), "extra bytes of a deleted text"))
            textBytes += size
            guard textBytes <= limits.maximumTextBytes else {
                throw BinaryDecodingError(.lengthTooLarge, at: extraOffset, "the deleted text passes the limit of \(limits.maximumTextBytes) bytes")
            }
            let stamp = HLCTimestamp(rawValue: milliseconds << HLCTimestamp.counterBits | UInt64(tick))
            events.append(DeletionEvent(inserter: replicas[i], seqs: UInt32(upper) - UInt32(n)..<UInt32(upper), deleter: deleting,
                                        stamp: stamp, text: []))
            sizes.append(size)
        }
        for column in [high, counter, deleter, inserter, length, seq, extra] { try column.expectEnd("a history column") }
        return try withText(events, sizes: sizes, textBytes: textBytes, from: &reader)
    }
}
