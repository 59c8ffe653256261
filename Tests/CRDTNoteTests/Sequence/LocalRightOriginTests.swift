import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Right origins of local insertions (FORMAT.md §1, "Right origins of local insertions"): text
/// typed where deleted text lies names the next visible character (or the ancestor of it that
/// keeps the text among the tombstones) instead of the tombstone next to it, and goes where the
/// merge rule puts it. Checked against a plain-string model of the edits (the text), the §6
/// plain-array oracle (`NaiveRuleOracle`, the order) and the loader's rule-order check.
@Suite("Local right origins")
struct LocalRightOriginTests {
    typealias ID = SpecState.ID

    /// The note's elements, checked: the oracle integrating them in causal order gives the
    /// note's own order, and the loader's rule-order check passes.
    static func checkRuleOrder(_ note: NoteText, _ comment: Comment) throws {
        let sequence = note.index
        let runs = sequence.runsInOrder()
        let elements = CompactionPlanTests.elements(runs)
        let order = try #require(CompactionPlanTests.oracleOrder(elements, replicaIDs: sequence.replicas), comment)
        #expect(order == elements.map(\.id), comment)
        let byID = RunsByID(runs, replicaCount: sequence.replicas.count)
        #expect(IntegrationOrder.firstViolation(runs, byID: byID, replicaIDs: sequence.replicas) == nil, comment)
    }

