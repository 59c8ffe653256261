import CRDTNoteSupport
import CRDTNote
/// Reading a trace's JSON: a ``TraceJSONReader`` walks it once, straight into columns, never
/// building a `JSONValue` tree or a `String` per patch.
extension EditingTrace {
    /// Reads a trace, sequential unless `"kind": "concurrent"`, and validates it: counts and
    /// positions non-negative, parents refer to earlier transactions, agents below `numAgents`.
    public init(jsonBytes: [UInt8]) throws(TraceError) {
        let raw: Result<RawTrace, TraceReadError> = jsonBytes.withUnsafeBufferPointer { buffer in
            RawTrace.read(TraceJSONSource(bytes: buffer))
        }
        self = try RawTrace.traceOrError(raw).validated()
    }
}

/// The trace as read, before validation: patches in columns, and the few per-transaction facts
/// of concurrent traces kept only for the transactions that have them.
struct RawTrace {
    var kind: String?
    var startContent: String?
    var endContent: String?
    var numAgents: Int?
    var sawTxns = false
    /// Every transaction's patches, one after another.
    var columns = TracePatchColumns()
    /// Index in `columns` of each transaction's first patch.
    var starts = IntColumn()
    /// `(transaction, agent)` for each transaction that names its agent, in order.
    var agents: [(txn: Int, agent: Int)] = []
    /// `(transaction, range in parentValues)` for each transaction that lists its parents, in order.
    var parents: [(txn: Int, range: Range<Int>)] = []
    var parentValues: [Int] = []
    /// The first patch with a negative position or delete count (reported after the JSON is read,
    /// so malformed JSON further on still wins, as it would reading the whole file first).
    var firstNegative: (txn: Int, patch: Int)?

    static let topKeys: [[UInt8]] = ["kind", "startContent", "endContent", "numAgents", "txns"].map { Array($0.utf8) }
    static let txnKeys: [[UInt8]] = ["parents", "agent", "patches", "time", "numChildren"].map { Array($0.utf8) }

    /// Reads the whole trace object from `source` and checks nothing follows it.
    static func read(_ source: TraceJSONSource) -> Result<RawTrace, TraceReadError> {
        var reader = TraceJSONReader(source)
        var raw = RawTrace()
        do throws(TraceReadError) {
            try reader.skipByteOrderMark()
            try raw.readTop(&reader)
            guard try reader.skipWhitespace() == nil else {
                throw reader.source.error("unexpected data after the trace object")
            }
            return .success(raw)
        } catch {
            return .failure(error)
        }
    }

    /// A read trace, or the read error as a ``TraceError`` ("invalid trace JSON: ...", or for
    /// the gzip layer the messages `EditingTrace(fileBytes:)` has always used).
    static func traceOrError(_ result: Result<RawTrace, TraceReadError>, maxBytes: Int? = nil) throws(TraceError) -> RawTrace {
        switch result {
        case .success(let raw):
            return raw
        case .failure(.json(let error)):
            throw TraceError(.invalidTrace, "invalid trace JSON: \(error)")
        case .failure(.gzip(let error)):
            if error.code == .outputTooLarge, let maxBytes {
                throw TraceError(.tooLarge, "gzip data decompresses to more than the \(EditingTrace.describe(maxBytes)) limit for a trace",
                                 gzipError: error)
            }
            throw TraceError(.invalidGzip, "invalid gzip data: \(error)", gzipError: error)
        }
    }

    /// The top-level object.
    mutating func readTop(_ r: inout TraceJSONReader) throws(TraceReadError) {
        try r.readObject(depth: 0, keys: Self.topKeys) { (r: inout TraceJSONReader, key: Int?) throws(TraceReadError) in
            switch key {
            case 0: kind = try r.readStringValue()
            case 1: startContent = try r.readStringValue()
            case 2: endContent = try r.readStringValue()
            case 3: numAgents = try r.readInt("numAgents")
            case 4:
                sawTxns = true
                try r.readArray(depth: 1) { (r: inout TraceJSONReader, t: Int) throws(TraceReadError) in
                    try readTxn(&r, index: t)
                }
            default: try r.skipValue(depth: 1)
            }
        }
    }

