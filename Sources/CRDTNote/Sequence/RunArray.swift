extension Array where Element == Run {
    /// Inserts `a` then `b` at `index` (`0...count`) with one shift of the runs after it, where
    /// two `insert(_:at:)` calls would shift them twice (a remote insertion inside a run: the
    /// new run and the run's second half; a deletion inside a run: the deleted piece and what
    /// follows it).
    @inline(__always)
    mutating func insert(_ a: Run, _ b: Run, at index: Int) {
        precondition(index >= 0 && index <= count, "insert(_:_:at:) index out of range")
        append(a)
        append(b)
        withUnsafeMutableBufferPointer { runs in
            guard let base = runs.baseAddress else { return }
            let moved = runs.count - 2 - index
            if moved > 0 {
                // Runs are plain values: moving them is copying their bytes (regions overlap).
                (base + index + 2).update(from: base + index, count: moved)
                base[index] = a
                base[index + 1] = b
            }
        }
    }
}
