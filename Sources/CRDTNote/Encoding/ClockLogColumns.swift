import CRDTNoteSupport

/// The clock logs of a format 6 snapshot (Docs/FORMAT.md §4.8): every replica's entries, in
/// replica-table order, as a stamp base and four coded columns (``CodedColumn``) instead of two
/// varuints an entry. A log entry of a typing session (about one a second) then costs about a
/// byte and a half instead of five: seq deltas are small, milliseconds deltas of about a second
/// fill one low byte against the base, and counters are 0.
enum ClockLogColumns {
    /// Most entries the section may declare per byte that follows the replica table: coded
    /// columns can make an entry cost a fraction of a byte, so without a bound a few bytes could
    /// declare millions. The writer stores the low-byte column raw (a byte an entry) when its
    /// coded section would pass it, so whatever it writes, it reads.
    static let maximumEntriesPerByte = 4

    /// Most bytes one value takes in each varuint column.
    private enum Width {
        static let seq = 5, stampHigh = 6, counter = 3
    }

    /// Whether `logs` take fewer bytes in columns than inline (formats 1 to 3), counting the
    /// empty ledger a format 6 body carries (a note that needs a ledger anyway loses those three
    /// bytes of the comparison; the choice then depends on the logs alone, so a note loaded
    /// lazily makes it as the decoded note does). A note typed for a while gains several bytes a
    /// second of typing; a note pasted at once (one entry) would lose about ten, and is written in
    /// format 2 or 3 instead.
    static func pay(_ logs: [[ClockLogEntry]]) -> Bool {
        let replicas = logs.indices.map { ReplicaID(rawValue: UInt64($0)) }
        var inline = ByteWriter(), lengths = ByteWriter()
        ClockTableCoding.write(replicas, nextSeq: nil, latest: [], logs: logs, into: &inline)
        ClockTableCoding.write(replicas, nextSeq: nil, latest: [], logs: logs, layout: .columns, into: &lengths)
        var columns = ByteWriter()
        write(logs, into: &columns)
        return columns.count + emptyLedgerBytes < inline.count - lengths.count
    }

    /// An empty compaction ledger's bytes (no devices, an empty cut, no ranges).
    static let emptyLedgerBytes = 3

    /// Appends the section for `logs` (one per replica, in table order).
    static func write(_ logs: [[ClockLogEntry]], into out: inout ByteWriter) {
        let count = logs.reduce(0) { $0 + $1.count }
        let coded = section(logs, rawLowBytes: false)
        // The bound counts the bytes after the table: this section and what follows it.
        out.writeBytes(count <= maximumEntriesPerByte * coded.count ? coded : section(logs, rawLowBytes: true))
    }

    private static func section(_ logs: [[ClockLogEntry]], rawLowBytes: Bool) -> [UInt8] {
        var deltas: [Int64] = []
        var previous: UInt64 = 0
        for log in logs {
            for entry in log {
                deltas.append(Int64(bitPattern: entry.stamp.milliseconds &- previous))
                previous = entry.stamp.milliseconds
            }
        }
        let base = NoteHistory.stampBase(deltas.filter { $0 >= 0 }.map { UInt64($0) })
        var seqs = ByteWriter(), high = ByteWriter(), counters = ByteWriter()
        var low: [UInt8] = []
        low.reserveCapacity(deltas.count)
        var k = 0
        for log in logs {
            var seq: UInt32? = nil
            for entry in log {
                seqs.writeVarUInt(UInt64(seq.map { entry.seq - $0 - 1 } ?? entry.seq))
                seq = entry.seq
                let shifted = deltas[k] &- Int64(base)
                low.append(UInt8(truncatingIfNeeded: shifted))
                high.writeVarInt(shifted >> 8)
                counters.writeVarUInt(UInt64(entry.stamp.counter))
                k += 1
            }
        }
        var out = ByteWriter(reservingCapacity: deltas.count * 2 + 16)
        out.writeVarUInt(base)
        CodedColumn.write(seqs.bytes, into: &out)
        CodedColumn.write(low, into: &out, raw: rawLowBytes)
        CodedColumn.write(high.bytes, into: &out)
        CodedColumn.write(counters.bytes, into: &out)
        return out.bytes
    }

    /// Reads the section into `table.logs` (`table.logLengths` entries per replica), checking
    /// every value: seqs strictly increasing within a replica and below 2^32 − 1, milliseconds
    /// within 0 ..< 2^48, counters at most 65,535, and every column used up.
    static func read(_ reader: inout ByteReader, into table: inout ClockTableCoding.Table) throws(BinaryDecodingError) {
        let countOffset = reader.offset
        let count = table.logLengths.reduce(0, +)
        guard count <= maximumEntriesPerByte * reader.remaining else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset,
                                      "\(count) clock log entries in \(reader.remaining) bytes: more than \(maximumEntriesPerByte) per byte")
        }
        let base = try reader.readVarUInt(max: HLCTimestamp.maxMilliseconds, "the clock logs' stamp base")
        var seqs = try CodedColumn.read(&reader, maximumCount: Width.seq * count, "the clock logs' seqs")
        var low = try CodedColumn.read(&reader, exactly: count, "the clock logs' low bytes", per: "entries")
        var high = try CodedColumn.read(&reader, maximumCount: Width.stampHigh * count, "the clock logs' high parts")
        var counters = try CodedColumn.read(&reader, maximumCount: Width.counter * count, "the clock logs' counters")
        // Deltas lie within ±2^48 and the base below 2^48, so high parts within ±2^41.
        let highest = Int64(1) << 41
        var milliseconds: Int64 = 0
        for (r, length) in table.logLengths.enumerated() {
            var log: [ClockLogEntry] = []
            log.reserveCapacity(length)
            var next: UInt64 = 0
            for _ in 0..<length {
                let seqOffset = seqs.offset
                let (seq, overflow) = next.addingReportingOverflow(try seqs.readVarUInt())
                guard !overflow, seq < UInt64(UInt32.max) else {
                    throw BinaryDecodingError(.invalidValue, at: seqOffset, "a clock log entry of replica \(table.replicas[r]) passes seq 2^32 - 2")
                }
                next = seq + 1
                let highOffset = high.offset
                let lowByte = Int64(try low.readByte())
                let highPart = try high.readVarInt()
                guard highPart >= -highest, highPart < highest else {
                    throw BinaryDecodingError(.invalidValue, at: highOffset, "a clock log stamp's high part \(highPart) is out of range")
                }
                milliseconds += Int64(base) + (highPart << 8 | lowByte)
                guard milliseconds >= 0, UInt64(milliseconds) <= HLCTimestamp.maxMilliseconds else {
                    throw BinaryDecodingError(.invalidValue, at: highOffset, "a clock log stamp of replica \(table.replicas[r]) is outside 0 ..< 2^48 ms")
                }
                let tick = try counters.readVarUInt(max: UInt64(UInt16.max), "a clock log stamp's counter")
                log.append(ClockLogEntry(seq: UInt32(seq),
                                         stamp: HLCTimestamp(rawValue: UInt64(milliseconds) << HLCTimestamp.counterBits | UInt64(tick))))
            }
            table.logs[r] = log
        }
        for column in [seqs, high, counters] { try column.expectEnd("a clock log column") }
    }
}
