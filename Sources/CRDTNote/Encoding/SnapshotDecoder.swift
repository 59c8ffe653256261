import CRDTNoteSupport

/// What a snapshot body declares before its runs: the clock table, the visible text (checked
/// and counted) and the run count. A lazy load (``NoteText/init(snapshot:replica:clock:limits:)``)
/// reads this much up front and keeps it; the runs are decoded on first need.
struct SnapshotPrologue: Sendable {
    /// Replica ids, id counts, latest stamps and clock logs.
    var table: ClockTableCoding.Table
    /// The visible text in document order: valid UTF-8, within the text limit (a slice of the payload).
    var text: ArraySlice<UInt8>
    /// Offset of the text's length prefix, for errors about the text.
    var textOffset: Int
    /// Unicode scalars and UTF-16 code units of `text`.
    var scalarCount: Int
    var utf16Count: Int
    /// Runs declared (within the run limit).
    var runCount: Int
    /// The run table's layout: the payload's minimum reader version (1 to 3).
    var layout: UInt16
    /// Format 3: the compaction ledger (nil when empty or absent).
    var ledger: CompactionLedger?
    /// The run table, from its run count to the end of the body.
    var runTable: ByteReader
}

/// Reads a snapshot body back into a document, checking every field: counts against
/// the bytes left and the decoding limits, ids against the replica table, every id
/// present exactly once, text valid UTF-8 and fully used. Never traps.
///
/// Two phases: ``prologue(_:layout:limits:)`` (clock table, text, run count, and for layout 1
/// the column framing: what a lazy load checks up front) and ``runs(_:limits:)`` (the run table
/// in either layout, id tiling, causality, and the index).
struct SnapshotDecoder {
    /// Whether a snapshot payload (header included) is exactly what this library writes in
    /// `format`, so a note loaded from it and never changed may hand it back unchanged: the
    /// same format version and minimum reader version as `PayloadHeader.wrap` writes for it.
    /// Reads only the two version fields: the header was checked when the note was loaded.
    static func writesUnchanged(_ payload: [UInt8], in format: SnapshotFormat) -> Bool {
        guard payload.count >= NoteFormat.headerSize else { return false }
        let version = UInt16(payload[4]) | UInt16(payload[5]) << 8
        let minimumReader = UInt16(payload[6]) | UInt16(payload[7]) << 8
        return version == format.rawValue && minimumReader == format.rawValue
    }

    /// Both phases at once: the whole document, or the first problem found.
    static func decode(_ reader: inout ByteReader, layout: UInt16, limits: NoteLimits) throws(BinaryDecodingError) -> TextSequence {
        try runs(try prologue(&reader, layout: layout, limits: limits), limits: limits)
    }

    /// Reads and checks everything before the runs' contents: the clock table, the text (length
    /// within `limits`, valid UTF-8, counted in the same pass) and the run count (within
    /// `limits`); for layout 1 also the column lengths, which must fill the body exactly with one
    /// flag byte per run.
    static func prologue(_ reader: inout ByteReader, layout: UInt16, limits: NoteLimits) throws(BinaryDecodingError) -> SnapshotPrologue {
        let logLayout: ClockTableCoding.LogLayout = layout >= SnapshotFormat.version6.rawValue ? .columns : .inline
        var table = try ClockTableCoding.read(&reader, withCounts: true, layout: logLayout, limits: limits)
        if logLayout == .columns { try ClockLogColumns.read(&reader, into: &table) }
        for (r, log) in table.logs.enumerated() where (log.last?.seq ?? 0) >= max(table.nextSeq[r], 1) {
            throw BinaryDecodingError(.invalidValue, at: reader.offset, "clock log of replica \(table.replicas[r]) covers ids it does not have")
        }
        let textOffset = reader.offset
        let text = try reader.readLengthPrefixed("text")
        guard text.count <= limits.maximumTextBytes else {
            throw BinaryDecodingError(.lengthTooLarge, at: textOffset, "text of \(text.count) bytes exceeds the limit of \(limits.maximumTextBytes)")
        }
        let counts = text.withUnsafeBufferPointer { UTF8Validation.validateAndCount(in: $0) }
        if let bad = counts.firstInvalidByte {
            throw BinaryDecodingError(.invalidValue, at: reader.absolute(text.startIndex + bad), "text is not valid UTF-8")
        }
        let ledger = layout >= 3
            ? try CompactionLedgerCoding.read(&reader, replicas: table.replicas, nextSeq: table.nextSeq,
                                              listingRepointed: layout >= SnapshotFormat.version7.rawValue, limits: limits) : nil
        let runTable = reader
        let runCount: Int
        if layout >= 2 {
            runCount = try RunColumnsV2Decoder.runCount(&reader, table: table, limits: limits)
        } else {
            runCount = try RunColumnsV1.frame(&reader, limits: limits).runCount
        }
        return SnapshotPrologue(table: table, text: text, textOffset: textOffset, scalarCount: counts.scalars,
                                utf16Count: counts.utf16, runCount: runCount, layout: layout, ledger: ledger, runTable: runTable)
    }

