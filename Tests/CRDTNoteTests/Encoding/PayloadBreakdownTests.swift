import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// ``PayloadBreakdown`` (what `crdtnote-bench growth` reports per checkpoint): its parts add up
/// to the payload ``NoteText/encodedSnapshot(format:)`` writes, in every format, compacted or
/// not, with or without a ledger; its counts agree with what the edits made.
@Suite("Payload breakdown")
struct PayloadBreakdownTests {
    /// Seeded edits on three devices (typing, deleting, merging, recording seen vectors and
    /// compacting what settles), checking every copy's breakdown after every step against the
    /// encoded payload and against counts kept apart from the note: scalars typed and deleted.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func partsAddUpToThePayload(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        let replicas = (1...3).map { ReplicaID.test(UInt64($0)) }
        var notes = replicas.map { NoteText(replica: $0) }
        // Per device, what its copy holds: scalars typed by each replica, and the ids deleted.
        var typed = [[ReplicaID: Int]](repeating: [:], count: 3)
        var compacted = [Bool](repeating: false, count: 3)
        var checkedCompacted = 0
        for step in 0..<200 {
            let i = rng.below(3)
            switch rng.below(10) {
            case 0..<4:
                let text = String(repeating: "x", count: 1 + rng.below(5)) + "\n"
                try notes[i].insert(text, atScalarOffset: rng.below(notes[i].scalarCount + 1))
                typed[i][replicas[i], default: 0] += text.unicodeScalars.count
            case 4..<6:
                guard notes[i].scalarCount > 0 else { continue }
                let start = rng.below(notes[i].scalarCount)
                try notes[i].deleteScalars(in: start..<min(notes[i].scalarCount, start + 1 + rng.below(4)))
            case 6..<9:
                let j = rng.below(3)
                try notes[i].merge(notes[j])
                typed[i].merge(typed[j]) { max($0, $1) }
                compacted[i] = compacted[i] || compacted[j]
            default:
                notes[i].recordSeen(by: replicas[i])
                if try notes[i].compactIfSettled(devices: replicas.map { Set([$0]) }) { compacted[i] = true }
            }
            for format in [SnapshotFormat.version1, .version2, .version3] {
                let note = notes[i]
                let parts = try note.payloadBreakdown(format: format)
                let comment: Comment = "seed \(seed) step \(step) device \(i) format \(format)"
                #expect(parts.total == note.encodedSnapshot(format: format).count, comment)
                if note.isCompacted { checkedCompacted += 1 }
                #expect(parts.visibleBytes == note.utf8.count, comment)
                let held = typed[i].values.reduce(0, +)
                if compacted[i] || note.isCompacted {
                    #expect(parts.tombstones <= held - note.scalarCount, comment)
                } else {
                    #expect(parts.tombstones == held - note.scalarCount, comment)
                }
                #expect(parts.tombstoneRunsByLeftOrigins <= parts.tombstoneRuns, comment)
                if parts.tombstoneRuns == 0 && !parts.runColumns.isEmpty {
                    #expect(parts.visibleRunTable == parts.runTable, comment)
                }
                #expect((parts.ledger > 0) == (note.isCompacted || note.ledger != nil), comment)
                #expect(parts.runColumns.isEmpty == (format == .version1 && !note.isCompacted && note.ledger == nil), comment)
            }
        }
        #expect(checkedCompacted > 0, "seed \(seed): some copy must be compacted")
    }

    /// "ab", then "c" typed between them (left origin "a", right origin "b"): deleting "b" leaves a
    /// tombstone only a right origin names; deleting "a" instead, one left origins name ("c" and
    /// "b", split from "ab", both have it as left origin). A compaction of every tombstone keeps
    /// each; only the second is kept by left origins.
    @Test(arguments: [(1, 0), (0, 1)])
    func tombstonesKeptByLeftOriginsAreCountedApart(deleted: Int, byLeft: Int) throws {
        var note = try NoteText("ab", replica: .test(1))
        try note.insert("c", atScalarOffset: 1)
        try note.deleteScalars(in: deleted == 1 ? 2..<3 : 0..<1)
        try note.compact(settled: nil)
        #expect(note.string == (deleted == 1 ? "ac" : "cb"))
        let parts = try note.payloadBreakdown(format: .version3)
        #expect(parts.tombstoneRuns == 1)
        #expect(parts.tombstones == 1)
        #expect(parts.tombstoneRunsByLeftOrigins == byLeft)
        #expect(parts.visibleRuns == 2)
        #expect(parts.total == note.encodedSnapshot(format: .version3).count)
    }
}
