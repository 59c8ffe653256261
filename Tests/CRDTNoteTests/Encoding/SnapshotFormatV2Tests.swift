import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteSupport

/// Snapshot format 2 (Docs/FORMAT.md, "Runs, version 2") against format 1 as the oracle: both
/// must load to the same note.
@Suite struct SnapshotFormatV2Tests {
    @Test(arguments: Array(1...40) as [UInt64])
    func formatTwoLoadsToTheSameNoteAsFormatOne(seed: UInt64) throws {
        let notes = FormatSamples.randomNotes(seed: seed, replicas: 2 + Int(seed % 5), edits: 40 + Int(seed % 7) * 30)
        for note in notes {
            let v1 = note.encodedSnapshot(format: .version1)
            let v2 = note.encodedSnapshot(format: .version2)
            #expect(v1 == note.encodedSnapshot(), "format 1 is the default")
            #expect(v2[4] == 2 && v2[6] == 2, "format 2 declares version 2 and minimum reader 2")
            #expect(v1[4] == 1 && v1[6] == 1)
            let fromV1 = try NoteText(snapshot: v1, replica: note.replica)
            let fromV2 = try NoteText(snapshot: v2, replica: note.replica)
            #expect(fromV2.string == note.string)
            #expect(fromV2.version == note.version)
            #expect(fromV2.lastModified == note.lastModified)
            #expect(fromV2.invariantViolations == [])
            #expect(fromV2.encodedSnapshot(format: .version1) == v1, "the same state, run for run")
            #expect(fromV2.encodedSnapshot(format: .version2) == v2, "format 2 encoding is deterministic")
            #expect(fromV1.encodedSnapshot(format: .version2) == v2)
            for other in notes {
                #expect(try fromV2.merging(other).string == note.merging(other).string)
            }
        }
    }
}
