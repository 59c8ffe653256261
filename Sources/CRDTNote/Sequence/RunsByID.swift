/// The runs of a document listed by id: replica by replica, each replica's runs by increasing
/// seq. Built by bucketing the runs by replica and sorting each bucket as plain integers (seq and
/// run index packed in one `UInt64`), so it costs a few instructions per comparison: the decoder
/// builds it for every snapshot (the id tiling and causality checks, the rule-order check, the id
/// index), merges for the runs they integrate at once.
struct RunsByID {
    /// Replica `r`'s runs are `keys[start[r]..<start[r + 1]]`, each `seq << 32 | run index`,
    /// increasing. Seqs are distinct within a replica when the runs tile its ids.
    private(set) var keys: [UInt64]
    private(set) var start: [Int]

    /// `runs` (fewer than 2^32) of replicas `0..<replicaCount`.
    init(_ runs: UnsafeBufferPointer<Run>, replicaCount: Int) {
        start = [Int](repeating: 0, count: replicaCount + 1)
        for run in runs { start[Int(run.replica) + 1] += 1 }
        for r in 0..<replicaCount { start[r + 1] += start[r] }
        var keys = [UInt64](repeating: 0, count: runs.count)
        var fill = start
        for (i, run) in runs.enumerated() {
            keys[fill[Int(run.replica)]] = UInt64(run.seq) << 32 | UInt64(i)
            fill[Int(run.replica)] += 1
        }
        for r in 0..<replicaCount where start[r + 1] - start[r] > 1 { keys[start[r]..<start[r + 1]].sort() }
        self.keys = keys
    }

    init(_ runs: [Run], replicaCount: Int) {
        self = runs.withUnsafeBufferPointer { RunsByID($0, replicaCount: replicaCount) }
    }

    /// The run index at position `k` of the list.
    @inline(__always) func index(_ k: Int) -> Int { Int(truncatingIfNeeded: keys[k] & 0xFFFF_FFFF) }
    /// The first seq of the run at position `k`.
    @inline(__always) func seq(_ k: Int) -> UInt32 { UInt32(truncatingIfNeeded: keys[k] >> 32) }

    /// The position of the last run of replica `r` starting at or before `seq` (there must be one:
    /// the replica's runs tile its ids from 0).
    func last(replica r: Int, atMost seq: UInt32) -> Int {
        var low = start[r]
        var high = start[r + 1]
        let bound = UInt64(seq) << 32 | 0xFFFF_FFFF
        while high - low > 1 {
            let mid = (low + high) / 2
            if keys[mid] <= bound { low = mid } else { high = mid }
        }
        return low
    }

    /// Whether one of `runs` (the runs listed) holds element `ref` (in a compacted state, an id
    /// below its replica's count may be held by none).
    func holds(_ ref: ItemRef, in runs: [Run]) -> Bool {
        let r = Int(ref.replica)
        guard r + 1 < start.count, start[r] < start[r + 1] else { return false }
        return runs[index(last(replica: r, atMost: ref.seq))].contains(replica: ref.replica, seq: ref.seq)
    }
}
