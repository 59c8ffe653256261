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
}
