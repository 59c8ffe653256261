@testable import CRDTNote
@testable import CRDTNoteToolSupport

extension NoteText {
    /// A note of one replica built from `edits` random insertions of `pieces` at random places,
    /// a third of them followed by a deletion of 1...`maximumDeletion` scalars: many short runs
    /// with tombstones between them (for tests that walk runs and leaves).
    static func randomPieces(_ pieces: [String], edits: ClosedRange<Int>, maximumDeletion: Int,
                             _ rng: inout SplitMix64) throws -> NoteText {
        var note = NoteText(replica: ReplicaID(rawValue: 1))
        for _ in 0..<Int.random(in: edits, using: &rng) {
            let text = pieces[Int.random(in: 0..<pieces.count, using: &rng)]
            try note.insert(text, atScalarOffset: Int.random(in: 0...note.scalarCount, using: &rng))
            if note.scalarCount > 10, Int.random(in: 0..<3, using: &rng) == 0 {
                let at = Int.random(in: 0..<note.scalarCount - maximumDeletion, using: &rng)
                try note.deleteScalars(in: at..<at + Int.random(in: 1...maximumDeletion, using: &rng))
            }
        }
        return note
    }
}
