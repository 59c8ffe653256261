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
///
/// A note loaded from a snapshot (``init(snapshot:replica:clock:limits:)``) reads its text and
/// counts straight from the payload and builds its CRDT index on the first edit, merge or
/// position lookup; see that initializer for what is checked when.
public struct NoteText: Sendable {
    /// The CRDT index; empty while `deferred` is set. Every mutating entry point calls
    /// ``buildIndex()`` before touching it; reads of a note that may still be deferred go
    /// through ``loadedSequence()`` or the prologue's facts (``scalarCount``, ``version``...).
    /// Every mutation that changes the text calls ``textChanged()`` after it, or (a local edit)
    /// ``textWillChange(replacing:with:)`` right before it (not an observer: `didSet` here cost
    /// every keystroke of a plain note 16 instructions).
    @usableFromInline var sequence: TextSequence
    /// Set for a note loaded from a snapshot whose index has not been built in this copy yet.
    /// `@usableFromInline` (like the counts it answers) so the count getters stay inlinable
    /// into other modules: a getter call copies the note's fields (see ``TextSequence``).
    @usableFromInline var deferred: DeferredSequence?
    /// The replica this copy's edits are attributed to.
    public let replica: ReplicaID
    /// This copy's hybrid logical clock.
    public internal(set) var clock: HybridLogicalClock
    /// This replica's index in the replica table, once it has edited (a copy that only
    /// reads and merges adds nothing of its own to the state it encodes).
    @usableFromInline var localIndexIfAny: UInt32?
    /// What this note's copies have seen, for compaction (format 3; nil until the sync layer
    /// records something, and for notes that never had a ledger).
    var ledger: CompactionLedger?
    /// This device's undo and redo steps (empty unless ``undoLimit`` is set; never encoded or merged).
    var undoHistory = UndoHistory()
    /// Most elements (ids ever inserted, tombstones included) local edits may grow the note to:
    /// ``NoteLimits/maximumElements`` of the limits it was loaded with
    /// (``init(snapshot:replica:clock:limits:)``), of the defaults otherwise. Forks keep it.
    var maximumElements = NoteLimits.default.maximumElements
    /// The note's formatting operations (Docs/FORMAT.md §10); empty for a plain note. Merged
    /// with the text, stored beside the payload (the record's `formatting` field), not in it.
    var formatting = NoteFormatting() {
        didSet { resetAttributeCache() }
    }
    /// The formatted text's attributes index, filled on reading (``attributeRuns()``); nil
    /// exactly when ``formatting`` is empty, so plain notes pay one comparison per edit.
    var attributeCache: AttributeCache?
    /// What this copy keeps of the note's past (deletions with their stamps and text,
    /// Docs/FORMAT.md §11): logged by local deletions, united by merges, stored beside the
    /// payload (the record's `history` field), never read when the note loads.
    var history = NoteHistory()
    /// Whether this copy keeps history, and how much of it when it writes the note's record:
    /// nil (the default) logs no deletion, so editing costs what it did; a policy (usually
    /// ``HistoryRetention/default``) logs every local deletion with its time and text, for
    /// ``text(at:)``. History merged in from other copies is kept either way. Forks keep it;
    /// never encoded.
    public var historyRetention: HistoryRetention?

    /// An empty note edited as `replica`.
    public init(replica: ReplicaID, clock: HybridLogicalClock = HybridLogicalClock()) {
        self.init(sequence: TextSequence(), replica: replica, clock: clock)
    }

    /// A note whose initial text is inserted as one edit by `replica`.
    ///
    /// Throws ``NoteTextError/Code/tooLarge`` when `text` has more Unicode scalars than
    /// ``NoteLimits/default``'s ``NoteLimits/maximumElements`` (2^26).
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

    /// A note whose index is built from `deferred` on first need.
    init(deferred: DeferredSequence, replica: ReplicaID, clock: HybridLogicalClock) {
        self.localIndexIfAny = deferred.replicas.firstIndex(of: replica).map { UInt32($0) }
        self.sequence = TextSequence()
        self.deferred = deferred
        self.replica = replica
        self.clock = clock
        if let latest = deferred.latestStamp.max(), latest > .zero {
            self.clock.receive(latest)
        }
    }

