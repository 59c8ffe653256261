import CRDTNoteSupport
import CRDTNote
/// Streaming trace reader: walks the JSON with `JSONScanner` and builds the trace directly,
/// never a `JSONValue` tree (hundreds of thousands of small objects would dominate the time).
extension EditingTrace {
    /// Reads a trace, sequential unless `"kind": "concurrent"`, and validates it: counts and
    /// positions non-negative, parents refer to earlier transactions, agents below `numAgents`.
    public init(jsonBytes: [UInt8]) throws(TraceError) {
        let parsed: Result<RawTrace, TraceError> = jsonBytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, maxDepth: 64)
            do throws(JSONParseError) {
                let raw = try RawTrace.read(&scanner)
                scanner.skipWhitespace()
                guard scanner.isAtEnd else { throw scanner.error("unexpected data after the trace object") }
                return .success(raw)
            } catch {
                return .failure(TraceError("invalid trace JSON: \(error)"))
            }
        }
        self = try parsed.get().validated()
    }
}

/// The trace as read, before validation.
struct RawTrace {
    struct Txn {
        var parents: [Int]?
        var agent: Int?
        /// This transaction's patches in `RawTrace.patches`.
        var patches: Range<Int> = 0..<0
    }

    var kind: String?
    var startContent: String?
    var endContent: String?
    var numAgents: Int?
    var txns: [Txn]?
    /// Every transaction's patches, one after another: one array rather than one per
    /// transaction, which for 260k single-patch transactions is most of the trace's memory.
    var patches: [TracePatch] = []

    static func read(_ s: inout JSONScanner) throws(JSONParseError) -> RawTrace {
        var raw = RawTrace()
        try s.readObject(depth: 0) { (s: inout JSONScanner, key: String) throws(JSONParseError) in
            switch key {
            case "kind": raw.kind = try s.readString()
            case "startContent": raw.startContent = try s.readString()
            case "endContent": raw.endContent = try s.readString()
            case "numAgents": raw.numAgents = try s.readInt("numAgents")
            case "txns":
                var txns: [Txn] = []
                try s.readArray(depth: 1) { (s: inout JSONScanner, _: Int) throws(JSONParseError) in
                    txns.append(try readTxn(&s, into: &raw.patches))
                }
                raw.txns = txns
            default: try s.skipValue(depth: 1)
            }
        }
        return raw
    }

    private static func readTxn(_ s: inout JSONScanner, into patches: inout [TracePatch]) throws(JSONParseError) -> Txn {
        var txn = Txn(patches: patches.count..<patches.count)
        var sawPatches = false
        try s.readObject(depth: 2) { (s: inout JSONScanner, key: String) throws(JSONParseError) in
            switch key {
            case "parents":
                var parents: [Int] = []
                try s.readArray(depth: 3) { (s: inout JSONScanner, _: Int) throws(JSONParseError) in
                    parents.append(try s.readInt("a parent index"))
                }
                txn.parents = parents
            case "agent": txn.agent = try s.readInt("agent")
            case "patches":
                guard !sawPatches else { throw s.error("a transaction has \"patches\" twice") }
                sawPatches = true
                let start = patches.count
                try s.readArray(depth: 3) { (s: inout JSONScanner, _: Int) throws(JSONParseError) in
                    patches.append(try readPatch(&s))
                }
                txn.patches = start..<patches.count
            default: try s.skipValue(depth: 3)
            }
        }
        return txn
    }

    /// Reads `[pos, delCount, insertString]`.
    private static func readPatch(_ s: inout JSONScanner) throws(JSONParseError) -> TracePatch {
        var patch = TracePatch(position: 0, deleteCount: 0, insert: "")
        var count = 0
        let start = s.index
        try s.readArray(depth: 4) { (s: inout JSONScanner, i: Int) throws(JSONParseError) in
            switch i {
            case 0: patch.position = try s.readInt("a patch position")
            case 1: patch.deleteCount = try s.readInt("a patch delete count")
            case 2: patch.insert = try s.readString()
            default: throw s.error("a patch has more than 3 elements")
            }
            count = i + 1
        }
        guard count == 3 else { throw s.error("a patch must be [position, deleteCount, insertString]", at: start) }
        return patch
    }

    func validated() throws(TraceError) -> EditingTrace {
        guard let txns else { throw TraceError("missing \"txns\"") }
        guard let endContent else { throw TraceError("missing \"endContent\"") }
        for (i, txn) in txns.enumerated() {
            for (k, p) in patches[txn.patches].enumerated() where p.position < 0 || p.deleteCount < 0 {
                throw TraceError("txns[\(i)].patches[\(k)]: negative position or delete count")
            }
        }
        switch kind {
        case nil, "sequential"?:
            // A transaction without "patches" has none; it still counts as a transaction.
            return .sequential(SequentialTrace(
                startContent: startContent ?? "", endContent: endContent,
                patches: patches, transactionStarts: txns.map(\.patches.lowerBound)))
        case "concurrent"?:
            guard let numAgents, numAgents > 0 else { throw TraceError("a concurrent trace needs \"numAgents\" > 0") }
            var out: [ConcurrentTrace.Transaction] = []
            out.reserveCapacity(txns.count)
            for (i, txn) in txns.enumerated() {
                guard let parents = txn.parents else { throw TraceError("txns[\(i)]: missing \"parents\"") }
                guard let agent = txn.agent else { throw TraceError("txns[\(i)]: missing \"agent\"") }
                guard agent >= 0, agent < numAgents else {
                    throw TraceError("txns[\(i)]: agent \(agent) is not below numAgents \(numAgents)")
                }
                for (k, p) in parents.enumerated() where p < 0 || p >= i {
                    throw TraceError("txns[\(i)].parents[\(k)]: parent \(p) is not an earlier transaction")
                }
                out.append(ConcurrentTrace.Transaction(parents: parents, agent: agent, patches: Array(patches[txn.patches])))
            }
            return .concurrent(ConcurrentTrace(numAgents: numAgents, endContent: endContent, transactions: out))
        case let other?:
            throw TraceError("unknown trace kind \"\(other)\"")
        }
    }
}
