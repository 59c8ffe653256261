/// Where the bytes of a note's snapshot payload go, part by part (Docs/FORMAT.md §4): what
/// `crdtnote-bench growth` reports for each checkpoint, so a change in size can be traced to
/// the text, the clock logs, the ledger or the runs. The parts add up to ``total``.
package struct PayloadBreakdown: Sendable {
    /// The payload header.
    package var header = 0
    /// The replica table without its clock-log entries: ids, id counts, latest stamps, log lengths.
    package var replicaTable = 0
    /// The clock-log entries of every replica, and their number.
    package var clockLogBytes = 0
    package var clockLogEntries = 0
    /// The visible text's UTF-8 bytes, and the text field (with its length).
    package var visibleBytes = 0
    package var textField = 0
    /// The ledger (format 3; 0 otherwise), and the part of it that is seen vectors and the cut.
    package var ledger = 0
    package var ledgerVectors = 0
    /// The run table (count and columns), and per column (``RunColumnsV2/Column`` order, as
    /// written; empty for a version 1 run table).
    package var runTable = 0
    package var runColumns: [(name: String, bytes: Int)] = []
    /// Runs of visible text and of tombstones, and the deleted ids the tombstone runs hold.
    package var visibleRuns = 0
    package var tombstoneRuns = 0
    package var tombstones = 0
    /// Of the tombstone runs, how many a compaction of every tombstone would keep if only left
    /// origins were followed (the visible text's left origins name them, directly or through
    /// other tombstones): the others stay because right origins name them (FORMAT.md §4.7).
    package var tombstoneRunsByLeftOrigins = 0
    /// Of the tombstone runs, how many are inner members of linear group chains
    /// (``GroupChains``), and what the run table (version 2) would take without them, their
    /// chains' first runs naming the last member: a measure of what re-pointing right origins
    /// would save, not a payload (0 and ``runTable`` when there is no such chain).
    package var tombstoneRunsInChains = 0
    package var runTableWithoutChains = 0
    /// Of a compacted note's tombstone runs left without the chains, how many re-parenting text
    /// would drop (``Reparenting``), and what the run table (version 2) would take without them
    /// too: a measure of what re-parenting would save, not a payload (0 and
    /// ``runTableWithoutChains`` for a note that is not compacted).
    package var tombstoneRunsReparentable = 0
    package var runTableReparented = 0
    /// What the run table would take (version 2) with the runs of visible text alone: the runs'
    /// share of a payload that kept no tombstone (no reader accepts it when the visible text names
    /// tombstones; a measure, not a payload).
    package var visibleRunTable = 0

    package var total: Int { header + replicaTable + clockLogBytes + textField + ledger + runTable }
}

extension NoteText {
    /// The parts of ``encodedSnapshot(format:)``'s payload for this note (the same format
    /// choice). Throws when the note was loaded from a snapshot whose runs prove corrupt.
    package func payloadBreakdown(format asked: SnapshotFormat) throws(BinaryDecodingError) -> PayloadBreakdown {
        let seq = try loadedSequence()
        let compacted = seq.hasCompactedIDs || ledger != nil
        let format = asked.written(compacted: compacted, repointed: ledger?.repointed.isEmpty == false) { ClockLogColumns.pay(seq.clockLog.map(\.entries)) }
        var parts = PayloadBreakdown()
        parts.header = NoteFormat.headerSize
        let logs = seq.clockLog.map(\.entries)
        var table = ByteWriter()
        ClockTableCoding.write(seq.replicas, nextSeq: seq.nextSeq, latest: seq.latestStamp, logs: logs.map { _ in [] }, into: &table)
        var withLogs = ByteWriter()
        if format.rawValue >= SnapshotFormat.version6.rawValue {
            // The table holds each log's length; the entries follow it.
            table = ByteWriter()
            ClockTableCoding.write(seq.replicas, nextSeq: seq.nextSeq, latest: seq.latestStamp, logs: logs, layout: .columns, into: &table)
            withLogs = table
            ClockLogColumns.write(logs, into: &withLogs)
        } else {
            ClockTableCoding.write(seq.replicas, nextSeq: seq.nextSeq, latest: seq.latestStamp, logs: logs, into: &withLogs)
        }
        parts.replicaTable = table.count
        parts.clockLogBytes = withLogs.count - table.count
        parts.clockLogEntries = logs.reduce(0) { $0 + $1.count }
        let text = seq.utf8Bytes()
        var field = ByteWriter()
        field.writeLengthPrefixed(text)
        parts.visibleBytes = text.count
        parts.textField = field.count
        if format.rawValue >= 3 {
            var out = ByteWriter()
            CompactionLedgerCoding.write(ledger, replicas: seq.replicas, listingRepointed: format.rawValue >= SnapshotFormat.version7.rawValue, into: &out)
            parts.ledger = out.count
            var vectors = ledger ?? CompactionLedger()
            vectors.proposed = [:]
            vectors.repointed = [:]
            var vectorsOut = ByteWriter()
            CompactionLedgerCoding.write(vectors, replicas: seq.replicas, listingRepointed: format.rawValue >= SnapshotFormat.version7.rawValue, into: &vectorsOut)
            parts.ledgerVectors = vectorsOut.count - 1
        }
        let runs = seq.runsInOrder()
        for run in runs {
            if run.isDeleted {
                parts.tombstoneRuns += 1
                parts.tombstones += Int(run.length)
            } else {
                parts.visibleRuns += 1
            }
        }
        parts.tombstoneRunsByLeftOrigins = seq.tombstoneRunsKeptByLeftOrigins()
        // A version 2 run table: the run count, then the columns as written.
        func runTableSize(_ runs: [Run]) -> (bytes: Int, columns: [[UInt8]]) {
            var count = ByteWriter()
            count.writeVarUInt(UInt64(runs.count))
            let columns = RunColumnsV2Encoder.codedColumns(runs, replicaCount: seq.replicas.count)
            return (count.count + columns.reduce(0) { $0 + $1.count }, columns)
        }
        parts.visibleRunTable = runTableSize(runs.filter { !$0.isDeleted }).bytes
        if format.rawValue >= 2 {
            let (bytes, columns) = runTableSize(runs)
            parts.runColumns = zip(RunColumnsV2.Column.allCases, columns).map { ($0.name, $1.count) }
            parts.runTable = bytes
        } else {
            parts.runTable = SnapshotEncoder.encode(seq, format: format).count - withLogs.count - field.count - parts.ledger
        }
        parts.runTableWithoutChains = parts.runTable
        var withoutChains = runs
        if let chains = GroupChains.repointed(runs, replicaCount: seq.replicas.count, replicaIDs: seq.replicas, droppable: { _ in true }),
           chains.dropped > 0 {
            parts.tombstoneRunsInChains = chains.dropped
            parts.runTableWithoutChains = runTableSize(chains.runs).bytes
            withoutChains = chains.runs
        }
        parts.runTableReparented = parts.runTableWithoutChains
        // Only of a compacted note: an uncompacted one first drops what nothing names.
        if seq.hasCompactedIDs {
            let reparented = Reparenting.reparented(withoutChains, replicaCount: seq.replicas.count, replicaIDs: seq.replicas,
                                                    skipsRightOrigins: true)
            parts.tombstoneRunsReparentable = reparented.dropped
            if reparented.dropped > 0 { parts.runTableReparented = runTableSize(reparented.runs).bytes }
        }
        return parts
    }
}
