/// Sets of ids of one replica as increasing, disjoint, non-touching ranges, in plain arrays: the
/// settled and proposed ids of compaction (small sets, merged rarely).
enum IDRanges {
    /// The union of two such sets (either may have touching ranges), touching ranges joined.
    static func union(_ a: [Range<UInt32>], _ b: [Range<UInt32>]) -> [Range<UInt32>] {
        var out: [Range<UInt32>] = []
        for range in (a + b).sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = out.last, last.upperBound >= range.lowerBound {
                out[out.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }

    /// Whether every id of `range` is in `ids`: a binary search.
    static func contains(_ ids: [Range<UInt32>], _ range: Range<UInt32>) -> Bool {
        let i = ids.partitioningIndex { $0.upperBound > range.lowerBound }
        return i < ids.count && ids[i].lowerBound <= range.lowerBound && ids[i].upperBound >= range.upperBound
    }

    /// `ranges` (increasing, disjoint) without the ids `ids` (any order).
    static func removing(_ ids: [UInt32], from ranges: [Range<UInt32>]) -> [Range<UInt32>] {
        var out: [Range<UInt32>] = []
        let sorted = ids.sorted()
        var k = 0
        for range in ranges {
            var start = range.lowerBound
            while k < sorted.count && sorted[k] < range.upperBound {
                if sorted[k] >= start {
                    if sorted[k] > start { out.append(start..<sorted[k]) }
                    start = sorted[k] + 1
                }
                k += 1
            }
            if start < range.upperBound { out.append(start..<range.upperBound) }
        }
        return out
    }
}
