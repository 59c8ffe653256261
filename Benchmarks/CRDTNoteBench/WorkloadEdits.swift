import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteToolSupport

/// One generated edit: delete `deleteCount` scalars at `position`, or insert `text` there.
struct WorkloadEdit {
    var position: Int
    var deleteCount: Int
    var text: String
}

/// E(seed, start, count) of Docs/BENCHMARKS.md ("Workload M1"): the random numbers are drawn in exactly the
/// documented order, so every implementation produces the same edits.
enum RandomEdits {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz ".unicodeScalars)

    static func generate(seed: UInt64, startLength: Int, count: Int) -> [WorkloadEdit] {
        var rng = SplitMix64(seed: seed)
        var length = UInt64(startLength)
        var edits: [WorkloadEdit] = []
        edits.reserveCapacity(count)
        for _ in 0..<count {
            let r = rng.next()
            if length == 0 || r % 3 != 0 {
                let pos = rng.next() % (length + 1)
                let n = 1 + rng.next() % 8
                var text = String.UnicodeScalarView()
                for _ in 0..<n { text.append(alphabet[Int(rng.next() % 27)]) }
                edits.append(WorkloadEdit(position: Int(pos), deleteCount: 0, text: String(text)))
                length += n
            } else {
                let pos = rng.next() % length
                let n = min(1 + rng.next() % 8, length - pos)
                edits.append(WorkloadEdit(position: Int(pos), deleteCount: Int(n), text: ""))
                length -= n
            }
        }
        return edits
    }

    /// Applies generated edits as local edits of `note`.
    static func apply(_ edits: [WorkloadEdit], to note: inout NoteText) throws(NoteTextError) {
        for e in edits {
            if e.deleteCount > 0 {
                try note.deleteScalars(in: e.position..<e.position + e.deleteCount)
            } else {
                try note.insert(e.text, atScalarOffset: e.position)
            }
        }
    }
}
