import CRDTNoteSupport

/// The body of a `.ledger` journal entry after the note number (Docs/LIBRARY.md, "Layout on
/// disk"): a replica table of its own — count, then per replica its id (`UInt64` LE) and the
/// end of its highest proposed range (`VarUInt`) — then the ledger as a format 3 snapshot holds
/// it (Docs/FORMAT.md §4.7, "Ledger encoding") over that table. The table makes the entry read
/// alone, whatever the note's own replica table is when it is replayed. In library format 7 the
/// ledger's re-pointed ids follow it when there are any (Docs/FORMAT.md §4.7, "Re-pointed right
/// origins"), as a format 7 body lists them; an entry without any ends before them.
enum JournalLedger {
    /// The body for `ledger` (nil: the note has none any more).
    static func encode(_ ledger: CompactionLedger?) -> [UInt8] {
        let ledger = ledger ?? CompactionLedger()
        var ends: [ReplicaID: UInt32] = [:]
        for vector in ledger.seen.values { for id in vector.keys { ends[id] = ends[id] ?? 0 } }
        for id in ledger.cut.keys { ends[id] = ends[id] ?? 0 }
        for (id, ranges) in ledger.proposed { ends[id] = max(ends[id] ?? 0, ranges.map(\.upperBound).max() ?? 0) }
        for (id, ranges) in ledger.repointed { ends[id] = max(ends[id] ?? 0, ranges.map(\.upperBound).max() ?? 0) }
        let replicas = ends.keys.sorted { $0.rawValue < $1.rawValue }
        var out = ByteWriter(reservingCapacity: 16 + replicas.count * 24)
        out.writeVarUInt(UInt64(replicas.count))
        for id in replicas {
            out.writeUInt64LE(id.rawValue)
            out.writeVarUInt(UInt64(ends[id] ?? 0))
        }
        CompactionLedgerCoding.write(ledger, replicas: replicas, listingRepointed: !ledger.repointed.isEmpty, into: &out)
        return out.bytes
    }

    /// The ledger held in `bytes[range]` (nil: an empty one); offsets in errors are offsets of `bytes`.
    static func decode(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryDecodingError) -> CompactionLedger? {
        var reader = ByteReader(bytes, range: range)
        let countOffset = reader.offset
        let count = try reader.readCount("ledger replica count", minimumBytesEach: 9)
        guard count <= NoteLimits.default.maximumReplicas else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset, "\(count) ledger replicas exceed \(NoteLimits.default.maximumReplicas)")
        }
        var replicas: [ReplicaID] = []
        var ends: [UInt32] = []
        for _ in 0..<count {
            let offset = reader.offset
            let id = try reader.readUInt64LE()
            guard replicas.last.map({ id > $0.rawValue }) ?? true else {
                throw BinaryDecodingError(.invalidValue, at: offset, "ledger replica \(ReplicaID(rawValue: id)) is out of order or listed twice")
            }
            replicas.append(ReplicaID(rawValue: id))
            ends.append(UInt32(try reader.readVarUInt(max: UInt64(UInt32.max - 1), "end of the listed ids")))
        }
        var ledger = try CompactionLedgerCoding.read(&reader, replicas: replicas, nextSeq: ends, limits: .default) ?? CompactionLedger()
        if !reader.isAtEnd {
            ledger.repointed = try CompactionLedgerCoding.readRanges(&reader, "re-pointed", replicas: replicas, nextSeq: ends, limits: .default)
        }
        try reader.expectEnd("ledger entry")
        return ledger.isEmpty ? nil : ledger
    }
}
