/// What the version 2 run table shares between its encoder and decoder (Docs/FORMAT.md,
/// "Runs, version 2"): the flag byte's bits and the two predictions.
enum RunColumnsV2 {
    // Flag byte, one per run.
    static let deleted: UInt8 = 1 << 0
    /// Bits 1-2: how the left origin is stored.
    static let leftShift: UInt8 = 1
    static let leftPreviousElement: UInt8 = 0
    static let leftNone: UInt8 = 1
    static let leftOwnPredecessor: UInt8 = 2
    static let leftExplicit: UInt8 = 3
    static let leftModes = SnapshotDecoder.LeftModes(previousElement: leftPreviousElement, none: leftNone, ownPredecessor: leftOwnPredecessor)
    /// Bits 3-4: how the right origin is stored.
    static let rightShift: UInt8 = 3
    static let rightPredicted: UInt8 = 0
    static let rightNextElement: UInt8 = 1
    static let rightNone: UInt8 = 2
    static let rightExplicit: UInt8 = 3
    static let explicitReplica: UInt8 = 1 << 5
    /// Bits 6-7: the sequence code when below 3; 3 = the code (3...8) is in the code column.
    static let codeShift: UInt8 = 6
    static let codeInColumn: UInt8 = 3

    /// How many open ends, from the top of a replica's stack, the sequence code can name.
    static let stackSearchDepth = 8

    /// Column names, in their order in the payload.
    enum Column: Int, CaseIterable {
        case flags, codes, deltas, lengths, replicas, lefts, rights

        var name: String {
            switch self {
            case .flags: "flag column"
            case .codes: "sequence code column"
            case .deltas: "sequence delta column"
            case .lengths: "length column"
            case .replicas: "replica column"
            case .lefts: "left-origin column"
            case .rights: "right-origin column"
            }
        }
    }

    /// The predicted right origin of every run, given the runs' replicas and starting ids in
    /// document order: the first later run of the same replica whose start id is lower,
    /// named by that start id; none when there is no such run. One right-to-left pass with a
    /// stack of start ids per replica (increasing from bottom to top).
    static func predictedRightOrigins(count: Int, replicaCount: Int, replica: (Int) -> UInt32, seq: (Int) -> UInt32) -> [ItemRef] {
        var predicted = [ItemRef](repeating: .none, count: count)
        var stacks = [[UInt32]](repeating: [], count: replicaCount)
        var i = count - 1
        while i >= 0 {
            let r = Int(replica(i))
            let s = seq(i)
            while let top = stacks[r].last, top >= s { stacks[r].removeLast() }
            if let top = stacks[r].last { predicted[i] = ItemRef(replica: UInt32(r), seq: top) }
            stacks[r].append(s)
            i -= 1
        }
        return predicted
    }

    /// Per replica, the ends (one past the last id) of the runs seen so far that no later run
    /// has continued: the sequence code names one of the top ``stackSearchDepth`` entries.
    struct OpenEnds {
        private var stacks: [[UInt32]]

        init(replicaCount: Int) { stacks = [[UInt32]](repeating: [], count: replicaCount) }

        /// The depth (0 = top) of `seq` among the top entries of `replica`'s stack, removing it.
        mutating func take(_ seq: UInt32, replica: Int) -> Int? {
            let count = stacks[replica].count
            var depth = 0
            while depth < RunColumnsV2.stackSearchDepth, depth < count {
                if stacks[replica][count - 1 - depth] == seq {
                    stacks[replica].remove(at: count - 1 - depth)
                    return depth
                }
                depth += 1
            }
            return nil
        }

        /// The entry at `depth` (0 = top) of `replica`'s stack, removed; nil when too deep.
        mutating func take(depth: Int, replica: Int) -> UInt32? {
            let count = stacks[replica].count
            guard depth < count else { return nil }
            return stacks[replica].remove(at: count - 1 - depth)
        }

        /// Pushes the end of a run just placed.
        mutating func push(_ end: UInt32, replica: Int) { stacks[replica].append(end) }
    }
}