    /// The same note state, edited from now on as another replica (e.g. on another device).
    /// `replica` must be that writer's own id, never one another writer uses (see ``ReplicaID``).
    /// A copy of a note loaded from a snapshot shares the not yet built index with it.
    public func forked(as replica: ReplicaID, clock: HybridLogicalClock? = nil) -> NoteText {
        var fork = deferred.map { NoteText(deferred: $0, replica: replica, clock: clock ?? self.clock) }
            ?? NoteText(sequence: sequence, replica: replica, clock: clock ?? self.clock)
        fork.maximumElements = maximumElements
        fork.ledger = ledger
        fork.formatting = formatting
        fork.history = history
        fork.historyRetention = historyRetention
        return fork
    }

    /// The index, built from the loaded snapshot if need be (and then kept for every copy of it),
    /// without changing this copy; throws when the snapshot's runs are corrupt.
    func loadedSequence() throws(BinaryDecodingError) -> TextSequence {
        guard let deferred else { return sequence }
        return try deferred.sequence()
    }

    /// Builds this copy's index from the loaded snapshot (nothing to do otherwise). Throws,
    /// changing nothing, when the snapshot's runs are corrupt.
    mutating func buildIndex() throws(BinaryDecodingError) {
        guard var box = deferred else { return }
        deferred = nil
        do {
            sequence = isKnownUniquelyReferenced(&box) ? try box.takeSequence() : try box.sequence()
        } catch {
            deferred = box
            throw error
        }
    }

    /// ``buildIndex()`` for local edits: a corrupt snapshot is ``NoteTextError/Code/corruptSnapshot``.
    mutating func buildIndexForEdit() throws(NoteTextError) {
        do {
            try buildIndex()
        } catch {
            throw NoteTextError(corruptSnapshot: error)
        }
    }

    /// The current text.
    public var string: String {
        if let deferred { return String(decoding: deferred.text, as: UTF8.self) }
        return sequence.string
    }

    /// The current text as UTF-8 bytes.
    public var utf8: [UInt8] {
        if let deferred { return Array(deferred.text) }
        return sequence.utf8Bytes()
    }

    /// At least the first `maxBytes` UTF-8 bytes of the text (all of it when shorter), possibly
    /// a little more (whole runs); always cut between scalars. Costs what it reads.
    package func utf8Prefix(maxBytes: Int) -> [UInt8] {
        if let deferred {
            var end = deferred.text.startIndex + min(maxBytes, deferred.text.count)
            // Back off to a scalar boundary: continuation bytes are 10xxxxxx.
            while end < deferred.text.endIndex, end > deferred.text.startIndex, deferred.text[end] & 0xC0 == 0x80 { end -= 1 }
            return Array(deferred.text[..<end])
        }
        return sequence.utf8Prefix(maxBytes: maxBytes)
    }

    /// Length in Unicode scalars.
    public var scalarCount: Int { deferred?.scalarCount ?? sequence.scalarCount }

    /// Length in UTF-16 code units.
    public var utf16Count: Int { deferred?.utf16Count ?? sequence.utf16Count }

    /// True when no visible character remains.
    public var isEmpty: Bool { scalarCount == 0 }

    /// Replica table: document-local index to replica id (the same before and after the index is built).
    var replicaTable: [ReplicaID] { deferred?.replicas ?? sequence.replicas }
    /// Per replica (parallel to `replicaTable`): ids this copy holds.
    var idCounts: [UInt32] { deferred?.nextSeq ?? sequence.nextSeq }
    /// Per replica: the latest stamp of any of its operations.
    var latestStamps: [HLCTimestamp] { deferred?.latestStamp ?? sequence.latestStamp }
    /// Per replica: stamps of its insertions.
    var clockLogs: [ClockLog] { deferred?.clockLog ?? sequence.clockLog }

    /// Characters each replica has inserted that this copy holds, and the latest formatting
    /// operation of each replica it holds (what ``changes(since:)`` needs of the other copy).
    public var version: VersionVector {
        var counts: [ReplicaID: UInt64] = [:]
        let counted = idCounts
        for (i, r) in replicaTable.enumerated() { counts[r] = UInt64(counted[i]) }
        return VersionVector(counts, formattingStamps: formatting.latestByAuthor)
    }

    /// The latest clock stamp of any edit in this copy (from any replica), if any.
    public var lastModified: HLCTimestamp? {
        latestStamps.max().flatMap { $0 > .zero ? $0 : nil }
    }

    /// This replica's index, adding it to the replica table on first use (the first edit).
    @usableFromInline mutating func localIndex() -> UInt32 {
        if let index = localIndexIfAny { return index }
        let index = sequence.index(of: replica)
        localIndexIfAny = index
        return index
    }

    /// Number of runs (stretches of characters typed together) in the structure, tombstones included.
    package var runCount: Int { deferred?.runCount ?? sequence.runCount }
}
