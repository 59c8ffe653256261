import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// `CompactionPlan` (issue 31, first step): which tombstones a compaction may drop. Checked on
/// states made by random edits and merges of 2–5 replicas against an element-by-element oracle of
/// the origin closure, the decoder's rule-order check, and the plain-array oracle of FORMAT.md §6
/// (`NaiveRuleOracle`) integrating the survivors, alone and united with another copy's survivors.
@Suite("Compaction plan")
struct CompactionPlanTests {
    typealias ID = SpecState.ID

    /// One element of a state: its origins and whether it is deleted.
    struct Element {
        var id: ID
        var left: ID?
        var right: ID?
        var deleted: Bool
    }

    static func id(_ ref: ItemRef) -> ID? { ref.isNone ? nil : ID(replica: Int(ref.replica), seq: ref.seq) }

    /// The elements of `runs`, in their order.
    static func elements(_ runs: [Run]) -> [Element] {
        runs.flatMap { run in
            (0..<run.length).map { k in
                Element(id: ID(replica: Int(run.replica), seq: run.seq + k),
                        left: id(k == 0 ? run.left : ItemRef(replica: run.replica, seq: run.seq + k - 1)),
                        right: id(run.right), deleted: run.isDeleted)
            }
        }
    }

    /// The oracle: the elements reachable through origins from the elements that are neither
    /// deleted nor settled, found one element at a time.
    static func closure(_ elements: [Element], settled: Set<ID>) -> Set<ID> {
        var byID: [ID: Element] = [:]
        for e in elements { byID[e.id] = e }
        var reached = Set<ID>()
        var work = elements.filter { !$0.deleted || !settled.contains($0.id) }.map(\.id)
        while let next = work.popLast() {
            guard reached.insert(next).inserted, let e = byID[next] else { continue }
            work += [e.left, e.right].compactMap { $0 }
        }
        return reached
    }

    /// `elements` (every origin among them) integrated one by one by the plain-array oracle, in a
    /// causal order (smallest ready id first); nil when some origin is missing.
    static func oracleOrder(_ elements: [Element], replicaIDs: [ReplicaID]) -> [ID]? {
        var pending = elements.sorted { $0.id < $1.id }
        var oracle = NaiveRuleOracle()
        var placed = Set<ID>()
        while !pending.isEmpty {
            guard let i = pending.firstIndex(where: { e in [e.left, e.right].allSatisfy { $0.map(placed.contains) ?? true } }) else { return nil }
            let e = pending.remove(at: i)
            oracle.integrate(.init(id: e.id, replicaID: replicaIDs[e.id.replica].rawValue, left: e.left, right: e.right))
            placed.insert(e.id)
        }
        return oracle.elements.map(\.id)
    }

    /// A random set of the tombstone runs' indexes: all of them when `all`, else each with chance 1/2.
    static func settledRuns(_ runs: [Run], all: Bool, rng: inout SplitMix64) -> Set<Int> {
        Set(runs.indices.filter { runs[$0].isDeleted && (all || rng.next() & 1 == 0) })
    }

    static func plan(_ note: NoteText, settledRuns: Set<Int>) -> (runs: [Run], plan: CompactionPlan, settled: Set<ID>) {
        let sequence = note.index
        let runs = sequence.runsInOrder()
        let plan = CompactionPlan(runs, replicaCount: sequence.replicas.count, settled: { settledRuns.contains($0) })
        let settled = Set(settledRuns.flatMap { i in elements([runs[i]]).map(\.id) })
        return (runs, plan, settled)
    }

