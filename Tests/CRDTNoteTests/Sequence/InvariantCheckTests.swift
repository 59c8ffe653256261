import Testing
@testable import CRDTNote

/// The full structural check (`TextSequence.invariantViolations`, which the fuzzers and the
/// property tests run) finds ids in the wrong place by ranges, not id by id: a sound note passes;
/// a run pointed at the wrong leaf, a run listed twice and ids counted but held by no run and
/// not deleted are each reported.
@Suite struct InvariantCheckTests {
    @Test func idsOutOfPlaceAreFound() throws {
        let sound = try InternalChecksTests.sample().index
        #expect(sound.invariantViolations() == [])
        try #require(sound.order.count > 1)
        let slot = Int(sound.order[0])
        let run = sound.leaves[slot][0]
        // A run's ids pointed at another leaf.
        var moved = sound
        moved.leafOf[Int(run.replica)].assign(run.seq..<run.seqEnd, slot: Int32(Int(sound.order[1])))
        #expect(moved.invariantViolations().contains { $0.hasPrefix("leafOf of replica \(run.replica) maps") }, "\(moved.invariantViolations())")
        // A run listed twice.
        var twice = sound
        twice.leaves[Int(sound.order[1])].append(run)
        #expect(twice.invariantViolations().contains { $0 == "id \(run.replica):\(run.seq) appears twice" }, "\(twice.invariantViolations())")
        // Ids counted past every run, neither held nor deleted.
        var counted = sound
        counted.nextSeq[Int(run.replica)] += 3
        #expect(counted.invariantViolations().contains { $0.contains("are not in the delete set") }, "\(counted.invariantViolations())")
    }
}