    /// Decodes the run table that `prologue` found and builds the document: every run's flags,
    /// replica, ids, length and origins checked, the text used exactly, the ids of every replica
    /// tiled exactly once, the origins causally ordered, the runs in the order the merge rule gives
    /// them (``IntegrationOrder``).
    static func runs(_ prologue: SnapshotPrologue, limits: NoteLimits) throws(BinaryDecodingError) -> TextSequence {
        let table = prologue.table
        let content = Array(prologue.text)
        var reader = prologue.runTable
        let countOffset = reader.offset
        let runs = prologue.layout >= 2
            ? try RunColumnsV2Decoder.decode(&reader, table: table, content: content, textOffset: prologue.textOffset, limits: limits)
            : try decodeRunsV1(&reader, table: table, content: content, textOffset: prologue.textOffset, limits: limits)
        let (byID, compacted) = try runsInIDOrder(runs, table: table, compactedAllowed: prologue.layout >= 3, at: countOffset)
        if compacted { try checkOriginsHeld(runs, byID: byID, table: table, at: countOffset) }
        try checkCausality(runs, byID: byID, at: countOffset)
        if let violation = IntegrationOrder.firstViolation(runs, byID: byID, replicaIDs: table.replicas) {
            throw BinaryDecodingError(.invalidValue, at: countOffset,
                                      "run \(violation.run) is not where the merge rule places it: \(violation.message)")
        }
        let index = IDIndex(runs, byID: byID, nextSeq: table.nextSeq, slot: { Int32($0 / TextSequence.bulkLeafFill) })
        return TextSequence(replicas: table.replicas, nextSeq: table.nextSeq, latest: table.latest, logs: table.logs,
                            content: content, runs: runs, index: index)
    }

