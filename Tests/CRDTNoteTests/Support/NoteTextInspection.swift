import Testing
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
    /// The full structural check (``invariantViolations``) of every note, as the property and trace
    /// tests end: with the internal checks on each mutation checks only what it touched (and
    /// everything every 1,000 mutations), so the state a test ends in is checked whole here.
    static func expectSound(_ notes: [NoteText], _ context: @autoclosure () -> String = "",
                            sourceLocation: SourceLocation = #_sourceLocation) {
        for (i, note) in notes.enumerated() {
            let problems = note.invariantViolations
            #expect(problems == [], "note \(i) \(context()): \(problems.prefix(3))", sourceLocation: sourceLocation)
        }
    }
    var visibleIDs: [(replica: ReplicaID, seq: UInt32)] { ((try? loadedSequence()) ?? TextSequence()).visibleIDs() }
    /// The CRDT index, built from a loaded snapshot if need be (an empty one when that fails;
    /// tests that care check ``invariantViolations`` too).
    var index: TextSequence { (try? loadedSequence()) ?? TextSequence() }
}

/// One element of a note, tombstones included, as compared across copies: replica id, seq,
/// whether deleted, and its origins as (replica id, seq).
struct ElementRecord: Equatable, CustomStringConvertible {
    var replica: UInt64
    var seq: UInt32
    var deleted: Bool
    var left: (UInt64, UInt32)?
    var right: (UInt64, UInt32)?

    static func == (a: ElementRecord, b: ElementRecord) -> Bool {
        a.replica == b.replica && a.seq == b.seq && a.deleted == b.deleted
            && a.left?.0 == b.left?.0 && a.left?.1 == b.left?.1 && a.right?.0 == b.right?.0 && a.right?.1 == b.right?.1
    }

    var description: String { "\(replica):\(seq)\(deleted ? "x" : "")" }
}

extension NoteText {
    /// Every element in document order, tombstones included (from the built index).
    var elementOrder: [ElementRecord] {
        let sequence = index
        func id(_ ref: ItemRef) -> (UInt64, UInt32)? { ref.isNone ? nil : (sequence.replicas[Int(ref.replica)].rawValue, ref.seq) }
        var out: [ElementRecord] = []
        for slot in sequence.order {
            for run in sequence.leaves[Int(slot)] {
                for k in 0..<run.length {
                    let left = k == 0 ? run.left : ItemRef(replica: run.replica, seq: run.seq + k - 1)
                    out.append(ElementRecord(replica: sequence.replicas[Int(run.replica)].rawValue, seq: run.seq + k,
                                             deleted: run.isDeleted, left: id(left), right: id(run.right)))
                }
            }
        }
        return out
    }
}
