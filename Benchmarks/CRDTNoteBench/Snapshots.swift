import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// The snapshot steps of the M1 workload, kept together so the format is used in one place.
enum Snapshots {
    /// What `save` produces: a full-state binary snapshot.
    typealias Saved = [UInt8]

    /// Saves the full state of `note` in the default snapshot format (format 1).
    static func save(_ note: NoteText) -> Saved { note.encodedSnapshot() }

    /// Saves the full state of `note` in snapshot format `format`.
    static func save(_ note: NoteText, format: SnapshotFormat) -> Saved { note.encodedSnapshot(format: format) }

    /// `saved` (any format) written again in `format`; nil unless it loads back to the very
    /// same state (its default-format bytes unchanged).
    static func resaved(_ saved: Saved, format: SnapshotFormat) throws -> Saved? {
        let note = try load(saved, replica: ReplicaID(rawValue: 1))
        let other = save(note, format: format)
        let back = try load(other, replica: ReplicaID(rawValue: 1))
        return save(back) == save(note) ? other : nil
    }

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
