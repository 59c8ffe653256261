import CRDTNoteSupport

/// Encodes and decodes a change set body (Docs/FORMAT.md, "Changes body").
enum ChangeSetCoding {
    static let deleted: UInt8 = 1 << 0
    static let leftPrevious: UInt8 = 1 << 1
    static let leftNone: UInt8 = 1 << 2
    static let rightNone: UInt8 = 1 << 3
    static let rightSameAsPrevious: UInt8 = 1 << 4
    static let reservedMask: UInt8 = 0xE0

    /// The minimum reader version of `set`'s body: 3 when it carries compacted ids, 1 otherwise.
    static func readerVersion(of set: ChangeSet) -> UInt16 { set.compacted.isEmpty ? 1 : 3 }

    /// The body of `set`, in the format ``readerVersion(of:)`` says; with `listingCompacted`,
    /// the compacted ids' list is written even when empty (format 5, where more follows it).
    static func encode(_ set: ChangeSet, listingCompacted: Bool = false) -> [UInt8] {
        var out = ByteWriter(reservingCapacity: set.content.count + set.inserts.count * 6 + set.deletes.count * 4 + 64)
        ClockTableCoding.write(set.replicas, nextSeq: nil, latest: set.latestStamps, logs: set.clockLogs, into: &out)
        out.writeLengthPrefixed(set.content)
        out.writeVarUInt(UInt64(set.inserts.count))
        var previous: ChangeSet.Insert? = nil
        for ins in set.inserts {
            var flag: UInt8 = ins.byteCount == 0 ? deleted : 0
            let previousEnd = previous.map { ItemRef(replica: $0.replica, seq: $0.seq + $0.length - 1) }
            if ins.left.isNone { flag |= leftNone } else if ins.left == previousEnd { flag |= leftPrevious }
            if ins.right.isNone { flag |= rightNone } else if let previous, ins.right == previous.right { flag |= rightSameAsPrevious }
            out.writeByte(flag)
            out.writeVarUInt(UInt64(ins.replica))
            out.writeVarUInt(UInt64(ins.seq))
            out.writeVarUInt(UInt64(ins.length - 1))
            if flag & (leftNone | leftPrevious) == 0 {
                out.writeVarUInt(UInt64(ins.left.replica))
                out.writeVarUInt(UInt64(ins.left.seq))
            }
            if flag & (rightNone | rightSameAsPrevious) == 0 {
                out.writeVarUInt(UInt64(ins.right.replica))
                out.writeVarUInt(UInt64(ins.right.seq))
            }
            previous = ins
        }
        writeRanges(set.deletes, into: &out)
        // Format 3: the sender's compacted ids the receiver has not seen (Docs/FORMAT.md §5).
        if !set.compacted.isEmpty || listingCompacted { writeRanges(set.compacted, into: &out) }
        return out.bytes
    }