    /// The run table of format version 1 (Docs/FORMAT.md, "Runs, version 1"): six plain columns.
    private static func decodeRunsV1(_ reader: inout ByteReader, table: ClockTableCoding.Table, content: [UInt8], textOffset: Int,
                                     limits: NoteLimits) throws(BinaryDecodingError) -> [Run] {
        let replicaCount = table.replicas.count
        let frame = try RunColumnsV1.frame(&reader, limits: limits)
        let runCount = frame.runCount
        let countOffset = frame.countOffset
        var flags = frame.flags
        var replicaColumn = frame.replicaColumn
        var seqColumn = frame.seqColumn
        var lengthColumn = frame.lengthColumn
        var leftColumn = frame.leftColumn
        var rightColumn = frame.rightColumn
        // Nothing here is sized by the declared id counts: ids are checked run by run, as ranges.
        var runs: [Run] = []
        runs.reserveCapacity(runCount)
        var rightModes: [UInt8] = []
        rightModes.reserveCapacity(runCount)
        var lastSeqEnd = [Int64](repeating: 0, count: replicaCount)
        var replica = 0
        var byte = 0
        for i in 0..<runCount {
            let flagOffset = flags.offset
            let flag = try flags.readByte()
            guard flag & SnapshotFlags.reservedMask == 0 else {
                throw BinaryDecodingError(.invalidValue, at: flagOffset, "run \(i) has reserved flag bits set")
            }
            if flag & SnapshotFlags.explicitReplica != 0 || i == 0 {
                replica = flag & SnapshotFlags.explicitReplica != 0
                    ? try replicaColumn.readVarUInt(max: UInt64(max(replicaCount - 1, 0)), "replica of a run") : 0
            }
            guard replica < replicaCount else {
                throw BinaryDecodingError(.invalidValue, at: flagOffset, "run \(i) names replica \(replica) of \(replicaCount)")
            }
            let seqOffset = seqColumn.offset
            // The delta is any Int64: add with overflow checks, and compare without forming `seq + length`.
            let (seq, seqOverflow) = lastSeqEnd[replica].addingReportingOverflow(try seqColumn.readVarInt())
            let length = Int64(try lengthColumn.readVarUInt(max: UInt64(UInt32.max), "length of a run")) + 1
            guard !seqOverflow, seq >= 0, seq <= Int64(table.nextSeq[replica]) - length else {
                let start = seqOverflow ? "beyond 2^63" : "\(seq)"
                throw BinaryDecodingError(.invalidValue, at: seqOffset, "run \(i) ids \(start) (\(length) of them) are outside replica \(table.replicas[replica])'s \(table.nextSeq[replica])")
            }
            lastSeqEnd[replica] = seq + length
            var run = Run(replica: UInt32(replica), seq: UInt32(seq), length: UInt32(length), utf16: 0,
                          byteStart: UInt32(byte), byteCount: 0, left: .none, right: .none)
            if flag & SnapshotFlags.deleted == 0 { try takeText(for: &run, index: i, content: content, byte: &byte, textOffset: textOffset) }
            run.left = try leftOrigin(mode: (flag >> SnapshotFlags.leftShift) & 3, SnapshotFlags.leftModes, previous: runs.last,
                                      replica: replica, seq: seq, column: &leftColumn, table: table, flagOffset: flagOffset, index: i)
            let rightMode = (flag >> SnapshotFlags.rightShift) & 3
            switch rightMode {
            case SnapshotFlags.rightSameAsPrevious:
                // A previous "next element" origin would be this run itself: never written, refused.
                guard let previous = runs.last, rightModes.last != SnapshotFlags.rightNextElement else {
                    throw BinaryDecodingError(.invalidValue, at: flagOffset, "run \(i) refers to a previous right origin that does not exist")
                }
                run.right = previous.right
            case SnapshotFlags.rightExplicit:
                run.right = try readRef(&rightColumn, table: table, what: "right origin of a run")
            default: break
            }
            rightModes.append(rightMode)
            runs.append(run)
        }
        guard byte == content.count else {
            throw BinaryDecodingError(.invalidValue, at: textOffset, "text has \(content.count - byte) bytes no run uses")
        }
        for column in [replicaColumn, seqColumn, lengthColumn, leftColumn, rightColumn] { try column.expectEnd("column") }
        for i in runs.indices where rightModes[i] == SnapshotFlags.rightNextElement {
            guard i + 1 < runs.count else { throw BinaryDecodingError(.invalidValue, at: countOffset, "last run points to a next element") }
            runs[i].right = ItemRef(replica: runs[i + 1].replica, seq: runs[i + 1].seq)
        }
        return runs
    }

    /// The runs by id, checking that they tile each replica's ids `0..<nextSeq` exactly (no id
    /// twice, none missing), or with `compactedAllowed` (format 3) that they hold each id at most
    /// once, the ids no run holds being compacted (returned: whether there are any). Sorting runs,
    /// not ids, keeps this proportional to the bytes read however many ids the runs declare.
    private static func runsInIDOrder(_ runs: [Run], table: ClockTableCoding.Table, compactedAllowed: Bool,
                                      at offset: Int) throws(BinaryDecodingError) -> (RunsByID, compacted: Bool) {
        let byID = RunsByID(runs, replicaCount: table.replicas.count)
        var compacted = false
        for r in table.replicas.indices {
            var next: UInt32 = 0
            for k in byID.start[r]..<byID.start[r + 1] {
                let seq = byID.seq(k)
                guard seq == next || (seq > next && compactedAllowed) else {
                    let what = seq < next ? "id \(seq) of replica \(table.replicas[r]) appears twice"
                                          : "ids \(next)..<\(seq) of replica \(table.replicas[r]) are in no run"
                    throw BinaryDecodingError(.invalidValue, at: offset, what)
                }
                if seq > next { compacted = true }
                next = runs[byID.index(k)].seqEnd
            }
            if next < table.nextSeq[r] && compactedAllowed { compacted = true; continue }
            guard next == table.nextSeq[r] else {
                throw BinaryDecodingError(.invalidValue, at: offset, "runs cover \(next) of the \(table.nextSeq[r]) ids declared for replica \(table.replicas[r])")
            }
        }
        return (byID, compacted)
    }

