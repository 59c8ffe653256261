/// What reverses one undo step, in terms of element ids so it still applies after other
/// devices' edits have moved everything around: this replica's characters to delete (where
/// still visible), and deleted text to bring back as new characters after the element it followed.
struct UndoStep: Sendable {
    /// Sequence numbers of this replica's characters to delete.
    var deletions: [Range<UInt32>] = []
    /// Deleted text to insert again, each piece after the last element it was made of.
    var restorations: [RestorePiece] = []

    var isEmpty: Bool { deletions.isEmpty && restorations.isEmpty }

    /// Empties the step, keeping small storage for the next step made in its place.
    mutating func removeAll() {
        if !deletions.isEmpty { deletions.removeAll(keepingCapacity: deletions.capacity <= 64) }
        if !restorations.isEmpty { restorations.removeAll(keepingCapacity: restorations.capacity <= 64) }
    }

    /// Adds this replica's ids `seqs`, extending the last range when they continue it (typing on).
    mutating func addDeletion(_ seqs: Range<UInt32>) {
        if seqs.isEmpty { return }
        if let last = deletions.last, last.upperBound == seqs.lowerBound {
            deletions[deletions.count - 1] = last.lowerBound..<seqs.upperBound
        } else {
            deletions.append(seqs)
        }
    }

    /// Puts `piece` in front of the step's pieces, joining the first one when it continues it
    /// (ids and bytes).
    mutating func addFrontPiece(_ piece: RestorePiece) {
        if !restorations.isEmpty, restorations[0].canTakeInFront(piece) {
            restorations[0].prepend(piece)
        } else {
            restorations.insert(piece, at: 0)
        }
    }

    /// Where pieces of deleted text go in a step.
    enum Side: Sendable {
        /// In front of the step's pieces, right before the first one in the text (backspacing).
        case front
        /// After the step's pieces, right after the last one in the text (deleting forwards, or
        /// the next stretch of one deletion).
        case back
        /// After the step's pieces, not next to them in the text.
        case apart
    }

    /// Adds a stretch of deleted text on `side`, joining it to its neighbour when
    /// both are next to each other in the text, their ids continue each other and their bytes
    /// do too in the note's content buffer (so a word backspaced letter by letter comes back as
    /// one run). Nothing is copied: pieces point into the content buffer, which only grows.
    mutating func addRestoration(_ stretch: VisibleStretch, on side: Side) {
        switch side {
        case .front:
            addFrontPiece(stretch)
        case .back:
            let piece = stretch
            if let i = restorations.indices.last, piece.canTakeInFront(restorations[i]) {
                restorations[i].append(piece)
            } else {
                restorations.append(piece)
            }
        case .apart:
            restorations.append(stretch)
        }
    }
}

/// Deleted text (valid UTF-8) that undo or redo inserts again, as new characters placed right
/// after `last`, the last element the text was made of (a tombstone by then): a stretch as the
/// deletion recorded it, or several joined (``VisibleStretch/canTakeInFront(_:)``).
typealias RestorePiece = VisibleStretch

/// Where this replica's deleted characters came back: undo and redo restore deleted text as new
/// characters, so an older step naming the old ids must act on the new ones (Yjs keeps the same
/// "redone" links). Each entry maps a range of old sequence numbers to the new ones, one to one.
struct RestoredIDs: Sendable {
    struct Entry: Sendable {
        var old: Range<UInt32>
        var newStart: UInt32
    }

    private(set) var entries: [Entry] = []

    mutating func add(old: Range<UInt32>, newStart: UInt32) {
        entries.append(Entry(old: old, newStart: newStart))
    }

    mutating func removeAll() { entries.removeAll() }

    /// The new ranges that the old ids `seqs` were restored as.
    func replacements(of seqs: Range<UInt32>) -> [Range<UInt32>] {
        var out: [Range<UInt32>] = []
        for e in entries where e.old.overlaps(seqs) {
            let lower = max(e.old.lowerBound, seqs.lowerBound)
            let upper = min(e.old.upperBound, seqs.upperBound)
            out.append(e.newStart &+ (lower &- e.old.lowerBound)..<e.newStart &+ (upper &- e.old.lowerBound))
        }
        return out
    }
}