    /// What survives is exactly the origin closure, keeps the text, passes the decoder's
    /// rule-order check, and is the order the §6 oracle gives its elements.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func survivorsAreTheClosureInRuleOrder(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x51_7CC1)
        var dropped = 0
        for round in 0..<8 {
            let notes = FormatSamples.randomNotes(seed: rng.next(), replicas: 2 + round % 4, edits: 60 + 25 * round)
            for note in notes {
                let sequence = note.index
                let (runs, plan, settled) = Self.plan(note, settledRuns: Self.settledRuns(sequence.runsInOrder(), all: round % 2 == 0, rng: &rng))
                let all = Self.elements(runs)
                let keptRuns = plan.keptRuns(of: runs)
                let kept = Self.elements(keptRuns)
                #expect(Set(kept.map(\.id)) == Self.closure(all, settled: settled))
                #expect(kept.count == all.count - plan.droppedCount(of: runs))
                dropped += plan.droppedCount(of: runs)
                // The survivors keep the full state's order, and every visible element.
                let keptIDs = Set(kept.map(\.id))
                #expect(kept.map(\.id) == all.map(\.id).filter(keptIDs.contains))
                #expect(kept.filter { !$0.deleted }.map(\.id) == all.filter { !$0.deleted }.map(\.id))
                let byID = RunsByID(keptRuns, replicaCount: sequence.replicas.count)
                #expect(IntegrationOrder.firstViolation(keptRuns, byID: byID, replicaIDs: sequence.replicas) == nil)
                #expect(Self.oracleOrder(kept, replicaIDs: sequence.replicas) == kept.map(\.id))
                let ranges = plan.keptRanges(of: runs, replicaCount: sequence.replicas.count)
                for r in sequence.replicas.indices {
                    Self.checkThinnedLog(sequence.clockLog[r].entries, kept: keptIDs.filter { $0.replica == r }.map(\.seq),
                                         thinned: CompactionPlan.thinnedLog(sequence.clockLog[r].entries, kept: ranges[r]))
                }
            }
        }
        #expect(dropped > 0, "the random states gave nothing to drop")
    }

    /// The stamp the log gives `seq`: its last entry at or below it (the first when none is).
    static func stamp(_ seq: UInt32, in log: [ClockLogEntry]) -> HLCTimestamp? {
        (log.last { $0.seq <= seq } ?? log.first)?.stamp
    }

    /// A thinned clock log keeps the first entry and exactly the entries that stamp a kept id, and
    /// gives every kept id the stamp the full log gives it.
    static func checkThinnedLog(_ log: [ClockLogEntry], kept: [UInt32], thinned: [ClockLogEntry]) {
        let expected = log.enumerated().filter { i, entry in
            let end = i + 1 < log.count ? log[i + 1].seq : .max
            return i == 0 || kept.contains { $0 >= entry.seq && $0 < end }
        }.map(\.element)
        #expect(thinned == expected)
        for seq in kept { #expect(stamp(seq, in: thinned) == stamp(seq, in: log)) }
    }

    /// Two copies compacted independently (different tombstones settled) and then united give,
    /// by the §6 oracle, the full merge's order restricted to what they kept, and the full
    /// merge's visible text: compacted copies still converge.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func compactedCopiesUniteToTheFullMerge(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x2545_F491)
        for round in 0..<6 {
            let notes = FormatSamples.randomNotes(seed: rng.next(), replicas: 2 + round % 4, edits: 80 + 20 * round)
            let a = notes[0], b = notes[notes.count - 1]
            var merged = a
            try merged.merge(b)
            // One replica table for all three: the merged copy's (a's, then b's new replicas).
            let replicas = merged.index.replicas
            func global(_ note: NoteText, _ e: Element) -> Element {
                let table = note.index.replicas
                func map(_ id: ID?) -> ID? { id.map { ID(replica: replicas.firstIndex(of: table[$0.replica])!, seq: $0.seq) } }
                return Element(id: map(e.id)!, left: map(e.left), right: map(e.right), deleted: e.deleted)
            }
            var united: [ID: Element] = [:]
            for note in [a, b] {
                let (runs, plan, _) = Self.plan(note, settledRuns: Self.settledRuns(note.index.runsInOrder(), all: false, rng: &rng))
                for e in Self.elements(plan.keptRuns(of: runs)) { united[global(note, e).id] = global(note, e) }
            }
            let full = Self.elements(merged.index.runsInOrder())
            let order = try #require(Self.oracleOrder(Array(united.values), replicaIDs: replicas))
            #expect(order == full.map(\.id).filter { united[$0] != nil })
            let visible = full.filter { !$0.deleted }.map(\.id)
            #expect(visible.allSatisfy { united[$0] != nil })
            #expect(order.filter(Set(visible).contains) == visible)
        }
    }
}