    /// Random typing and deleting on two replicas, biased to type where text was just deleted
    /// (so the place to type is full of tombstones), with merges between them: after every local
    /// edit the text is the model's, and the state stays in the rule's order; merged copies agree.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func typingOverDeletedTextKeepsTheRuleOrder(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9)
        var notes = [NoteText(replica: ReplicaID(rawValue: 7)), NoteText(replica: ReplicaID(rawValue: 0x8000_0000_0000_0003))]
        var models = [[Unicode.Scalar]](repeating: [], count: 2)
        var lastDelete = [0, 0]
        for step in 0..<400 {
            let i = rng.below(2)
            let count = models[i].count
            switch rng.below(10) {
            case 0..<5:
                // Type at the place of the last deletion half the time, elsewhere otherwise.
                let at = rng.below(2) == 0 ? min(lastDelete[i], count) : rng.below(count + 1)
                let text = String((0..<(1 + rng.below(4))).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.below(26)))) })
                try notes[i].insert(text, atScalarOffset: at)
                models[i].insert(contentsOf: text.unicodeScalars, at: at)
            case 5..<8 where count > 0:
                let lo = rng.below(count)
                let hi = min(count, lo + 1 + rng.below(6))
                try notes[i].deleteScalars(in: lo..<hi)
                models[i].removeSubrange(lo..<hi)
                lastDelete[i] = lo
            case 8:
                try notes[i].merge(notes[1 - i])
                models[i] = Array(notes[i].string.unicodeScalars)
            default:
                continue
            }
            #expect(Array(notes[i].string.unicodeScalars) == models[i], "seed \(seed) step \(step)")
            if step % 25 == 0 { try Self.checkRuleOrder(notes[i], "seed \(seed) step \(step)") }
        }
        var a = notes[0], b = notes[1]
        try a.merge(notes[1])
        try b.merge(notes[0])
        #expect(a.string == b.string)
        #expect(a.index.runsInOrder().count > 0)
        try Self.checkRuleOrder(a, "seed \(seed), merged")
        // The same state read back from its payload (the decoder checks the order too).
        let reread = try NoteText(snapshot: a.encodedSnapshot(format: .version2), replica: ReplicaID(rawValue: 99))
        #expect(reread.string == a.string)
    }

    /// A line typed where a deleted line was names the next line as its right origin, so a
    /// compaction that settles the deleted line drops all of it (it named the tombstone before).
    @Test func aLineTypedOverADeletedOneNamesTheNextLine() throws {
        var note = NoteText(replica: ReplicaID(rawValue: 5))
        try note.insert("top\nbottom\n", atScalarOffset: 0)
        try note.insert("old line\n", atScalarOffset: 4)
        try note.deleteScalars(in: 4..<13)
        try note.insert("new line\n", atScalarOffset: 4)
        #expect(note.string == "top\nnew line\nbottom\n")
        let runs = note.index.runsInOrder()
        let typed = try #require(runs.first { !$0.isDeleted && $0.seq == 20 })
        #expect(typed.right == ItemRef(replica: typed.replica, seq: 4), "the right origin is the 'b' of bottom")
        let plan = CompactionPlan(runs, replicaCount: 1, settled: { _ in true })
        #expect(plan.droppedCount(of: runs) == 9, "the whole deleted line goes")
        try Self.checkRuleOrder(note, "one line")
    }

    /// Typing after a character whose deleted children hold the next visible text: the right
    /// origin is the child of the left origin whose block holds it (a tombstone), as the rule
    /// requires; a peer places the text identically.
    @Test func textInsideALeftOriginsBlockNamesTheChildHoldingIt() throws {
        var note = NoteText(replica: ReplicaID(rawValue: 5))
        try note.insert("ab", atScalarOffset: 0)          // a b
        try note.insert("XY", atScalarOffset: 1)          // a X Y b: X is a child of a
        try note.insert("z", atScalarOffset: 3)           // a X Y z b: z is a child of Y
        try note.deleteScalars(in: 1..<3)                  // a z b, X and Y deleted
        var peer = NoteText(replica: ReplicaID(rawValue: 6))
        try peer.merge(note)
        try note.insert("Q", atScalarOffset: 1)           // between a and z
        #expect(note.string == "aQzb")
        let runs = note.index.runsInOrder()
        let typed = try #require(runs.first { $0.seq == 5 })
        #expect(typed.right == ItemRef(replica: typed.replica, seq: 2), "X: the child of a whose block holds z")
        try peer.merge(note)
        #expect(peer.string == "aQzb")
        try Self.checkRuleOrder(note, "child")
    }

    /// The climb is bounded: with more ancestors between the next visible character and the
    /// left origin's child than ``TextSequence/rightOriginSearchLimit``, the right origin is the
    /// tombstone next to the caret, as before; below the limit, the child holding the text.
    @Test(arguments: [10, TextSequence.rightOriginSearchLimit + 6])
    func theClimbStopsAfterItsLimit(depth: Int) throws {
        var note = NoteText(replica: ReplicaID(rawValue: 5))
        try note.insert("ab", atScalarOffset: 0)
        // A chain of one-character runs, each the child of the one before: x1 after a, x2 after
        // x1, ... (a character typed at the end in between keeps them from joining one run).
        for k in 0..<depth {
            try note.insert("x", atScalarOffset: 1 + k)
            try note.insert(".", atScalarOffset: note.scalarCount)
        }
        try note.insert("z", atScalarOffset: 1 + depth)   // visible, below the chain
        try note.insert("w", atScalarOffset: 1)           // a's newest child, before x1
        try note.deleteScalars(in: 1..<(2 + depth))          // w and the chain
        #expect(note.string.hasPrefix("azb"))
        let runs = note.index.runsInOrder()
        let w = runs[1], x1 = runs[2]
        #expect(w.isDeleted && x1.isDeleted && w.seq > x1.seq)
        try note.insert("Q", atScalarOffset: 1)
        #expect(note.string.hasPrefix("aQzb"))
        let typed = try #require(note.index.runsInOrder().first { !$0.isDeleted && $0.length == 1 && $0.seq == w.seq + 1 })
        let expected = depth > TextSequence.rightOriginSearchLimit ? w : x1
        #expect(typed.right == ItemRef(replica: expected.replica, seq: expected.seq))
        try Self.checkRuleOrder(note, "depth \(depth)")
    }
}
