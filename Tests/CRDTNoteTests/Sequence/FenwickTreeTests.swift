import Testing
@testable import CRDTNote
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// The Fenwick tree against plain prefix sums of an array: random point changes (some held back),
/// slots inserted in the middle and the tree rebuilt from the first changed slot only.
@Suite struct FenwickTreeTests {
    @Test(arguments: Array(1...12) as [UInt64])
    func partialRebuildsMatchPlainSums(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var values = (0..<Int.random(in: 1...40, using: &rng)).map { _ in Int.random(in: 0...9, using: &rng) }
        var tree = FenwickTree()
        tree.rebuild(values)
        for step in 0..<300 {
            if Bool.random(using: &rng) {
                let i = Int.random(in: 0..<values.count, using: &rng)
                let delta = Int.random(in: 0...5, using: &rng)
                values[i] += delta
                tree.add(delta, at: i)
            } else {
                // Insert a slot and change the one before it, as a leaf split does.
                let at = Int.random(in: 0...values.count, using: &rng)
                let start = max(0, at - 1)
                if at > 0 { values[at - 1] = Int.random(in: 0...9, using: &rng) }
                values.insert(Int.random(in: 0...9, using: &rng), at: at)
                tree.rebuild(from: start, count: values.count) { values[$0] }
            }
            for end in 0...values.count {
                #expect(tree.prefixSum(end) == values.prefix(end).reduce(0, +), "seed \(seed) step \(step) end \(end)")
            }
            let total = values.reduce(0, +)
            if total > 0 {
                let k = Int.random(in: 0..<total, using: &rng)
                let found = tree.find(k)
                #expect(found.before == values.prefix(found.index).reduce(0, +))
                #expect(k >= found.before && k < found.before + values[found.index])
            }
        }
    }

    /// Two trees changed together (`FenwickTree.add(_:to:_:to:at:)`, sometimes one of them alone,
    /// as moving a leaf changes only the counts that differ) against two plain arrays, read
    /// together (`prefixSums`) and apart.
    @Test(arguments: Array(1...8) as [UInt64])
    func pairedChangesMatchPlainSums(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let count = Int.random(in: 1...40, using: &rng)
        var valuesA = (0..<count).map { _ in Int.random(in: 0...9, using: &rng) }
        var valuesB = (0..<count).map { _ in Int.random(in: 0...9, using: &rng) }
        var a = FenwickTree()
        var b = FenwickTree()
        a.rebuild(valuesA)
        b.rebuild(valuesB)
        for step in 0..<400 {
            // Runs of changes to one slot (held back), then another slot.
            let i = Int.random(in: 0..<count, using: &rng)
            let da = Int.random(in: -3...5, using: &rng)
            let db = Int.random(in: -3...5, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0:
                valuesA[i] += da
                a.add(da, at: i)
            case 1:
                valuesB[i] += db
                b.add(db, at: i)
            default:
                valuesA[i] += da
                valuesB[i] += db
                FenwickTree.add(da, to: &a, db, to: &b, at: i)
            }
            for end in 0...count {
                let expected = (valuesA.prefix(end).reduce(0, +), valuesB.prefix(end).reduce(0, +))
                let together = FenwickTree.prefixSums(a, b, end)
                #expect(together == expected, "seed \(seed) step \(step) end \(end)")
                #expect(a.prefixSum(end) == expected.0 && b.prefixSum(end) == expected.1, "seed \(seed) step \(step) end \(end)")
            }
        }
    }
}
