import Testing
@testable import CRDTNote

/// The internal checks (Sequence/TextSequence+InternalChecks.swift)
/// can fail: each test corrupts one structure of a sound sequence through the package's own
/// storage and shows that the check of what a mutation touched names the broken invariant, and
/// the exit tests show a mutation stops the process at a corrupt state (the local check) and
/// that the full check every 1,000 mutations finds a corruption no mutation touched. Only a debug
/// build run with the variable checks: `CRDTNOTE_INTERNAL_CHECKS=1 swift test --filter
/// InternalChecksTests` (as `.ci/run` does).
@Suite struct InternalChecksTests {
    static let enabled = TextSequence.internalChecksEnabled
    static let needsChecks: Comment = "needs a debug build run with CRDTNOTE_INTERNAL_CHECKS=1 (.ci/run's internal-checks step)"

    /// A note of many runs over several leaves, with tombstones of two replicas.
    static func sample() throws -> NoteText {
        var note = try NoteText(String(repeating: "abcdefgh", count: 40), replica: ReplicaID(rawValue: 1))
        var other = note.forked(as: ReplicaID(rawValue: 2))
        for k in stride(from: 300, to: 0, by: -7) { try note.insert("é\(k)", atScalarOffset: k) }
        for k in stride(from: 250, to: 10, by: -11) { try other.deleteScalars(in: k..<k + 2) }
        try note.merge(other)
        for k in stride(from: 200, to: 20, by: -13) { try note.deleteScalars(in: k..<k + 1) }
        return note
    }

    #if DEBUG
    /// The violations the touched-state check finds when every leaf counts as touched.
    static func violations(_ sequence: TextSequence) -> [String] {
        var s = sequence
        s.noteTouched(positionsFrom: 0)
        return s.touchedViolations()
    }
    #endif

    @Test(.enabled(if: enabled, needsChecks))
    func soundStateHasNoViolations() throws {
        #if DEBUG
        let sequence = try Self.sample().index
        #expect(sequence.leaves.count > 2, "the sample must span leaves")
        #expect(Self.violations(sequence) == [])
        #expect(sequence.invariantViolations() == [])
        #endif
    }

    @Test(.enabled(if: enabled, needsChecks))
    func fenwickPathIsChecked() throws {
        #if DEBUG
        var s = try Self.sample().index
        // One unit moved between two leaves' Fenwick values: the totals still agree.
        s.scalarTree.add(1, at: 0)
        s.scalarTree.add(-1, at: 1)
        s.scalarTree.flush()
        let problems = Self.violations(s)
        #expect(problems.contains { $0.hasPrefix("Fenwick path:") }, "\(problems)")
        #endif
    }

    @Test(.enabled(if: enabled, needsChecks))
    func runCountsAndSlotCountsAreChecked() throws {
        #if DEBUG
        var s = try Self.sample().index
        let slot = Int(s.order[0])
        let i = try #require(s.leaves[slot].firstIndex { !$0.isDeleted && $0.byteCount == $0.length })
        s.leaves[slot][i].utf16 += 1
        let problems = Self.violations(s)
        #expect(problems.contains { $0.hasPrefix("run counts:") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("slot counts:") }, "\(problems)")
        #endif
    }

    @Test(.enabled(if: enabled, needsChecks))
    func leafSplitAndLeafOfAreChecked() throws {
        #if DEBUG
        var s = try Self.sample().index
        let slot = Int(s.order[0])
        // A leaf past capacity, as a split that did not happen leaves it.
        let extra = Array(repeating: s.leaves[slot][0], count: TextSequence.leafCapacity + 1)
        s.leaves[slot] += extra
        var problems = Self.violations(s)
        #expect(problems.contains { $0.hasPrefix("leaf split:") }, "\(problems)")
        // Ids pointed at the wrong leaf, as a split that moved runs without re-pointing them leaves them.
        var t = try Self.sample().index
        let run = t.leaves[slot][0]
        t.leafOf[Int(run.replica)].assign(run.seq..<run.seqEnd, slot: Int32(Int(t.order[1])))
        problems = Self.violations(t)
        #expect(problems.contains { $0.hasPrefix("leafOf:") }, "\(problems)")
        #endif
    }

    @Test(.enabled(if: enabled, needsChecks))
    func deleteSetChunkIsChecked() throws {
        #if DEBUG
        var s = try Self.sample().index
        // A replica (by its index in the sequence) with at least two deleted ranges.
        let r = try #require(s.deleted.indices.first { Array(s.deleted[$0].ranges).count >= 2 })
        var ranges = Array(s.deleted[r].ranges)
        // Two ranges that touch, which the set must have joined.
        ranges[1] = ranges[0].upperBound..<ranges[1].upperBound
        s.deleted[r].corruptForTesting(chunks: [ranges])
        s.noteTouched(deleted: ranges[1], replica: UInt32(r))
        let problems = s.touchedViolations()
        #expect(problems.contains { $0.contains("overlap or touch") }, "\(problems)")
        #endif
    }

    @Test(.enabled(if: enabled, needsChecks))
    func aMutationStopsAtTheFirstCorruptState() async throws {
        #if DEBUG
        await #expect(processExitsWith: .failure) {
            var note = try InternalChecksTests.sample()
            // The first leaf counted one scalar more than it holds; the insertion lands there.
            note.sequence.flushSlotCounts()
            note.sequence.slotScalars[Int(note.sequence.order[0])] += 1
            try note.insert("x", atScalarOffset: 0)
        }
        #endif
    }

    @Test(.enabled(if: enabled, needsChecks))
    func theFullCheckFindsWhatNoMutationTouched() async throws {
        #if DEBUG
        // A run count one off, which no local check reads: only the full check every
        // `fullCheckInterval` mutations can find it.
        await #expect(processExitsWith: .failure) {
            var note = try InternalChecksTests.sample()
            note.sequence.runCount += 1
            for _ in 0..<TextSequence.fullCheckInterval { try note.insert("z", atScalarOffset: note.scalarCount) }
        }
        #endif
    }
}