    /// Refuses a compacted state (format 3) with an origin naming an id no run holds: compaction
    /// keeps every origin of what stays (Docs/FORMAT.md §4.7), so such a state was not written by
    /// a compaction, and could not be merged. O(log runs) per origin.
    private static func checkOriginsHeld(_ runs: [Run], byID: RunsByID, table: ClockTableCoding.Table,
                                         at offset: Int) throws(BinaryDecodingError) {
        for (i, run) in runs.enumerated() {
            for origin in [run.left, run.right] where !origin.isNone && !byID.holds(origin, in: runs) {
                throw BinaryDecodingError(.invalidValue, at: offset,
                    "run \(i) has an origin naming id \(origin.seq) of replica \(table.replicas[Int(origin.replica)]), which is compacted (held by no run)")
            }
        }
    }

    /// Refuses states whose origins form a cycle: such a state decodes but could never be
    /// merged into another document.
    private static func checkCausality(_ runs: [Run], byID: RunsByID, at offset: Int) throws(BinaryDecodingError) {
        do {
            _ = try CausalOrder.order(queueBounds: byID.start, known: [UInt32](repeating: 0, count: byID.start.count - 1), item: { k in
                let run = runs[byID.index(k)]
                return (run.replica, run.seq, run.length, run.left, run.right)
            }, index: { byID.index($0) })
        } catch {
            throw BinaryDecodingError(.invalidValue, at: offset, "the runs' origins are not causally ordered: \(error.message)")
        }
    }

    /// How a run-table layout numbers the left-origin modes (any other value: explicit, read from the left column).
    struct LeftModes {
        var previousElement: UInt8
        var none: UInt8
        var ownPredecessor: UInt8
    }

    /// The left origin of run `index` (of `replica`, first id `seq`) whose flag says `mode`, shared by
    /// both layouts: the previous run's last element (none for the first run), none, the run's own
    /// predecessor id, or the next reference of `column`.
    static func leftOrigin(mode: UInt8, _ modes: LeftModes, previous: Run?, replica: Int, seq: Int64, column: inout ByteReader,
                           table: ClockTableCoding.Table, flagOffset: Int, index: Int) throws(BinaryDecodingError) -> ItemRef {
        switch mode {
        case modes.previousElement:
            return previous.map { ItemRef(replica: $0.replica, seq: $0.seqEnd - 1) } ?? .none
        case modes.none:
            return .none
        case modes.ownPredecessor:
            guard seq > 0 else { throw BinaryDecodingError(.invalidValue, at: flagOffset, "run \(index) has no predecessor to use as left origin") }
            return ItemRef(replica: UInt32(replica), seq: UInt32(seq - 1))
        default:
            return try readRef(&column, table: table, what: "left origin of a run")
        }
    }

    /// Gives the visible run `run` (run `index` of the table) its text: the next `run.length`
    /// scalars of `content` from `byte`, which moves past them. Shared by both run-table layouts.
    static func takeText(for run: inout Run, index: Int, content: [UInt8], byte: inout Int, textOffset: Int) throws(BinaryDecodingError) {
        let scan = UTF8Counting.scan(content, from: byte, scalars: Int(run.length))
        guard scan.scalars == Int(run.length) else {
            throw BinaryDecodingError(.invalidValue, at: textOffset, "the text ends inside run \(index)")
        }
        run.byteCount = UInt32(scan.end - byte)
        run.utf16 = UInt32(scan.utf16)
        byte = scan.end
    }

    static func readRef(_ reader: inout ByteReader, table: ClockTableCoding.Table, what: String) throws(BinaryDecodingError) -> ItemRef {
        let offset = reader.offset
        let r = try reader.readVarUInt(max: UInt64(max(table.replicas.count - 1, 0)), "origin replica")
        let s = try reader.readVarUInt(max: UInt64(UInt32.max - 1), "origin id")
        guard r < table.replicas.count, (table.nextSeq.isEmpty ? true : s < Int(table.nextSeq[r])) else {
            throw BinaryDecodingError(.invalidValue, at: offset, "\(what) names id \(s) of replica index \(r), which does not exist")
        }
        return ItemRef(replica: UInt32(r), seq: UInt32(s))
    }
}