/// One device's undo and redo stacks for a note, and the grouping of its edits into steps.
/// Local only: never encoded, never merged; a forked copy starts without history.
///
/// Every id it holds belongs to the sequence of the note holding it (ids are never removed from
/// a sequence, and a note's sequence is only ever replaced by making a new note).
struct UndoHistory: Sendable {
    /// Maximum steps kept on each stack; 0 keeps nothing and records nothing.
    private(set) var limit = 0
    private(set) var undoStack = UndoStepStack()
    private(set) var redoStack = UndoStepStack()
    /// Where steps' deleted own characters were brought back (kept while either stack holds steps).
    var restored = RestoredIDs()

    /// How the latest recorded edit can be continued within the same step.
    enum Group: Sendable, Equatable {
        /// The next edit starts a new step.
        case closed
        /// Inserting at this scalar offset continues the step (typing on).
        case typing(end: Int)
        /// Deleting the scalars ending or starting at this offset continues it (backspace, forward delete).
        case deleting(at: Int)
    }

    var group = Group.closed
    /// Content bytes and visible scalars after the latest recorded edit: when they differ at the
    /// next edit, something else (a merge) changed the text in between, and the step ends.
    private var contentMark = 0
    private var scalarMark = 0
    /// This replica's next sequence number when the edit being recorded began.
    private var firstSeq: UInt32 = 0
    /// Ids typed into the newest step and not yet added to it: typing on extends this range,
    /// which joins the step when anything else looks at or changes the stacks.
    private var pendingTyped: Range<UInt32>? = nil
    /// Text backspaced in the newest step and not yet added to it (it goes in front of the
    /// step's pieces), grown one character at a time while backspacing on.
    private var pendingFront: RestorePiece? = nil
    /// Where the text of the deletion being made goes (nil: no deletion is announced).
    private var deletionSide: UndoStep.Side? = nil
    /// The stretches of a deletion backspacing on, until it ends.
    private var frontStretches = DeletedStretches()

    init() {}

    /// Sets the number of steps kept, dropping the oldest beyond it (all of them for 0).
    mutating func setLimit(_ newLimit: Int) {
        flushTyped()
        limit = max(0, newLimit)
        undoStack.trim(to: limit)
        redoStack.trim(to: limit)
        if limit == 0 { group = .closed }
        forgetRestoredIfUnused()
    }

    /// Drops the restored-id links once no step can refer to them.
    private mutating func forgetRestoredIfUnused() {
        if undoStack.isEmpty && redoStack.isEmpty { restored.removeAll() }
    }

    // MARK: Recording local edits

    /// The few numbers of a sequence the grouping looks at, read without handing the whole
    /// sequence around (passing it costs a retain and release of every buffer it holds).
    struct Marks {
        var contentBytes: Int
        var scalars: Int
        /// This replica's next sequence number.
        var nextSeq: UInt32
    }

    /// Records, before it happens, a local edit replacing the visible scalars `range` (inserting
    /// text when `inserts`): opens a new step unless the edit continues the open one, and
    /// announces the deletion, if any, whose text the edit then hands to ``deleted(_:)``.
    @inline(__always)
    mutating func willReplace(_ range: Range<Int>, inserts: Bool, marks: Marks) {
        let unchanged = marks.contentBytes == contentMark && marks.scalars == scalarMark
        var continues = false
        var backspace = false
        if unchanged {
            switch group {
            case .typing(let end): continues = range.isEmpty && inserts && range.lowerBound == end
            case .deleting(let at):
                backspace = range.upperBound == at
                continues = !inserts && (backspace || range.lowerBound == at)
            case .closed: break
            }
        }
        if !continues { openStep() } else if !redoStack.isEmpty { redoStack.removeAll() }
        firstSeq = marks.nextSeq
        if !range.isEmpty { beginDeletion(on: backspace && continues ? .front : .back) }
    }

    /// Records the insertion part of the edit announced by ``willReplace(_:inserts:marks:)``
    /// and how the next edit can continue it.
    @inline(__always)
    mutating func didReplace(_ range: Range<Int>, marks: Marks) {
        if deletionSide != nil { endDeletion() }
        let end = marks.nextSeq
        if end > firstSeq {
            if let pending = pendingTyped, pending.upperBound == firstSeq {
                pendingTyped = pending.lowerBound..<end
            } else {
                flushTyped()
                pendingTyped = firstSeq..<end
            }
            group = .typing(end: range.lowerBound + Int(end - firstSeq))
        } else {
            group = .deleting(at: range.lowerBound)
        }
        contentMark = marks.contentBytes
        scalarMark = marks.scalars
    }

