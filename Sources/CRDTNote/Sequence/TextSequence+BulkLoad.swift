extension TextSequence {
    /// Runs per leaf when building from a snapshot: half full, so edits rarely split leaves at first.
    static let bulkLeafFill = 32

    /// Builds a document directly from runs in document order (already validated: every id
    /// `0..<nextSeq[r]` of every replica appears at most once, the others are `index.holes`).
    init(replicas: [ReplicaID], nextSeq: [UInt32], latest: [HLCTimestamp], logs: [[ClockLogEntry]],
         content: [UInt8], runs: [Run], index: IDIndex) {
        self.init()
        self.replicas = replicas
        for (i, id) in replicas.enumerated() { replicaIndex[id] = UInt32(i) }
        self.nextSeq = nextSeq
        self.latestStamp = latest
        self.clockLog = logs.map(ClockLog.init)
        self.content = content
        self.leafOf = index.leafOf
        hasCompactedIDs = index.hasHoles
        // Compacted ids are deleted: the delete set lists them, so merges send and skip them as such.
        var deletedRanges = index.holes
        for run in runs where run.isDeleted { deletedRanges[Int(run.replica)].append(run.seq..<run.seqEnd) }
        deleted = deletedRanges.map { ranges in
            DeletedIDs(sortedRanges: ranges.sorted { $0.lowerBound < $1.lowerBound })
        }
        layOut(runs)
        checkAfterMutation("index build")
    }

    /// Replaces the tree with `runs` (document order) in half-full leaves, and rebuilds the
    /// order, the per-leaf counts and the Fenwick trees. `leafOf` is the caller's.
    mutating func layOut(_ runs: [Run]) {
        let fill = Self.bulkLeafFill
        let leafCount = max(1, (runs.count + fill - 1) / fill)
        leaves = []
        leaves.reserveCapacity(leafCount)
        slotScalars = []
        slotUTF16 = []
        heldSlot = -1
        heldScalars = 0
        heldUTF16 = 0
        scalarCount = 0
        utf16Count = 0
        for l in 0..<leafCount {
            let chunk = Array(runs[min(l * fill, runs.count)..<min((l + 1) * fill, runs.count)])
            var scalars = 0
            var units = 0
            for r in chunk {
                scalars += r.visibleScalars
                units += r.visibleUTF16
            }
            leaves.append(chunk)
            slotScalars.append(scalars)
            slotUTF16.append(units)
            scalarCount += scalars
            utf16Count += units
        }
        order = (0..<leafCount).map { Int32($0) }
        orderIndex = order
        runCount = runs.count
        rebuildIndexes()
    }
}
