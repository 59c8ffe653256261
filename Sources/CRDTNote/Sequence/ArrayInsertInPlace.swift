extension Array {
    /// `insert(_:at:)` for the small arrays of the tree (leaves, id-slot chunks, delete-set chunks):
    /// the element is appended, then the elements from `index` on move up one place in one copy.
    /// The general `insert` builds a one-element collection and replaces an empty subrange with
    /// it, which costs more than the move itself for the few dozen elements these arrays hold.
    @inline(__always)
    mutating func insertInPlace(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "insertInPlace(_:at:) index out of range")
        append(element)
        withUnsafeMutableBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            let moved = elements.count - 1 - index
            if moved > 0 {
                // Overlapping regions: `update` copies from the back.
                (base + index + 1).update(from: base + index, count: moved)
                base[index] = element
            }
        }
    }

    /// Inserts `a` then `b` at `index` (`0...count`) with one move of the elements after it, where
    /// two inserts would move them twice (a remote insertion inside a run: the new run and the
    /// run's second half; a deletion inside a run: the deleted piece and what follows it).
    @inline(__always)
    mutating func insertInPlace(_ a: Element, _ b: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "insertInPlace(_:_:at:) index out of range")
        append(a)
        append(b)
        withUnsafeMutableBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            let moved = elements.count - 2 - index
            if moved > 0 {
                (base + index + 2).update(from: base + index, count: moved)
                base[index] = a
                base[index + 1] = b
            }
        }
    }
}
