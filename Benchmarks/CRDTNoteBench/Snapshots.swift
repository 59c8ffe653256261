import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// The snapshot steps of the M1 workload, kept together so the format is used in one place.
enum Snapshots {
    /// What `save` produces: a full-state binary snapshot.
    typealias Saved = [UInt8]

    /// Saves the full state of `note`.
    static func save(_ note: NoteText) -> Saved { note.encodedSnapshot() }

    /// Size of a saved note in bytes.
    static func byteCount(_ saved: Saved) -> Int? { saved.count }

    /// Loads a saved note as `replica`.
    static func load(_ saved: Saved, replica: ReplicaID) throws -> NoteText {
        try NoteText(snapshot: saved, replica: replica)
    }

    /// Size of the encoded changes `from` has that a copy at `version` lacks.
    static func deltaByteCount(_ from: NoteText, since version: VersionVector) -> Int? {
        from.changes(since: version).encoded().count
    }
}
