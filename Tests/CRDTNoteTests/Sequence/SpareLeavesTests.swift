import Testing
@testable import CRDTNote
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Spare leaves against plain oracles: leaves split off at random places, before or after the
/// leaf they come from, must keep the runs in document order (the flat list before the splits),
/// and `order`, `orderIndex`, the Fenwick trees and `leafOf` consistent (`invariantViolations`).
@Suite struct SpareLeavesTests {
    @Test(arguments: Array(1...8) as [UInt64])
    func randomSplitsKeepDocumentOrder(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        // A note of many short runs (random insertions split one another), over several leaves.
        var note = NoteText(replica: ReplicaID(rawValue: 1))
        for _ in 0..<Int.random(in: 150...600, using: &rng) {
            let text = String(repeating: Array("abcé")[Int.random(in: 0..<4, using: &rng)], count: Int.random(in: 1...4, using: &rng))
            try note.insert(text, atScalarOffset: Int.random(in: 0...note.scalarCount, using: &rng))
            if note.scalarCount > 10, Int.random(in: 0..<4, using: &rng) == 0 {
                let at = Int.random(in: 0..<note.scalarCount - 2, using: &rng)
                try note.deleteScalars(in: at..<at + 2)
            }
        }
        var sequence = note.index
        // Moving runs between leaves invalidates the edit cursors, as every split does.
        sequence.typingCursor = nil
        sequence.editCursor = nil
        let runs = Self.runsInOrder(sequence)
        let text = sequence.string
        for step in 0..<200 {
            let filled = sequence.order.indices.filter { sequence.leaves[Int(sequence.order[$0])].count >= 2 }
            guard let position = filled.randomElement(using: &rng) else { break }
            let slot = Int(sequence.order[position])
            let count = sequence.leaves[slot].count
            let cut = Int.random(in: 1..<count, using: &rng)
            let before = Bool.random(using: &rng)
            let spare = sequence.spareSlot(besideLeafAt: position, before: before)
            #expect(sequence.leaves[spare].isEmpty, "seed \(seed) step \(step)")
            let moved: [Run]
            if before {
                moved = Array(sequence.leaves[slot][..<cut])
                sequence.leaves[slot].removeFirst(cut)
            } else {
                moved = Array(sequence.leaves[slot][cut...])
                sequence.leaves[slot].removeLast(count - cut)
            }
            sequence.moveRuns(moved, from: slot, to: spare)
            let offset = sequence.orderIndex[spare] - sequence.orderIndex[slot]
            #expect(offset == (before ? -1 : 1), "seed \(seed) step \(step): the new leaf is \(offset) places away")
            #expect(Self.runsInOrder(sequence) == runs, "seed \(seed) step \(step)")
            let problems = sequence.invariantViolations()
            #expect(problems.isEmpty, "seed \(seed) step \(step): \(problems.prefix(3))")
            if !problems.isEmpty { return }
        }
        #expect(sequence.string == text)
        // Positions found through the Fenwick trees agree with a count over the flat runs.
        var offset = 0
        for run in runs where !run.isDeleted {
            for k in [offset, offset + Int(run.length) - 1] {
                let found = sequence.run(at: sequence.position(ofScalar: k))
                #expect(found.replica == run.replica && found.seq == run.seq, "seed \(seed) scalar \(k)")
            }
            offset += Int(run.length)
        }
    }

    @Test func layingOutSparesKeepsLeavesAndAddsOneAfterEach() throws {
        var note = NoteText(replica: ReplicaID(rawValue: 1))
        for i in 0..<400 { try note.insert("x\(i % 10)", atScalarOffset: (i * 7919) % (note.scalarCount + 1)) }
        var sequence = note.index
        sequence.typingCursor = nil
        sequence.editCursor = nil
        let runs = Self.runsInOrder(sequence)
        sequence.layOutSpares(from: 0)
        let kinds = sequence.order.map { sequence.leaves[Int($0)].isEmpty }
        #expect(kinds.count % 2 == 0)
        #expect(kinds.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 1) }, "\(kinds)")
        #expect(Self.runsInOrder(sequence) == runs)
        #expect(sequence.invariantViolations().isEmpty)
    }

    private static func runsInOrder(_ sequence: TextSequence) -> [Run] {
        sequence.order.flatMap { sequence.leaves[Int($0)] }
    }
}
