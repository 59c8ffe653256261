/// One replica's clock log: `(seq, stamp)` entries in increasing seq order, each giving the
/// stamp of that replica's insertions from `seq` until the next entry.
///
/// Stored in chunks of at most `chunkCapacity` entries: copies of a document (forks, branches
/// of a merge) share every chunk but the one they append to, so appending after a copy copies
/// one small chunk, not the whole log.
struct ClockLog: Sendable, Equatable {
    static let chunkCapacity = 128

    private var chunks: [[ClockLogEntry]] = []
    /// The last entry, kept beside the chunks: every local edit compares its stamp with it.
    private(set) var last: ClockLogEntry?

    init() {}

    init(_ entries: [ClockLogEntry]) {
        var start = 0
        while start < entries.count {
            chunks.append(Array(entries[start..<min(start + Self.chunkCapacity, entries.count)]))
            start += Self.chunkCapacity
        }
        last = entries.last
    }

    static func == (a: ClockLog, b: ClockLog) -> Bool { a.entries == b.entries }

    var first: ClockLogEntry? { chunks.first?.first }
    var isEmpty: Bool { chunks.isEmpty }

    /// Every entry, in order.
    var entries: [ClockLogEntry] { Array(chunks.joined()) }

    mutating func append(_ entry: ClockLogEntry) {
        last = entry
        if let c = chunks.indices.last, chunks[c].count < Self.chunkCapacity {
            chunks[c].append(entry)
        } else {
            var chunk: [ClockLogEntry] = []
            chunk.reserveCapacity(Self.chunkCapacity)
            chunk.append(entry)
            chunks.append(chunk)
        }
    }

    /// The entry in force at `seq` (the last one at or below it, else the first) and every
    /// later one: what a peer holding ids below `seq` needs.
    func entries(inForceFrom seq: UInt32) -> [ClockLogEntry] {
        guard !chunks.isEmpty else { return [] }
        let lo = chunkIndex(atOrBelow: seq)
        let chunk = chunks[lo]
        var i = chunk.partitioningIndex { $0.seq > seq }
        i = max(i - 1, 0)
        var out = Array(chunk[i...])
        for later in chunks[(lo + 1)...] { out.append(contentsOf: later) }
        return out
    }
}

extension ClockLog {
    /// The stamp in force at `seq`: the last entry at or below it; nil when none is.
    func stamp(at seq: UInt32) -> HLCTimestamp? {
        guard let firstEntry = chunks.first?.first, firstEntry.seq <= seq else { return nil }
        let chunk = chunks[chunkIndex(atOrBelow: seq)]
        return chunk[chunk.partitioningIndex { $0.seq > seq } - 1].stamp
    }

    /// The last chunk starting at or below `seq` (the first when none does); chunks not empty.
    private func chunkIndex(atOrBelow seq: UInt32) -> Int {
        var lo = 0
        var hi = chunks.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if chunks[mid][0].seq <= seq { lo = mid } else { hi = mid }
        }
        return lo
    }
}
