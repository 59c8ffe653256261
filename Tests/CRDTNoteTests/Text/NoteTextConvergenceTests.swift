import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Seeded property tests: many replicas, random edits, random partial syncs in random
/// orders with duplicates; everyone must converge and nothing may be lost.
@Suite struct NoteTextConvergenceTests {
    struct ID: Hashable { var replica: ReplicaID; var seq: UInt32 }

    @Test(arguments: Array(1...12) as [UInt64])
    func replicasConvergeAndKeepEveryLiveCharacter(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let count = Int.random(in: 3...8, using: &rng)
        var notes = (0..<count).map { NoteText(replica: ReplicaID(rawValue: UInt64($0) * 7 + 3)) }
        var inserted = Set<ID>()
        var deleted = Set<ID>()
        for _ in 0..<Int.random(in: 150...300, using: &rng) {
            let i = Int.random(in: 0..<count, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let before = notes[i].version[notes[i].replica]
                let text = RandomText.make(&rng)
                try notes[i].insert(text, atScalarOffset: Int.random(in: 0...notes[i].scalarCount, using: &rng))
                for s in before..<notes[i].version[notes[i].replica] { inserted.insert(ID(replica: notes[i].replica, seq: UInt32(s))) }
            case 5..<7 where notes[i].scalarCount > 0:
                let lo = Int.random(in: 0..<notes[i].scalarCount, using: &rng)
                let hi = min(notes[i].scalarCount, lo + Int.random(in: 1...6, using: &rng))
                let ids = notes[i].visibleIDs[lo..<hi].map { ID(replica: $0.replica, seq: $0.seq) }
                deleted.formUnion(ids)
                try notes[i].deleteScalars(in: lo..<hi)
            case 7..<9:
                // Partial sync through a delta, sometimes delivered twice.
                let j = Int.random(in: 0..<count, using: &rng)
                let delta = notes[j].changes(since: notes[i].version)
                try notes[i].apply(delta)
                if Bool.random(using: &rng) { try notes[i].apply(delta) }
            default:
                let j = Int.random(in: 0..<count, using: &rng)
                try notes[i].merge(notes[j])
            }
        }
        // Final exchange in a random order, with a duplicate.
        var order = Array(0..<count)
        order.shuffle(using: &rng)
        var final = notes[order[0]]
        for i in order { try final.merge(notes[i]) }
        try final.merge(notes[order[0]])
        for i in 0..<count {
            try notes[i].merge(final)
            #expect(notes[i].string == final.string)
            #expect(notes[i].invariantViolations == [])
        }
        let live = Set(final.visibleIDs.map { ID(replica: $0.replica, seq: $0.seq) })
        #expect(live == inserted.subtracting(deleted))
    }

    @Test(arguments: Array(31...38) as [UInt64])
    func mergeIsCommutativeAssociativeAndIdempotent(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let base = try NoteText(RandomText.make(&rng, maxPieces: 30), replica: .test(99))
        var notes = [base.forked(as: .test(1)), base.forked(as: .test(2)), base.forked(as: .test(3))]
        for i in 0..<3 {
            for _ in 0..<60 {
                if notes[i].scalarCount == 0 || Bool.random(using: &rng) {
                    try notes[i].insert(RandomText.make(&rng), atScalarOffset: Int.random(in: 0...notes[i].scalarCount, using: &rng))
                } else {
                    let lo = Int.random(in: 0..<notes[i].scalarCount, using: &rng)
                    try notes[i].deleteScalars(in: lo..<min(notes[i].scalarCount, lo + 3))
                }
            }
        }
        let (a, b, c) = (notes[0], notes[1], notes[2])
        #expect(try a.merging(b).string == b.merging(a).string)
        #expect(try a.merging(b).merging(c).string == a.merging(b.merging(c)).string)
        #expect(try a.merging(a).string == a.string)
        #expect(try a.merging(b).merging(b).string == a.merging(b).string)
        let viaChanges = try {
            var x = a
            try x.apply(b.changes(since: a.version))
            return x.string
        }()
        #expect(try viaChanges == a.merging(b).string)
    }

    @Test func versionVectorTotalSaturatesInsteadOfTrapping() {
        let made = VersionVector([.test(1): .max, .test(2): 5])
        #expect(made.totalCount == .max)
        #expect(VersionVector([.test(1): 3, .test(2): 5]).totalCount == 8)
    }

    @Test func changesForwardClockStampsAndVersions() throws {
        var a = try NoteText("hello", replica: .test(1), clock: HybridLogicalClock(physicalClock: .fixed(1_000)))
        var b = a.forked(as: .test(2), clock: HybridLogicalClock(physicalClock: .fixed(5_000)))
        try b.insert(" world", atScalarOffset: 5)
        let delta = b.changes(since: a.version)
        #expect(delta.insertedCount == 6)
        try a.apply(delta)
        #expect(a.string == "hello world")
        #expect(a.version == b.version)
        #expect(a.lastModified?.milliseconds == 5_000)
        #expect(b.changes(since: a.version).insertedCount == 0)
    }

    @Test func applyingChangesThatSkipOperationsChangesNothing() throws {
        let a = try NoteText("abc", replica: .test(1))
        var b = a.forked(as: .test(2))
        try b.insert("X", atScalarOffset: 1)
        let first = b.changes(since: a.version)
        try b.insert("Y", atScalarOffset: 2)
        let second = b.changes(since: b.version.merged(with: a.version, droppingReplica: .test(2), keeping: 1))
        var c = NoteText(replica: .test(3))
        #expect(throws: ChangeSetError.self) { try c.apply(second) }
        #expect(c.string == "")
        _ = first
    }

    @Test func aReplicaWithAClockTenYearsFastCannotDragOthersThere() throws {
        let now: UInt64 = 1_800_000_000_000
        let tenYears: UInt64 = 10 * 365 * 24 * 3_600_000
        var honest = try NoteText("note", replica: .test(1), clock: HybridLogicalClock(physicalClock: .fixed(now)))
        var fast = honest.forked(as: .test(2), clock: HybridLogicalClock(physicalClock: .fixed(now + tenYears)))
        try fast.insert(" from the future", atScalarOffset: 4)
        try honest.insert("My ", atScalarOffset: 0)
        try honest.merge(fast)
        #expect(honest.string == "My note from the future")
        #expect(honest.clock.latest.milliseconds < now + HybridLogicalClock.defaultMaximumForwardDrift + 1)
        try honest.insert("!", atScalarOffset: honest.scalarCount)
        var third = NoteText(replica: .test(3), clock: HybridLogicalClock(physicalClock: .fixed(now)))
        try third.merge(honest)
        #expect(third.string == "My note from the future!")
        #expect(third.clock.latest.milliseconds < now + HybridLogicalClock.defaultMaximumForwardDrift + 1)
    }
}

extension VersionVector {
    /// A vector equal to `self` except that `replica` keeps only `keeping` characters.
    func merged(with other: VersionVector, droppingReplica replica: ReplicaID, keeping: UInt64) -> VersionVector {
        var counts = counts
        for (r, n) in other.counts { counts[r] = max(counts[r] ?? 0, n) }
        counts[replica] = keeping
        return VersionVector(counts)
    }
}
