/// A window of a note's elements in order (tombstones included), as formatting resolution reads
/// them to weigh one operation: each element's id, whether it is visible and a newline, and its
/// origins as element indexes; and the index of any id (a binary search over the runs of its
/// replica). Built in O(n + r log r) for the window's n elements in r runs, without a hash
/// table entry per element.
struct FormattingOrder {
    /// Every element's id, in document order.
    private(set) var ids: [ElementID] = []
    /// Per element: 0 a tombstone, 1 visible, 2 a visible newline.
    private var kinds: [UInt8] = []
    /// Per element, the index of its left and right origin (-1: none).
    private var lefts: [Int32] = []
    private var rights: [Int32] = []
    /// Per replica of the sequence (by index): its runs as (first seq, length, first element
    /// index), sorted by seq.
    private var runsByReplica: [[(seq: UInt32, length: UInt32, index: Int32)]]
    private let replicaIndex: [ReplicaID: UInt32]

    var count: Int { ids.count }
    func isVisible(_ i: Int) -> Bool { kinds[i] != 0 }
    func isNewline(_ i: Int) -> Bool { kinds[i] == 2 }

    /// The order of the elements from `first` through `last`: a window of the document, in
    /// which an origin outside the window reads as none. Exact for an operation whose anchors and core lie inside the window, since
    /// nothing outside its anchors is ever covered (Docs/FORMAT.md §10.4).
    /// (`sequence` borrowed: an initializer would otherwise take it owned, a copy of every field
    /// of the note's index per operation weighed.)
    init(_ sequence: borrowing TextSequence, from first: TreePosition, through last: TreePosition) {
        replicaIndex = sequence.replicaIndex
        runsByReplica = Array(repeating: [], count: sequence.replicas.count)
        var origins: [(start: Int, length: Int, left: ItemRef, right: ItemRef)] = []
        sequence.forEachRun(from: first, through: last) { run in
            let start = ids.count
            runsByReplica[Int(run.replica)].append((run.seq, run.length, Int32(start)))
            origins.append((start, Int(run.length), run.left, run.right))
            let replica = sequence.replicas[Int(run.replica)]
            for k in 0..<run.length { ids.append(ElementID(replica: replica, seq: run.seq &+ k)) }
            if run.isDeleted {
                kinds.append(contentsOf: repeatElement(0, count: Int(run.length)))
            } else {
                for i in Int(run.byteStart)..<Int(run.byteStart + run.byteCount) where sequence.content[i] & 0xC0 != 0x80 {
                    kinds.append(sequence.content[i] == 0x0A ? 2 : 1)
                }
            }
        }
        for r in runsByReplica.indices { runsByReplica[r].sort { $0.seq < $1.seq } }
        lefts = [Int32](repeating: -1, count: ids.count)
        rights = [Int32](repeating: -1, count: ids.count)
        for origin in origins {
            lefts[origin.start] = index(of: origin.left)
            for k in 1..<max(1, origin.length) { lefts[origin.start + k] = Int32(origin.start + k - 1) }
            let right = index(of: origin.right)
            for k in 0..<origin.length { rights[origin.start + k] = right }
        }
    }

    /// The index of the element `ref` names; -1 for none or an id this order does not hold.
    private func index(of ref: ItemRef) -> Int32 {
        ref.isNone ? -1 : index(replica: Int(ref.replica), seq: ref.seq)
    }

    private func index(replica r: Int, seq: UInt32) -> Int32 {
        let runs = runsByReplica[r]
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].seq <= seq { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, seq - runs[lo - 1].seq < runs[lo - 1].length else { return -1 }
        return runs[lo - 1].index + Int32(seq - runs[lo - 1].seq)
    }

    /// The index of the element with id `id`, nil when this note does not hold it.
    func position(of id: ElementID) -> Int? {
        guard let r = replicaIndex[id.replica] else { return nil }
        let i = index(replica: Int(r), seq: id.seq)
        return i < 0 ? nil : Int(i)
    }

    /// The boundary as a number comparable with ``point(ofElement:)``; nil when it names an
    /// element this note does not hold.
    func point(of boundary: MarkBoundary) -> Int? {
        switch boundary {
        case .documentStart: return -1
        case .documentEnd: return 3 * count
        case .before(let id): return position(of: id).map { 3 * $0 }
        case .after(let id): return position(of: id).map { 3 * $0 + 2 }
        }
    }

    /// The element at position `i` as a point: between its `before` and `after` gaps.
    func point(ofElement i: Int) -> Int { 3 * i + 1 }

    /// Calls `body` with the position of every element (tombstones included) `operation` covers
    /// (Docs/FORMAT.md §10.4), each once: inside its anchors and either in its core
    /// (first...last) and seen by the operation, or after `first` with its left origin covered,
    /// or before the core with its right origin covered. None while the note lacks an element
    /// the operation names.
    func forEachCovered(by operation: MarkOperation, _ body: (Int) -> Void) {
        guard let first = position(of: operation.first), let last = position(of: operation.last), first <= last,
              let start = point(of: operation.start), let end = point(of: operation.end) else { return }
        let inside = { (i: Int) in start < point(ofElement: i) && point(ofElement: i) < end }
        // Covered positions from `first` on (index i - first), and before it (index first - 1 - i).
        var after: [Bool] = []
        var before: [Bool] = []
        func isCovered(_ p: Int32) -> Bool {
            let p = Int(p)
            if p >= first { return p - first < after.count && after[p - first] }
            return p >= 0 && first - 1 - p < before.count && before[first - 1 - p]
        }
        var i = first
        while i < count, i <= last || inside(i) {
            var covered = false
            if inside(i) {
                if i <= last, operation.sawCoreElement(ids[i]) {
                    covered = true
                } else if lefts[i] >= 0, isCovered(lefts[i]) {
                    covered = true
                }
            }
            after.append(covered)
            if covered { body(i) }
            i += 1
        }
        i = first - 1
        while i >= 0, inside(i) {
            let right = rights[i]
            let covered = right >= 0 && Int(right) <= last && isCovered(right)
            before.append(covered)
            if covered { body(i) }
            i -= 1
        }
    }
}
