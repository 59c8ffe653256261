import Testing
@testable import CRDTNote
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// The delete set against a plain `Set<UInt32>` oracle: random ranges (mostly neighbours of
/// the last one, as backspacing makes, sometimes anywhere), in random orders.
@Suite struct DeletedIDsTests {
    @Test(arguments: Array(1...16) as [UInt64])
    func matchesASetOfIDs(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var set = DeletedIDs()
        var oracle = Set<UInt32>()
        let space = UInt32.random(in: 50...5_000, using: &rng)
        var last: UInt32 = space / 2
        for step in 0..<Int.random(in: 200...1_500, using: &rng) {
            let lower: UInt32
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: lower = last &+ 1                           // forward delete
            case 1: lower = last > 0 ? last - 1 : 0             // backspace
            default: lower = UInt32.random(in: 0..<space, using: &rng)
            }
            let length = UInt32.random(in: 1...(step % 7 == 0 ? 40 : 3), using: &rng)
            let range = min(lower, space)..<min(lower &+ length, space + 40)
            set.insert(range)
            oracle.formUnion(range)
            last = range.isEmpty ? last : range.lowerBound
            if step % 50 == 0 { check(set, oracle, space: space + 40, rng: &rng) }
        }
        check(set, oracle, space: space + 40, rng: &rng)
    }

    @Test func buildsFromSortedTouchingRanges() {
        let set = DeletedIDs(sortedRanges: [0..<2, 2..<5, 9..<10, 10..<11, 20..<20, 30..<31])
        #expect(Array(set.ranges) == [0..<5, 9..<11, 30..<31])
        #expect(set.rangeCount == 3)
        #expect(missing(set, 3..<32) == [5..<9, 11..<30, 31..<32])
        #expect(set.firstMissing(in: 0..<5) == nil && set.firstMissing(in: 4..<12) == 5..<9)
        #expect(set.contains(9..<11) && !set.contains(8..<10))
    }

    private func check(_ set: DeletedIDs, _ oracle: Set<UInt32>, space: UInt32, rng: inout SplitMix64) {
        // Ranges: sorted, disjoint, not touching, exactly the oracle's ids.
        let ranges = Array(set.ranges)
        #expect(ranges.count == set.rangeCount)
        for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound < b.lowerBound, "\(a) then \(b)") }
        var ids = Set<UInt32>()
        for r in ranges { #expect(!r.isEmpty); ids.formUnion(r) }
        #expect(ids == oracle)
        for _ in 0..<20 {
            let lo = UInt32.random(in: 0..<space, using: &rng)
            let probe = lo..<min(space, lo + UInt32.random(in: 1...30, using: &rng))
            let expectedMissing = probe.filter { !oracle.contains($0) }
            #expect(missing(set, probe).flatMap { Array($0) } == expectedMissing)
            // The first stretch: from the first missing id up to the next id the set holds.
            let first = expectedMissing.first.map { start in start..<(probe.first { $0 > start && oracle.contains($0) } ?? probe.upperBound) }
            #expect(set.firstMissing(in: probe) == first, "\(probe)")
            #expect(set.contains(probe) == expectedMissing.isEmpty)
        }
    }

    /// Every stretch of `range` the set lacks, found as a merge finds them: the first one, then
    /// the first one after it.
    private func missing(_ set: DeletedIDs, _ range: Range<UInt32>) -> [Range<UInt32>] {
        var out: [Range<UInt32>] = []
        var rest = range
        while let gap = set.firstMissing(in: rest) {
            out.append(gap)
            rest = gap.upperBound..<rest.upperBound
        }
        return out
    }
}
