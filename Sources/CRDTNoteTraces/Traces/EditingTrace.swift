import CRDTNoteSupport
import CRDTNote
/// One splice of an editing trace: delete `deleteCount` scalars at `position`, then insert
/// `insert` there. Positions and counts are in Unicode scalars.
public struct TracePatch: Hashable, Sendable {
    /// Where the splice starts, in scalars.
    public var position: Int
    /// How many scalars are deleted.
    public var deleteCount: Int
    /// The text inserted at `position`.
    public var insert: String

    /// A patch.
    public init(position: Int, deleteCount: Int, insert: String) {
        self.position = position
        self.deleteCount = deleteCount
        self.insert = insert
    }
}

/// A single-writer editing history: replaying the transactions from `startContent` gives `endContent`.
///
/// Patches are stored column by column (``TracePatchColumns``: positions, delete counts, one
/// UTF-8 buffer of inserted text) with the index where each transaction starts: real traces have
/// hundreds of thousands of one-patch transactions, and a struct with a `String` per patch, or an
/// array per transaction, would take several times the memory.
public struct SequentialTrace: Sendable {
    /// The document before the first transaction.
    public var startContent: String
    /// The document after the last transaction.
    public var endContent: String
    /// Every patch, transaction after transaction.
    let columns: TracePatchColumns
    /// Index in `columns` of each transaction's first patch (non-decreasing, at most `columns.count`).
    let starts: IntColumn

    /// A sequential trace from per-transaction patch lists.
    public init(startContent: String, endContent: String, transactions: [[TracePatch]]) {
        var columns = TracePatchColumns()
        var starts = IntColumn()
        for txn in transactions {
            starts.append(columns.count)
            for patch in txn { columns.append(patch) }
        }
        self.init(startContent: startContent, endContent: endContent, columns: columns, starts: starts)
    }

    /// A sequential trace from its flat form; starts that are out of order or out of range are
    /// clamped, so every patch belongs to exactly one transaction.
    public init(startContent: String, endContent: String, patches: [TracePatch], transactionStarts: [Int]) {
        var columns = TracePatchColumns()
        for patch in patches { columns.append(patch) }
        var starts = IntColumn()
        for start in transactionStarts { starts.append(start) }
        self.init(startContent: startContent, endContent: endContent, columns: columns, starts: starts)
    }

    /// A sequential trace from columns (as read from a file); starts are clamped as above.
    init(startContent: String, endContent: String, columns: TracePatchColumns, starts: IntColumn) {
        self.startContent = startContent
        self.endContent = endContent
        self.columns = columns
        // Parsed traces are in order (checked here, nothing copied); clamp only when they are not.
        var ordered = true
        var previous = 0
        for i in 0..<starts.count {
            guard starts[i] >= previous, starts[i] <= columns.count else {
                ordered = false
                break
            }
            previous = starts[i]
        }
        if ordered {
            self.starts = starts
        } else {
            var clamped = IntColumn()
            previous = 0
            for i in 0..<starts.count {
                previous = min(max(starts[i], previous), columns.count)
                clamped.append(previous)
            }
            self.starts = clamped
        }
    }

    /// Every patch, in order.
    public var patches: TracePatchList { TracePatchList(columns, 0..<columns.count) }

    /// Index in `patches` of each transaction's first patch (non-decreasing).
    public var transactionStarts: [Int] { starts.values }

    /// Number of transactions.
    public var transactionCount: Int { starts.count }

    /// The range in `patches` of transaction `index` (`0..<transactionCount`).
    @inline(__always)
    func patchRange(ofTransaction index: Int) -> Range<Int> {
        starts[index]..<(index + 1 < starts.count ? starts[index + 1] : columns.count)
    }

    /// The transaction holding patch `index` (`0..<patches.count`) and the patch's place in it
    /// (for error messages: a binary search).
    func location(ofPatch index: Int) -> (transaction: Int, patch: Int) {
        var low = 0
        var high = starts.count
        // The last transaction starting at or before `index` (transactions may be empty).
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= index { low = middle + 1 } else { high = middle }
        }
        let t = Swift.max(0, low - 1)
        return (t, index - (starts.count > 0 ? starts[t] : 0))
    }

    /// The patches of transaction `index` (`0..<transactionCount`).
    public func transaction(_ index: Int) -> TracePatchList {
        TracePatchList(columns, patchRange(ofTransaction: index))
    }

    /// Transactions as separate lists (allocates one array per transaction; prefer
    /// `transaction(_:)` or `patches` for large traces).
    public var transactions: [[TracePatch]] {
        (0..<transactionCount).map { Array(transaction($0)) }
    }
}

/// A multi-writer editing history: a DAG of transactions by `numAgents` agents.
public struct ConcurrentTrace: Sendable {
    /// One transaction: the versions it was made on, its author and its patches.
    public struct Transaction: Sendable {
        /// Indexes of earlier transactions merged before this one (empty: the empty document).
        public var parents: [Int]
        /// The authoring agent, `0..<numAgents`.
        public var agent: Int
        /// Patches, positions measured in the document at the merged parents.
        public var patches: [TracePatch]

        /// A transaction.
        public init(parents: [Int], agent: Int, patches: [TracePatch]) {
            self.parents = parents
            self.agent = agent
            self.patches = patches
        }
    }

    /// How many agents wrote.
    public var numAgents: Int
    /// The document after merging everything.
    public var endContent: String
    /// Transactions in a topological order.
    public var transactions: [Transaction]

    /// A concurrent trace.
    public init(numAgents: Int, endContent: String, transactions: [Transaction]) {
        self.numAgents = numAgents
        self.endContent = endContent
        self.transactions = transactions
    }
}

/// An editing trace in the `editing-traces` JSON format (see shared/traces/README.md).
public enum EditingTrace: Sendable {
    /// A single-writer trace.
    case sequential(SequentialTrace)
    /// A multi-writer trace (`"kind": "concurrent"`).
    case concurrent(ConcurrentTrace)
}

/// Why a trace could not be read, naming the transaction (and patch) where it applies.
public struct TraceError: CRDTNoteError {
    /// The class of problem.
    public typealias Code = CRDTNoteErrorCode<TraceError>

    /// The class of problem.
    public var code: Code
    /// What is wrong and where, e.g. "txns[12].parents[0]: parent 12 is not an earlier transaction".
    public var message: String
    /// For a gzipped trace that could not be inflated, the decoder's typed error
    /// (`.outputTooLarge` when the decompressed size is over the limit).
    public var gzipError: BinaryDecodingError?

    /// An error of `code` with a message.
    package init(_ code: Code, _ message: String, gzipError: BinaryDecodingError? = nil) {
        self.code = code
        self.message = message
        self.gzipError = gzipError
    }
}

extension CRDTNoteErrorCode<TraceError> {
    /// The trace file is missing or cannot be read.
    public static var unreadable: Self { Self(rawValue: "unreadable") }
    /// The trace, plain or decompressed, is larger than the limit.
    public static var tooLarge: Self { Self(rawValue: "tooLarge") }
    /// The gzip layer is damaged (``TraceError/gzipError`` says how).
    public static var invalidGzip: Self { Self(rawValue: "invalidGzip") }
    /// The JSON is not a trace: bad JSON, a missing key, a value out of range.
    public static var invalidTrace: Self { Self(rawValue: "invalidTrace") }
    /// A patch or merge of the trace cannot be applied to the note.
    public static var replayFailed: Self { Self(rawValue: "replayFailed") }
}
