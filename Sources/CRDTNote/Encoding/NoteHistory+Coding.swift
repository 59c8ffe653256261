import CRDTNoteSupport

/// The history payload (Docs/FORMAT.md §11.2): the 18-byte header with kind 4, then the replica
/// table, the deletion events and one text column holding every event's deleted text, raw or
/// rANS-coded (whichever is smaller). Version 1 writes each event as six varuints, version 2
/// (NoteHistory+Columns.swift) as coded columns. Equal sets of events encode to equal bytes.
extension NoteHistory {
    /// Fewest bytes one encoded version 1 event takes (six one-byte varuints).
    static let minimumEventBytes = 6

    /// The history payload of these events (sorted, repeats dropped) in `format`; version 2
    /// falls back to version 1 for the rare set so regular that it would pass version 2's density
    /// bound (``maximumEventsPerByte``), so whatever is written reads back.
    func encoded(format: HistoryFormat) -> [UInt8] {
        let events = normalized.deletions
        // Version 2 also carries the shadows (§11.6), whose replicas join the table.
        let withShadows = format == .version2 && (!shadows.isEmpty || !shadowStamps.isEmpty)
        let replicas = Set(events.flatMap { [$0.inserter, $0.deleter] }).union(withShadows ? shadowReplicas : [])
            .sorted { $0.rawValue < $1.rawValue }
        var index: [ReplicaID: Int] = [:]
        for (i, replica) in replicas.enumerated() { index[replica] = i }
        var body = ByteWriter(reservingCapacity: 16 + 8 * replicas.count + 12 * events.count)
        body.writeVarUInt(UInt64(replicas.count))
        for replica in replicas { body.writeUInt64LE(replica.rawValue) }
        body.writeVarUInt(UInt64(events.count))
        if format == .version2, let columns = Self.columns(of: events, index: index) {
            body.writeBytes(columns)
            if withShadows { writeShadows(index: index, into: &body) }
            return PayloadHeader.wrap(body.bytes, kind: .history, version: HistoryFormat.version2.minimumReader)
        }
        var previous: UInt64 = 0
        var text: [UInt8] = []
        for event in events {
            body.writeVarUInt(event.stamp.rawValue &- previous)
            previous = event.stamp.rawValue
            body.writeVarUInt(UInt64(index[event.deleter] ?? 0))
            body.writeVarUInt(UInt64(index[event.inserter] ?? 0))
            body.writeVarUInt(UInt64(event.seqs.lowerBound))
            body.writeVarUInt(UInt64(event.seqs.count))
            body.writeVarUInt(UInt64(event.text.count))
            text.append(contentsOf: event.text)
        }
        CodedColumn.write(text, into: &body)
        return PayloadHeader.wrap(body.bytes, kind: .history, version: HistoryFormat.version1.minimumReader)
    }

    /// Decodes every pending payload and unites it with the events; on a failure nothing
    /// changes and the payload stays pending.
    mutating func decodePending(limits: NoteLimits = .default) throws(PayloadError) {
        guard !pending.isEmpty else { return }
        var decoded = NoteHistory()
        for bytes in pending { decoded.formUnion(try NoteHistory(encoded: bytes, limits: limits)) }
        _ = takePending()
        formUnion(decoded)
    }

    /// The events and every pending payload that decodes, united; the payloads that do not
    /// (newer or corrupt) with why, left out.
    func readable(limits: NoteLimits = .default) -> (history: NoteHistory, unreadable: [(bytes: [UInt8], code: PayloadError.Code)]) {
        var united = NoteHistory(deletions: deletions, shadows: shadows, shadowStamps: shadowStamps)
        var unreadable: [(bytes: [UInt8], code: PayloadError.Code)] = []
        for bytes in pending {
            do throws(PayloadError) {
                united.formUnion(try NoteHistory(encoded: bytes, limits: limits))
            } catch {
                unreadable.append((bytes, error.code))
            }
        }
        return (united, unreadable)
    }

    /// Decodes the payloads waiting to be read into these events and shadows, keeping only the
    /// ones that do not decode waiting: what a copy that takes in other copies' histories again
    /// and again does, so each of its writes decodes what arrived since the last, not all of it.
    mutating func absorbReadable(limits: NoteLimits = .default) {
        guard !pending.isEmpty else { return }
        let (united, unreadable) = readable(limits: limits)
        self = united
        for payload in unreadable { addPending(payload.bytes) }
    }

    /// Decodes a history payload, refusing anything beyond `limits` (bytes, replicas, events,
    /// deleted text) before allocating for it.
    ///
    /// Throws ``PayloadError`` `.newerFormat` for a payload needing a newer reader (leave it
    /// alone), `.corrupt` with the offset of the bad field otherwise.
    init(encoded bytes: [UInt8], limits: NoteLimits = .default) throws(PayloadError) {
        var (header, reader) = try PayloadHeader.body(of: bytes, expecting: .history, limits: limits)
        do throws(BinaryDecodingError) {
            let replicas = try Self.readReplicas(&reader, limits: limits)
            let version2 = header.minimumReaderVersion >= HistoryFormat.version2.minimumReader
            let events = version2
                ? try Self.readColumns(&reader, replicas: replicas, limits: limits)
                : try Self.readEvents(&reader, replicas: replicas, limits: limits)
            // Version 2 may end with the shadow section (§11.6).
            if version2, !reader.isAtEnd {
                let (shadows, stamps) = try Self.readShadows(&reader, replicas: replicas, limits: limits)
                self.init(deletions: events, shadows: shadows, shadowStamps: stamps)
            } else {
                self.init(deletions: events)
            }
            try reader.expectEnd("the history")
        } catch {
            throw .corrupt(error)
        }
    }

