/// The text of one note as a sequence CRDT: copies edited on different devices merge
/// automatically, deterministically, and without losing anyone's characters.
///
/// Each copy belongs to a replica (a writer with its own ``ReplicaID``) and stamps its edits with
/// a hybrid logical clock. Edit it by Unicode-scalar offsets, by UTF-16 offsets (what
/// `NSRange` and `UITextView` use) or by handing it the whole new text; merge other
/// copies in any order, any number of times.
///
/// ```swift
/// var phone = try NoteText("milk", replica: phoneID)     // each device its own ReplicaID
/// var laptop = phone.forked(as: laptopID)
/// try phone.insert("Groceries: ", atScalarOffset: 0)
/// try laptop.setText("milk and eggs")
/// try phone.merge(laptop)
/// try laptop.merge(phone)
/// assert(phone.string == laptop.string)   // "Groceries: milk and eggs"
/// ```
///
/// `NoteText` is a value type with copy-on-write storage; copies are cheap until edited.
public struct NoteText: Sendable {
    @usableFromInline var sequence: TextSequence
    /// The replica this copy's edits are attributed to.
    public let replica: ReplicaID
    /// This copy's hybrid logical clock.
    public internal(set) var clock: HybridLogicalClock
    /// This replica's index in the replica table, once it has edited (a copy that only
    /// reads and merges adds nothing of its own to the state it encodes).
    @usableFromInline var localIndexIfAny: UInt32?
    /// This device's undo and redo steps (empty unless ``undoLimit`` is set; never encoded or merged).
    var undoHistory = UndoHistory()

    /// An empty note edited as `replica`.
    public init(replica: ReplicaID, clock: HybridLogicalClock = HybridLogicalClock()) {
        self.init(sequence: TextSequence(), replica: replica, clock: clock)
    }

    /// A note whose initial text is inserted as one edit by `replica`.
    ///
    /// Throws ``NoteTextError/Code/tooLarge`` when `text` exceeds the note's limits (4 GiB of UTF-8).
    public init(_ text: String, replica: ReplicaID, clock: HybridLogicalClock = HybridLogicalClock()) throws(NoteTextError) {
        self.init(replica: replica, clock: clock)
        if !text.isEmpty { try replaceScalars(in: 0..<0, with: text) }
    }

    @usableFromInline init(sequence: TextSequence, replica: ReplicaID, clock: HybridLogicalClock) {
        self.localIndexIfAny = sequence.replicaIndex[replica]
        self.sequence = sequence
        self.replica = replica
        self.clock = clock
        if let latest = sequence.latestStamp.max(), latest > .zero {
            self.clock.receive(latest)
        }
    }

    /// The same note state, edited from now on as another replica (e.g. on another device).
    /// `replica` must be that writer's own id, never one another writer uses (see ``ReplicaID``).
    public func forked(as replica: ReplicaID, clock: HybridLogicalClock? = nil) -> NoteText {
        NoteText(sequence: sequence, replica: replica, clock: clock ?? self.clock)
    }

    /// The current text.
    public var string: String { sequence.string }

    /// The current text as UTF-8 bytes.
    public var utf8: [UInt8] { sequence.utf8Bytes() }

    /// Length in Unicode scalars.
    public var scalarCount: Int { sequence.scalarCount }

    /// Length in UTF-16 code units.
    public var utf16Count: Int { sequence.utf16Count }

    /// True when no visible character remains.
    public var isEmpty: Bool { sequence.scalarCount == 0 }

    /// Characters each replica has inserted that this copy holds.
    public var version: VersionVector {
        var counts: [ReplicaID: UInt64] = [:]
        for (i, r) in sequence.replicas.enumerated() { counts[r] = UInt64(sequence.nextSeq[i]) }
        return VersionVector(counts)
    }

    /// The latest clock stamp of any edit in this copy (from any replica), if any.
    public var lastModified: HLCTimestamp? {
        sequence.latestStamp.max().flatMap { $0 > .zero ? $0 : nil }
    }

    /// This replica's index, adding it to the replica table on first use (the first edit).
    @usableFromInline mutating func localIndex() -> UInt32 {
        if let index = localIndexIfAny { return index }
        let index = sequence.index(of: replica)
        localIndexIfAny = index
        return index
    }

    /// Number of runs (stretches of characters typed together) in the structure, tombstones included.
    public var runCount: Int { sequence.runCount }
}
