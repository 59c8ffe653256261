import CRDTNote

/// The snapshot steps of the M1 workload, kept together so the binary format plugs in here alone.
///
/// Interim: the binary snapshot format has not landed on main yet, so a "saved" note is the
/// in-memory value and "loading" forks it; sizes are unknown (nil) and reported as such.
enum Snapshots {
    /// Whether `save` produces real bytes (false until the binary format lands).
    static let isBinary = false

    /// What `save` produces.
    typealias Saved = NoteText

    /// Saves the full state of `note`.
    static func save(_ note: NoteText) -> Saved { note }

    /// Size of a saved note in bytes, nil while there is no byte format.
    static func byteCount(_ saved: Saved) -> Int? { nil }

    /// Loads a saved note as `replica`.
    static func load(_ saved: Saved, replica: ReplicaID) throws -> NoteText { saved.forked(as: replica) }

    /// Size of the changes `from` has that a copy at `version` lacks, nil while there is no byte format.
    static func deltaByteCount(_ from: NoteText, since version: VersionVector) -> Int? { nil }
}
