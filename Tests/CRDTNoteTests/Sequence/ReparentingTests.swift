import CRDTNoteToolSupport
import Testing
@testable import CRDTNote

/// ``Reparenting``, the measure behind `crdtnote-bench growth`'s "re-parented" column: on to-do
/// lists typed a scalar at a time by three devices, with whole lines deleted, the runs it leaves
/// keep the visible text and the rule's order of everything that stays (rebuilt by merging them
/// into an empty note), and it drops deleted lines that only left origins kept.
@Suite("Re-parenting (measure)")
struct ReparentingTests {
    @Test func reparentedRunsKeepTheTextAndTheRulesOrder() throws {
        var dropped = (plain: 0, skipping: 0)
        for seed in 1...8 as ClosedRange<UInt64> { try check(seed: seed, &dropped) }
        #expect(dropped.plain > 0, "some deleted line must be kept only as a parent")
        #expect(dropped.skipping > dropped.plain, "some tombstone must be kept only as a right origin")
    }

    func check(seed: UInt64, _ dropped: inout (plain: Int, skipping: Int)) throws {
        var rng = SplitMix64(seed: seed)
        var devices = GroupChainsTests.ids.prefix(3).map { NoteText(replica: $0) }
        for step in 0..<300 {
            let i = rng.below(devices.count)
            let lines = devices[i].string.split(separator: "\n").map(String.init)
            let start = { (k: Int) in lines[..<k].reduce(0) { $0 + $1.unicodeScalars.count + 1 } }
            if lines.count >= 8 || (!lines.isEmpty && rng.below(3) == 0) {
                let k = rng.below(lines.count)
                try devices[i].deleteScalars(in: start(k)..<(start(k) + lines[k].unicodeScalars.count + 1))
            } else {
                let at = start(rng.below(lines.count + 1))
                for (offset, scalar) in "task \(step)\n".unicodeScalars.enumerated() {
                    try devices[i].insert(String(scalar), atScalarOffset: at + offset)
                }
            }
            if rng.below(3) == 0 {
                let j = (i + 1 + rng.below(devices.count - 1)) % devices.count
                try devices[j].merge(devices[i])
                try devices[i].merge(devices[j])
            }
        }
        for i in devices.indices { for j in devices.indices where j != i { try devices[i].merge(devices[j]) } }
        var note = devices[0]
        try note.compact(settled: nil)
        let seq = note.sequence
        let before = seq.runsInOrder()
        let plain = Reparenting.reparented(before, replicaCount: seq.replicas.count, replicaIDs: seq.replicas)
        let skipping = Reparenting.reparented(before, replicaCount: seq.replicas.count, replicaIDs: seq.replicas, skipsRightOrigins: true)
        dropped.plain += plain.dropped
        dropped.skipping += skipping.dropped
        for result in [plain, skipping] {
            #expect(result.runs.count == before.count - result.dropped)
            let copy = try note.holding(result.runs)
            #expect(copy.string == note.string, "seed \(seed)")
        }
    }
}
