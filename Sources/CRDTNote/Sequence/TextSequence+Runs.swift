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

extension TextSequence {
    /// The first `maxBytes` bytes of the visible text or a little more (whole runs), read from
    /// the start: the cost of what is read, not of the note.
    func utf8Prefix(maxBytes: Int) -> [UInt8] {
        var out: [UInt8] = []
        content.withUnsafeBufferPointer { buffer in
            for slot in order {
                for run in leaves[Int(slot)] where run.byteCount > 0 {
                    let start = Int(run.byteStart)
                    out.append(contentsOf: buffer[start..<start + Int(run.byteCount)])
                    if out.count >= maxBytes { return }
                }
            }
        }
        return out
    }
}
