import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteToolSupport

/// A compaction that re-points group chains (Docs/FORMAT.md §4.7, "When a compaction
/// re-points") leaves alone the members whose past the note's history reads: the past text at
/// a time the chain's lines were visible is the text of that time (the oracle: the text recorded
/// then), and once the history no longer holds their deletions (trimmed by its window) the chain
/// goes.
@Suite struct RepointingHistoryTests {
    static let start: UInt64 = 1_800_000_000_000

    @Test func chainsTheHistoryReadsStayUntilItsWindowPasses() throws {
        let time = ManualPhysicalClock(milliseconds: Self.start)
        var devices = GroupChainsTests.ids.prefix(3).map { id in
            var note = NoteText(replica: id, clock: HybridLogicalClock(physicalClock: time.clock))
            note.historyRetention = .default
            return note
        }
        for line in 0..<12 {
            time.advance(by: 60_000)
            try devices[line % 3].insert("line \(line)\n", atScalarOffset: 0)
            for other in devices.indices where other != line % 3 { try devices[other].merge(devices[line % 3]) }
        }
        let everyLine = devices[0].string
        let allVisible = Date(timeIntervalSince1970: Double(time.milliseconds) / 1000)
        time.advance(by: 60_000)
        var note = devices[0]
        try note.deleteScalars(in: "line 11\n".unicodeScalars.count..<note.scalarCount)

        // The history holds the deletions: nothing is re-pointed, and the past still reads.
        var kept = note
        try kept.compact(settled: nil, repointing: .sparingHistory(of: kept))
        #expect(kept.ledger?.repointed.isEmpty ?? true)
        #expect(try kept.text(at: allVisible) == everyLine)
        #expect(kept.string == "line 11\n")

        // 31 days on, the history trimmed by its window holds none of them: the chain goes.
        time.advance(by: 31 * 86_400_000)
        var later = note
        later.trimHistory()
        #expect(later.history.deletions.isEmpty)
        try later.compact(settled: nil, repointing: .sparingHistory(of: later))
        #expect(later.ledger?.repointed.isEmpty == false)
        #expect(later.sequence.runsInOrder().filter(\.isDeleted).count < kept.sequence.runsInOrder().filter(\.isDeleted).count)
        #expect(later.string == "line 11\n")
        #expect(later.invariantViolations.isEmpty)
        // Without re-pointing the same compaction keeps the chain.
        var plain = note
        plain.trimHistory()
        try plain.compact(settled: nil)
        #expect(plain.sequence.runsInOrder().filter(\.isDeleted).count == kept.sequence.runsInOrder().filter(\.isDeleted).count)
    }
}
