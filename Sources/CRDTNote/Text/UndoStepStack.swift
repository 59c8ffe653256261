/// A stack of undo (or redo) steps that keeps at most a given number, dropping the oldest.
///
/// Dropping is amortized: the oldest steps are first only hidden (`base` moves up) and removed
/// in one go once as many are hidden as the limit, so pushing onto a full stack does not shift
/// every step each time.
struct UndoStepStack: Sendable {
    private var steps: [UndoStep] = []
    /// Steps below this index are dropped.
    private var base = 0

    init() {}

    var count: Int { steps.count - base }
    var isEmpty: Bool { steps.count == base }
    var last: UndoStep? { isEmpty ? nil : steps[steps.count - 1] }

    /// Pushes `step`, then keeps the newest `limit`.
    mutating func push(_ step: UndoStep, limit: Int) {
        steps.append(step)
        trim(to: limit)
    }

    /// Removes the newest step (the stack must not be empty).
    mutating func removeLast() {
        steps.removeLast()
        if steps.count < base { base = steps.count }
    }

    mutating func removeAll() {
        steps.removeAll(keepingCapacity: true)
        base = 0
    }

    /// Keeps the newest `limit` steps.
    mutating func trim(to limit: Int) {
        if limit <= 0 { removeAll(); return }
        if count > limit { base += count - limit }
        if base >= max(limit, 16) || base == steps.count {
            steps.removeFirst(base)
            base = 0
        }
    }

    /// Changes the newest step in place (the stack must not be empty).
    mutating func modifyLast<R>(_ body: (inout UndoStep) -> R) -> R {
        body(&steps[steps.count - 1])
    }
}
