/// A stack of undo (or redo) steps that keeps at most a given number, dropping the oldest.
///
/// The steps sit in a ring of slots: pushing onto a full stack overwrites the oldest step's slot
/// instead of shifting every step, and a slot keeps its step's storage after the step is
/// dropped or removed, so opening a step while typing (``pushEmpty(limit:)``) reuses it instead
/// of allocating. At most `limit` slots exist.
struct UndoStepStack: Sendable {
    /// The ring: the oldest step at `start`, the others after it (wrapping around); slots beyond
    /// the `count` steps hold the storage of steps removed earlier.
    private var slots: [HistoryStep] = []
    private var start = 0
    /// Number of steps on the stack.
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }
    /// The newest step.
    var last: HistoryStep? { count == 0 ? nil : slots[slotIndex(count - 1)] }
    /// Whether there is a newest step and it reverses nothing.
    var lastIsEmpty: Bool { count > 0 && slots[slotIndex(count - 1)].isEmpty }

    /// The slot of the `i`th oldest step.
    @inline(__always)
    private func slotIndex(_ i: Int) -> Int {
        let s = start + i
        return s < slots.count ? s : s - slots.count
    }

    /// Pushes `step`, then keeps the newest `limit`.
    mutating func push(_ step: HistoryStep, limit: Int) {
        pushSlot(limit: limit) { $0 = step }
    }

    /// Pushes an empty step, then keeps the newest `limit`.
    mutating func pushEmpty(limit: Int) {
        pushSlot(limit: limit) { $0.removeAll() }
    }

    /// Takes a slot for a new newest step (the oldest step's when `limit` are kept already) and
    /// lets `fill` set it.
    @inline(__always)
    private mutating func pushSlot(limit: Int, fill: (inout HistoryStep) -> Void) {
        guard limit > 0 else { removeAll(); return }
        // At most `limit` slots (``trim(to:)``), so a full stack has every slot in use.
        if count >= limit {
            let oldest = start
            start = slotIndex(1)
            fill(&slots[oldest])
            return
        }
        if count == slots.count {
            if start != 0 { linearize() }
            slots.append(HistoryStep())
        }
        count += 1
        fill(&slots[slotIndex(count - 1)])
    }

    /// Removes the newest step (the stack must not be empty).
    mutating func removeLast() {
        count -= 1
    }

    mutating func removeAll() {
        count = 0
        start = 0
    }

    /// Keeps the newest `limit` steps (and at most `limit` slots).
    mutating func trim(to limit: Int) {
        if limit <= 0 {
            slots = []
            removeAll()
            return
        }
        if count > limit {
            start = slotIndex(count - limit)
            count = limit
        }
        if slots.count > limit { linearize() }
    }

    /// Puts the steps in order in slots of their own, dropping the other slots.
    private mutating func linearize() {
        slots = (0..<count).map { slots[slotIndex($0)] }
        start = 0
    }

    /// Changes the newest step in place (the stack must not be empty).
    @inline(__always)
    mutating func modifyLast<R>(_ body: (inout HistoryStep) -> R) -> R {
        body(&slots[slotIndex(count - 1)])
    }
}