    /// Reads a body whose payload declares minimum reader `layout` (3 or 4: compacted ids may
    /// follow the deletions; none when the body ends there; 5 and above: the compacted ids' list
    /// always follows, and the reader is left after it, where the formatting follows, §5).
    static func decode(_ reader: inout ByteReader, layout: UInt16, limits: NoteLimits) throws(BinaryDecodingError) -> ChangeSet {
        var set = ChangeSet()
        let table = try ClockTableCoding.read(&reader, withCounts: false, limits: limits)
        set.replicas = table.replicas
        set.latestStamps = table.latest
        set.clockLogs = table.logs
        let n = table.replicas.count
        let contentOffset = reader.offset
        let content = try reader.readLengthPrefixed("content")
        guard content.count <= limits.maximumTextBytes else {
            throw BinaryDecodingError(.lengthTooLarge, at: contentOffset, "content of \(content.count) bytes exceeds the limit of \(limits.maximumTextBytes)")
        }
        if let bad = UTF8Validation.firstInvalidByte(content) {
            throw BinaryDecodingError(.invalidValue, at: bad, "content is not valid UTF-8")
        }
        set.content = Array(content)
        let countOffset = reader.offset
        let count = try reader.readCount("insert count", minimumBytesEach: 4)
        guard count <= limits.maximumRuns else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset, "\(count) inserts exceed the limit of \(limits.maximumRuns) runs")
        }
        var byte = 0
        var total = 0
        var previous: ChangeSet.Insert? = nil
        set.inserts.reserveCapacity(count)
        for i in 0..<count {
            let offset = reader.offset
            let flag = try reader.readByte()
            guard flag & reservedMask == 0, flag & (leftNone | leftPrevious) != (leftNone | leftPrevious) else {
                throw BinaryDecodingError(.invalidValue, at: offset, "insert \(i) has invalid flags")
            }
            let replica = try reader.readVarUInt(max: UInt64(max(n - 1, 0)), "replica of a insert")
            let seq = try reader.readVarUInt(max: UInt64(UInt32.max - 1), "id of a insert")
            let length = try reader.readVarUInt(max: UInt64(UInt32.max - 1), "length of a insert") + 1
            guard n > 0, seq + length < Int(UInt32.max) else {
                throw BinaryDecodingError(.invalidValue, at: offset, "insert \(i) has an invalid id range")
            }
            total += length
            guard total <= limits.maximumElements else {
                throw BinaryDecodingError(.lengthTooLarge, at: offset, "more than \(limits.maximumElements) inserted elements")
            }
            var ins = ChangeSet.Insert(replica: UInt32(replica), seq: UInt32(seq), length: UInt32(length), left: .none, right: .none,
                                       byteStart: UInt32(byte), byteCount: 0, utf16: 0)
            if flag & leftPrevious != 0 {
                guard let previous else { throw BinaryDecodingError(.invalidValue, at: offset, "insert 0 refers to a previous insert") }
                ins.left = ItemRef(replica: previous.replica, seq: previous.seq + previous.length - 1)
            } else if flag & leftNone == 0 {
                ins.left = try ref(&reader, n: n, "left origin of an insert")
            }
            if flag & rightSameAsPrevious != 0 && flag & rightNone == 0 {
                guard let previous else { throw BinaryDecodingError(.invalidValue, at: offset, "insert 0 refers to a previous insert") }
                ins.right = previous.right
            } else if flag & rightNone == 0 {
                ins.right = try ref(&reader, n: n, "right origin of an insert")
            }
            if flag & deleted == 0 {
                let scan = UTF8Counting.scan(set.content, from: byte, scalars: length)
                guard scan.scalars == length else { throw BinaryDecodingError(.invalidValue, at: offset, "content ends inside insert \(i)") }
                ins.byteCount = UInt32(scan.end - byte)
                ins.utf16 = UInt32(scan.utf16)
                byte = scan.end
            }
            set.inserts.append(ins)
            previous = ins
        }
        guard byte == set.content.count else {
            throw BinaryDecodingError(.invalidValue, at: contentOffset, "content has \(set.content.count - byte) bytes no insert uses")
        }
        set.deletes = try readRanges(&reader, replicas: n, what: "deletion", limits: limits)
        if layout >= NoteChanges.formattingReader {
            set.compacted = try readRanges(&reader, replicas: n, what: "compacted range", limits: limits)
            return set
        }
        if layout >= 3 && reader.remaining > 0 {
            set.compacted = try readRanges(&reader, replicas: n, what: "compacted range", limits: limits)
        }
        try reader.expectEnd("changes")
        return set
    }

    /// Id ranges sorted by (replica, seq): their count, then per range the replica, the first id
    /// (from the end of the previous range of the same replica) and the length minus one.
    private static func writeRanges(_ ranges: [ChangeSet.Delete], into out: inout ByteWriter) {
        out.writeVarUInt(UInt64(ranges.count))
        var last = (replica: UInt32(0), end: UInt32(0))
        for d in ranges {
            out.writeVarUInt(UInt64(d.replica))
            let base = d.replica == last.replica ? last.end : 0
            out.writeVarUInt(UInt64(d.seq - base))
            out.writeVarUInt(UInt64(d.length - 1))
            last = (d.replica, d.seq + d.length)
        }
    }

    private static func readRanges(_ reader: inout ByteReader, replicas n: Int, what: String,
                                   limits: NoteLimits) throws(BinaryDecodingError) -> [ChangeSet.Delete] {
        let countOffset = reader.offset
        let count = try reader.readCount("\(what) count", minimumBytesEach: 3)
        guard count <= limits.maximumRuns else {
            throw BinaryDecodingError(.lengthTooLarge, at: countOffset, "\(count) \(what)s exceed the limit of \(limits.maximumRuns) runs")
        }
        var ranges: [ChangeSet.Delete] = []
        var last = (replica: 0, end: 0)
        for i in 0..<count {
            let offset = reader.offset
            let replica = try reader.readVarUInt(max: UInt64(max(n - 1, 0)), "replica of a \(what)")
            let base = replica == last.replica ? last.end : 0
            let seq = base + (try reader.readVarUInt(max: UInt64(UInt32.max - 1), "id of a \(what)"))
            let length = try reader.readVarUInt(max: UInt64(UInt32.max - 1), "length of a \(what)") + 1
            guard n > 0, seq + length < Int(UInt32.max) else {
                throw BinaryDecodingError(.invalidValue, at: offset, "\(what) \(i) has an invalid id range")
            }
            ranges.append(ChangeSet.Delete(replica: UInt32(replica), seq: UInt32(seq), length: UInt32(length)))
            last = (replica, seq + length)
        }
        return ranges
    }

    private static func ref(_ reader: inout ByteReader, n: Int, _ what: String) throws(BinaryDecodingError) -> ItemRef {
        let r = try reader.readVarUInt(max: UInt64(max(n - 1, 0)), "origin replica")
        let s = try reader.readVarUInt(max: UInt64(UInt32.max - 1), "origin id")
        return ItemRef(replica: UInt32(r), seq: UInt32(s))
    }
}
