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

/// A single-writer editing history: replaying `transactions` from `startContent` gives `endContent`.
public struct SequentialTrace: Sendable {
    /// The document before the first transaction.
    public var startContent: String
    /// The document after the last transaction.
    public var endContent: String
    /// Transactions in order; each is a list of patches applied in order.
    public var transactions: [[TracePatch]]

    /// A sequential trace.
    public init(startContent: String, endContent: String, transactions: [[TracePatch]]) {
        self.startContent = startContent
        self.endContent = endContent
        self.transactions = transactions
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
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and where, e.g. "txns[12].parents[0]: parent 12 is not an earlier transaction".
    public var message: String

    /// An error with a message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { "trace error: \(message)" }
}
