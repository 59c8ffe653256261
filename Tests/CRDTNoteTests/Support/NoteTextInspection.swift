@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

extension NoteText {
    /// Descriptions of broken internal invariants (empty when consistent).
    var invariantViolations: [String] { sequence.invariantViolations() }
    var visibleIDs: [(replica: ReplicaID, seq: UInt32)] { sequence.visibleIDs() }
}