    /// A version 1 body's events and text column, after the replica table.
    private static func readEvents(_ reader: inout ByteReader, replicas: [ReplicaID], limits: NoteLimits) throws(BinaryDecodingError) -> [DeletionEvent] {
        let count = try reader.readCount("deletion events", minimumBytesEach: minimumEventBytes, limit: limits.maximumHistoryEvents)
        var events: [DeletionEvent] = []
        events.reserveCapacity(count)
        var sizes: [Int] = []
        sizes.reserveCapacity(count)
        var stamp: UInt64 = 0
        var textBytes = 0
        for _ in 0..<count {
            let start = reader.offset
            let (sum, overflow) = stamp.addingReportingOverflow(try reader.readVarUInt())
            guard !overflow else { throw BinaryDecodingError(.invalidValue, at: start, "a deletion event's stamp passes 2^64 - 1") }
            stamp = sum
            let deleter = try readReplica(&reader, replicas)
            let inserter = try readReplica(&reader, replicas)
            let seq = try reader.readVarUInt(max: UInt64(UInt32.max), "seq of a deleted range")
            let lengthOffset = reader.offset
            let length = try reader.readVarUInt(max: UInt64(UInt32.max), "length of a deleted range")
            guard length >= 1, seq + length <= Int(UInt32.max) else {
                throw BinaryDecodingError(.invalidValue, at: lengthOffset, "a deleted range of \(length) ids from seq \(seq) is empty or passes 2^32 - 1")
            }
            let sizeOffset = reader.offset
            let size = try reader.readVarUInt(max: UInt64(4 * length), "byte count of a deleted text")
            guard size >= length else {
                throw BinaryDecodingError(.invalidValue, at: sizeOffset, "\(size) bytes cannot hold \(length) deleted scalars")
            }
            textBytes += size
            guard textBytes <= limits.maximumTextBytes else {
                throw BinaryDecodingError(.lengthTooLarge, at: sizeOffset, "the deleted text passes the limit of \(limits.maximumTextBytes) bytes")
            }
            events.append(DeletionEvent(inserter: inserter, seqs: UInt32(seq)..<UInt32(seq + length), deleter: deleter,
                                        stamp: HLCTimestamp(rawValue: stamp), text: []))
            sizes.append(size)
        }
        return try withText(events, sizes: sizes, textBytes: textBytes, from: &reader)
    }

    /// `events` with their text read from the text column (the events' byte counts, `sizes`,
    /// summing to `textBytes`): each slice strict UTF-8 holding as many scalars as its event has ids.
    static func withText(_ events: [DeletionEvent], sizes: [Int], textBytes: Int,
                         from reader: inout ByteReader) throws(BinaryDecodingError) -> [DeletionEvent] {
        var events = events
        let columnOffset = reader.offset
        var text = try CodedColumn.read(&reader, maximumCount: textBytes, "the deleted text")
        guard text.remaining == textBytes else {
            throw BinaryDecodingError(.invalidValue, at: columnOffset, "the deleted text has \(text.remaining) bytes, the events count \(textBytes)")
        }
        for i in events.indices {
            let slice = try text.readBytes(sizes[i])
            guard UTF8Validation.firstInvalidByte(slice) == nil else {
                throw BinaryDecodingError(.invalidValue, at: columnOffset, "deleted text \(i) is not valid UTF-8")
            }
            let scalars = slice.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            guard scalars == events[i].seqs.count else {
                throw BinaryDecodingError(.invalidValue, at: columnOffset, "deleted text \(i) has \(scalars) scalars for \(events[i].seqs.count) ids")
            }
            events[i].text = Array(slice)
        }
        return events
    }

    /// The replica table: ids strictly increasing as unsigned integers.
    private static func readReplicas(_ reader: inout ByteReader, limits: NoteLimits) throws(BinaryDecodingError) -> [ReplicaID] {
        let start = reader.offset
        let count = try reader.readCount("replicas", minimumBytesEach: 8)
        guard count <= limits.maximumReplicas else {
            throw BinaryDecodingError(.lengthTooLarge, at: start, "\(count) replicas exceed the limit of \(limits.maximumReplicas)")
        }
        var replicas: [ReplicaID] = []
        for _ in 0..<count {
            let offset = reader.offset
            let id = try reader.readUInt64LE()
            guard replicas.last.map({ $0.rawValue < id }) ?? true else {
                throw BinaryDecodingError(.invalidValue, at: offset, "replica ids must be strictly increasing")
            }
            replicas.append(ReplicaID(rawValue: id))
        }
        return replicas
    }

    /// A replica, read as its index into `replicas`.
    private static func readReplica(_ reader: inout ByteReader, _ replicas: [ReplicaID]) throws(BinaryDecodingError) -> ReplicaID {
        replicas[try readReplicaIndex(&reader, replicas)]
    }

    /// A replica index into `replicas` (`invalidValue` at it when beyond the table).
    static func readReplicaIndex(_ reader: inout ByteReader, _ replicas: [ReplicaID]) throws(BinaryDecodingError) -> Int {
        let offset = reader.offset
        let i = try reader.readVarUInt()
        guard i < UInt64(replicas.count) else {
            throw BinaryDecodingError(.invalidValue, at: offset, "replica index \(i) is outside the table of \(replicas.count)")
        }
        return Int(i)
    }
}
