import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Pairs of copies from `crdtnote-bench growth --edits 150000` (re-pointing) with no history
/// (Tests/Fixtures/repointed: the receiver and sender of a merge, both listing re-pointed ids),
/// whose merge one way was refused as `inconsistent`:
/// - `refused` (seed 31, after 80,633 line edits): the merge revived compacted elements and laid
///   everything out at once, then checked the rule's order before reconciling the listed right
///   origins; the order is now checked after the reconciliation.
/// - `refused2` (`--seed 1`, after 90,454 line edits): the receiver had re-pointed a chain's
///   first run past the chain's last member, so the sender's right origin for another run (that
///   first run) lay after the receiver's; it lies before once the first run takes its right
///   origin back, so the reconciliation repeats until nothing changes.
/// Oracle (Docs/FORMAT.md §4.7): both merge orders give the same text, the elements both hold
/// in the same order, and each result reads back.
@Suite struct RepointedMergeFixtureTests {
    static func copy(_ name: String, replica: UInt64) throws -> NoteText {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.fixtures + "/repointed/\(name).bin"))
        let note = try NoteText(snapshot: Array(bytes), replica: ReplicaID(rawValue: replica))
        try note.checkLoadedSnapshot()
        return note
    }

    @Test(arguments: ["refused", "refused2"])
    func copiesThatRepointedDifferentlyMergeBothWays(pair: String) throws {
        let receiver = try Self.copy(pair + "-receiver", replica: 3)
        let sender = try Self.copy(pair + "-sender", replica: 2)
        #expect(receiver.ledger?.repointed.isEmpty == false && sender.ledger?.repointed.isEmpty == false)
        var one = receiver
        try one.merge(sender)
        var other = sender
        try other.merge(receiver)
        #expect(one.string == other.string)
        // The copies may hold different tombstones; those both hold are in one order.
        let (first, second) = (try GroupChainsTests.elements(of: one), try GroupChainsTests.elements(of: other))
        let common = Set(first).intersection(second)
        #expect(first.filter(common.contains) == second.filter(common.contains))
        #expect(one.invariantViolations.isEmpty && other.invariantViolations.isEmpty)
        for note in [one, other] {
            let back = try NoteText(snapshot: note.encodedSnapshot(format: .version7), replica: note.replica)
            try back.checkLoadedSnapshot()
            #expect(back.string == note.string)
        }
    }
}
