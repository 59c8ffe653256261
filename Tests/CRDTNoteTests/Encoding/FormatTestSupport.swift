import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

/// Builds small multi-replica documents with random edits and merges for format tests.
enum FormatSamples {
    static func randomNotes(seed: UInt64, replicas: Int = 3, edits: Int = 60) -> [NoteText] {
        var rng = SplitMix64(seed: seed)
        var notes = (0..<replicas).map { NoteText(replica: ReplicaID(rawValue: UInt64($0 + 1) * 1_000_003)) }
        for _ in 0..<edits {
            let i = Int.random(in: 0..<replicas, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0..<3:
                try? notes[i].insert(RandomText.make(&rng), atScalarOffset: Int.random(in: 0...notes[i].scalarCount, using: &rng))
            case 3..<5 where notes[i].scalarCount > 0:
                let lo = Int.random(in: 0..<notes[i].scalarCount, using: &rng)
                try? notes[i].deleteScalars(in: lo..<min(notes[i].scalarCount, lo + Int.random(in: 1...4, using: &rng)))
            default:
                // Every note has its own replica id, so merging never fails; a failure is a bug.
                do { try notes[i].merge(notes[Int.random(in: 0..<replicas, using: &rng)]) } catch { Issue.record("\(error)") }
            }
        }
        return notes
    }

    /// Replaces the header checksum so a mutated body reaches the body decoder.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= NoteFormat.headerSize else { return bytes }
        var out = bytes
        let body = Array(bytes[NoteFormat.headerSize...])
        let length = UInt32(body.count)
        let crc = CRC32C.checksum(body)
        for k in 0..<4 {
            out[10 + k] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(k)))
            out[14 + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k)))
        }
        return out
    }
}
