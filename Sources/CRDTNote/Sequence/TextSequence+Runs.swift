/// The runs in document order, for the layers above (the snapshot encoder, canonical
/// stretches, limit checks), which never walk the leaves themselves.
extension TextSequence {
    /// Every run, tombstones included, in document order.
    func runsInOrder() -> [Run] {
        var runs: [Run] = []
        runs.reserveCapacity(runCount)
        for slot in order { runs.append(contentsOf: leaves[Int(slot)]) }
        return runs
    }

    /// Calls `body` with every run, tombstones included, in document order.
    @inline(__always)
    func forEachRun(_ body: (Run) -> Void) {
        for slot in order {
            for run in leaves[Int(slot)] { body(run) }
        }
    }

    /// UTF-8 bytes of the visible text, counted from the runs (no copy).
    var visibleUTF8Count: Int {
        var total = 0
        forEachRun { total += Int($0.byteCount) }
        return total
    }
}
