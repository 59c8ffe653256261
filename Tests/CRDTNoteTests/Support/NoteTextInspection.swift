@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

extension NoteText {
    /// Descriptions of broken internal invariants (empty when consistent).
    /// A loaded snapshot's index is built (shared, not changing this copy); a corrupt one is a violation.
    var invariantViolations: [String] {
        do {
            return try loadedSequence().invariantViolations()
        } catch {
            return ["the loaded snapshot's index cannot be built: \(error)"]
        }
    }
    var visibleIDs: [(replica: ReplicaID, seq: UInt32)] { ((try? loadedSequence()) ?? TextSequence()).visibleIDs() }
    /// The CRDT index, built from a loaded snapshot if need be (an empty one when that fails;
    /// tests that care check ``invariantViolations`` too).
    var index: TextSequence { (try? loadedSequence()) ?? TextSequence() }
}