    /// Starts a step of its own for a whole-text update (see ``beginDeletion(on:)`` and
    /// ``finishStep(in:local:)``).
    mutating func beginStep(in sequence: TextSequence, local: UInt32) {
        flushTyped()
        openStep()
        firstSeq = sequence.nextSeq[Int(local)]
    }

    /// Announces a local deletion whose text ``deleted(_:)`` keeps in the open step, until
    /// ``endDeletion()``: after what the step holds (`.apart` from it, or joining its last piece
    /// when the step continues with this deletion: `.back`), or in `.front` of it (backspacing on).
    @inline(__always)
    mutating func beginDeletion(on side: UndoStep.Side) {
        deletionSide = side
    }

    /// Keeps a stretch of text the announced deletion removed (stretches come in document order,
    /// from the deletion's own walk of the tree: ``TextSequence/deleteLocal(_:recording:)``).
    mutating func deleted(_ stretch: VisibleStretch) {
        guard let side = deletionSide else { return }
        if side == .front {
            // They go in front of the step's pieces, each before the ones after it: kept until
            // the deletion ends.
            frontStretches.deleted(stretch)
            return
        }
        flushFront()
        undoStack.modifyLast { $0.addRestoration(stretch, on: side) }
        // The deletion's next stretch follows this one in the text.
        deletionSide = .back
    }

    /// Ends the deletion announced by ``beginDeletion(on:)``.
    @inline(__always)
    mutating func endDeletion() {
        if deletionSide == .front { keepFrontStretches() }
        deletionSide = nil
    }

    /// Puts the stretches of a deletion backspacing on in front of the open step's pieces.
    private mutating func keepFrontStretches() {
        defer { frontStretches.removeAll() }
        guard let firstStretch = frontStretches.first else { return }
        if frontStretches.more.isEmpty {
            // Usually one (a backspace): grows the piece held outside the stack.
            let piece = firstStretch
            if pendingFront == nil {
                pendingFront = piece
                return
            }
            if pendingFront?.canTakeInFront(piece) == true {
                pendingFront?.prepend(piece)
                return
            }
        }
        flushFront()
        let more = frontStretches.more
        undoStack.modifyLast { step in
            for stretch in more.reversed() { step.addRestoration(stretch, on: .front) }
            step.addRestoration(firstStretch, on: .front)
        }
    }

    /// Ends a step begun by ``beginStep(in:local:)``: adds what was inserted and closes the group.
    mutating func finishStep(in sequence: TextSequence, local: UInt32) {
        flushTyped()
        let seqs = firstSeq..<sequence.nextSeq[Int(local)]
        let empty = undoStack.modifyLast { step -> Bool in
            step.addDeletion(seqs)
            return step.isEmpty
        }
        if empty { undoStack.removeLast() }
        group = .closed
    }

    /// Pushes an empty step (dropping the oldest beyond the limit) and clears the redo stack.
    private mutating func openStep() {
        flushTyped()
        if undoStack.lastIsEmpty { undoStack.removeLast() }
        undoStack.pushEmpty(limit: limit)
        if !redoStack.isEmpty { redoStack.removeAll() }
    }

    // MARK: Undo and redo

    /// The step ``NoteText/undo()`` (or, with `redo`, ``NoteText/redo()``) would perform next.
    func next(redo: Bool) -> UndoStep? {
        if redo { return redoStack.last }
        guard var step = undoStack.last else { return nil }
        if let pending = pendingFront { step.addFrontPiece(pending) }
        if let pending = pendingTyped { step.addDeletion(pending) }
        return step
    }

    /// Adds the ids typed on, and the text backspaced, to the newest step.
    private mutating func flushTyped() {
        flushFront()
        guard let pending = pendingTyped else { return }
        pendingTyped = nil
        undoStack.modifyLast { $0.addDeletion(pending) }
    }

    private mutating func flushFront() {
        guard let pending = pendingFront else { return }
        pendingFront = nil
        undoStack.modifyLast { $0.addFrontPiece(pending) }
    }

    /// Removes the step returned by ``next(redo:)`` and, unless it changed nothing, pushes its
    /// inverse on the other stack.
    mutating func performed(redo: Bool, inverse: UndoStep) {
        flushTyped()
        group = .closed
        if redo { redoStack.removeLast() } else { undoStack.removeLast() }
        guard !inverse.isEmpty else { forgetRestoredIfUnused(); return }
        if redo {
            undoStack.push(inverse, limit: limit)
        } else {
            redoStack.push(inverse, limit: limit)
        }
    }
}

extension UndoHistory: DeletionRecorder {}
