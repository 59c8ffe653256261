import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Two copies from `crdtnote-bench growth --repoint --edits 150000` with no history
/// (Tests/Fixtures/repointed: the receiver and sender of a pair merge after 80,633 line edits,
/// both listing re-pointed ids). Merging the sender into the receiver was refused as
/// `inconsistent`: the merge revived compacted elements and laid everything out at once, then
/// checked the rule's order before reconciling the listed right origins. The order is now
/// checked after the reconciliation (Docs/FORMAT.md §4.7). Oracle: both merge orders give the
/// same text, the elements both hold in the same order, and each result reads back.
@Suite struct RepointedMergeFixtureTests {
    static func copy(_ name: String, replica: UInt64) throws -> NoteText {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.fixtures + "/repointed/\(name).bin"))
        let note = try NoteText(snapshot: Array(bytes), replica: ReplicaID(rawValue: replica))
        try note.checkLoadedSnapshot()
        return note
    }

    @Test func copiesThatRepointedDifferentlyMergeBothWays() throws {
        let receiver = try Self.copy("refused-receiver", replica: 3)
        let sender = try Self.copy("refused-sender", replica: 2)
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