    /// One transaction object.
    mutating func readTxn(_ r: inout TraceJSONReader, index t: Int) throws(TraceReadError) {
        starts.append(columns.count)
        try r.readObject(depth: 2, keys: Self.txnKeys) { (r: inout TraceJSONReader, key: Int?) throws(TraceReadError) in
            switch key {
            case 0:
                let first = parentValues.count
                try r.readArray(depth: 3) { (r: inout TraceJSONReader, _: Int) throws(TraceReadError) in
                    parentValues.append(try r.readInt("a parent index"))
                }
                parents.append((t, first..<parentValues.count))
            case 1: agents.append((t, try r.readInt("agent")))
            case 2:
                // "patches" comes once (a duplicate key is an error), so this transaction's
                // patches are the ones appended here, right after its start.
                try r.readArray(depth: 3) { (r: inout TraceJSONReader, k: Int) throws(TraceReadError) in
                    try readPatch(&r, txn: t, index: k)
                }
            default: try r.skipValue(depth: 3)
            }
        }
    }

    /// Reads `[pos, delCount, insertString]`, the text straight into `columns.text`.
    mutating func readPatch(_ r: inout TraceJSONReader, txn t: Int, index k: Int) throws(TraceReadError) {
        var position = 0, deleteCount = 0, count = 0
        try r.readArray(depth: 4) { (r: inout TraceJSONReader, i: Int) throws(TraceReadError) in
            switch i {
            case 0: position = try r.readInt("a patch position")
            case 1: deleteCount = try r.readInt("a patch delete count")
            case 2: try r.readString(into: &columns.text, keep: true)
            default: throw r.source.error("a patch has more than 3 elements")
            }
            count = i + 1
        }
        guard count == 3 else {
            throw r.source.error("a patch must be [position, deleteCount, insertString]", at: r.markBefore())
        }
        if firstNegative == nil, position < 0 || deleteCount < 0 { firstNegative = (t, k) }
        columns.appendPatch(position: position, deleteCount: deleteCount)
    }

    /// The trace, once everything read is known to be consistent.
    func validated() throws(TraceError) -> EditingTrace {
        guard sawTxns else { throw TraceError(.invalidTrace, "missing \"txns\"") }
        guard let endContent else { throw TraceError(.invalidTrace, "missing \"endContent\"") }
        if let (t, k) = firstNegative {
            throw TraceError(.invalidTrace, "txns[\(t)].patches[\(k)]: negative position or delete count")
        }
        switch kind {
        case nil, "sequential"?:
            // A transaction without "patches" has none; it still counts as a transaction.
            return .sequential(SequentialTrace(startContent: startContent ?? "", endContent: endContent,
                                               columns: columns, starts: starts))
        case "concurrent"?:
            return .concurrent(try concurrent(endContent: endContent))
        case let other?:
            throw TraceError(.invalidTrace, "unknown trace kind \"\(other)\"")
        }
    }

    /// The transactions as a ``ConcurrentTrace``: each needs parents (earlier ones) and an agent.
    func concurrent(endContent: String) throws(TraceError) -> ConcurrentTrace {
        guard let numAgents, numAgents > 0 else { throw TraceError(.invalidTrace, "a concurrent trace needs \"numAgents\" > 0") }
        var out: [ConcurrentTrace.Transaction] = []
        out.reserveCapacity(starts.count)
        var nextAgent = 0, nextParents = 0
        for i in 0..<starts.count {
            guard nextParents < parents.count, parents[nextParents].txn == i else {
                throw TraceError(.invalidTrace, "txns[\(i)]: missing \"parents\"")
            }
            let txnParents = Array(parentValues[parents[nextParents].range])
            nextParents += 1
            guard nextAgent < agents.count, agents[nextAgent].txn == i else { throw TraceError(.invalidTrace, "txns[\(i)]: missing \"agent\"") }
            let agent = agents[nextAgent].agent
            nextAgent += 1
            guard agent >= 0, agent < numAgents else {
                throw TraceError(.invalidTrace, "txns[\(i)]: agent \(agent) is not below numAgents \(numAgents)")
            }
            for (k, p) in txnParents.enumerated() where p < 0 || p >= i {
                throw TraceError(.invalidTrace, "txns[\(i)].parents[\(k)]: parent \(p) is not an earlier transaction")
            }
            let range = starts[i]..<(i + 1 < starts.count ? starts[i + 1] : columns.count)
            out.append(ConcurrentTrace.Transaction(parents: txnParents, agent: agent, patches: range.map(columns.patch)))
        }
        return ConcurrentTrace(numAgents: numAgents, endContent: endContent, transactions: out)
    }
}
