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
        undoStack.modifyLast { $0.text.addRestoration(stretch, on: side) }
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
            for stretch in more.reversed() { step.text.addRestoration(stretch, on: .front) }
            step.text.addRestoration(firstStretch, on: .front)
        }
    }

    /// Ends a step begun by ``beginStep(in:local:)``: adds what was inserted and closes the group.
    mutating func finishStep(in sequence: TextSequence, local: UInt32) {
        flushTyped()
        let seqs = firstSeq..<sequence.nextSeq[Int(local)]
        let empty = undoStack.modifyLast { step -> Bool in
            step.text.addDeletion(seqs)
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

    /// Makes the open step a text-and-formatting step without ending it: formatting was made on
    /// text it typed (marks toggled at the caret), so undoing it keeps the deleted text's
    /// attributes for when redo brings the text back (``NoteText/undo()``'s combined path).
    mutating func formatOpenStep() {
        guard limit > 0, !undoStack.isEmpty else { return }
        undoStack.modifyLast { if $0.formatting == nil { $0.formatting = FormattingUndoStep() } }
    }

    /// Records a formatting command as a step of its own (`step` restores what it changed), or,
    /// `joiningLastStep`, as the formatting part of the step just recorded (a whole-text update,
    /// ``beginStep(in:local:)``, whose text it formats).
    mutating func recordFormatting(_ step: FormattingUndoStep, joiningLastStep: Bool = false) {
        guard limit > 0, !step.isEmpty else { return }
        flushTyped()
        if joiningLastStep, !undoStack.isEmpty, !undoStack.lastIsEmpty {
            undoStack.modifyLast { $0.formatting = step }
        } else {
            if undoStack.lastIsEmpty { undoStack.removeLast() }
            undoStack.push(HistoryStep(formatting: step), limit: limit)
        }
        if !redoStack.isEmpty { redoStack.removeAll() }
        group = .closed
    }

    // MARK: Undo and redo

    /// The step ``NoteText/undo()`` (or, with `redo`, ``NoteText/redo()``) would perform next.
    func next(redo: Bool) -> HistoryStep? {
        if redo { return redoStack.last }
        guard var step = undoStack.last else { return nil }
        if let pending = pendingFront { step.text.addFrontPiece(pending) }
        if let pending = pendingTyped { step.text.addDeletion(pending) }
        return step
    }

    /// Adds the ids typed on, and the text backspaced, to the newest step.
    private mutating func flushTyped() {
        flushFront()
        guard let pending = pendingTyped else { return }
        pendingTyped = nil
        undoStack.modifyLast { $0.text.addDeletion(pending) }
    }

    private mutating func flushFront() {
        guard let pending = pendingFront else { return }
        pendingFront = nil
        undoStack.modifyLast { $0.text.addFrontPiece(pending) }
    }

    /// Removes the step returned by ``next(redo:)`` and, unless it changed nothing, pushes its
    /// inverse on the other stack.
    mutating func performed(redo: Bool, inverse: HistoryStep) {
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
