import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Re-pointing compactions on a short to-do list (the shape of `crdtnote-bench growth`, made
/// small so that chains form, are re-pointed on one device, revived by merges and re-pointed
/// again within a few thousand edits): devices type whole lines at random line boundaries one
/// scalar at a time and delete whole lines; pairs of devices merge; a device syncing merges the
/// server's copy, records what it has seen, compacts what every device has seen (re-pointing
/// group chains, Docs/FORMAT.md §4.7) and becomes the server's copy.
///
/// Oracles that do not use the compaction code: each device's **shadow** never compacts and
/// takes the same edits (as change sets) and merges, and its text must equal the device's; each
/// device's **token ledger** knows the lines typed and deleted by itself and the copies it merged,
/// transitively, and its text must be exactly the known lines not known deleted, each once.
@Suite("Re-pointed to-do lists (property)")
struct RepointedListPropertyTests {
    struct Device {
        var note: NoteText
        var shadow: NoteText
        var known: Set<String> = []
        var deleted: Set<String> = []

        mutating func take(_ other: Device) throws {
            try note.merge(other.note)
            try shadow.merge(other.shadow)
            known.formUnion(other.known)
            deleted.formUnion(other.deleted)
        }

        func check(_ comment: Comment) {
            #expect(note.string == shadow.string, comment)
            let lines = note.string.split(separator: "\n").map(String.init)
            #expect(lines.count == Set(lines).count, "a line appears twice: \(comment)")
            #expect(Set(lines) == known.subtracting(deleted), comment)
        }
    }

    @Test(arguments: Array(1...8) as [UInt64])
    func repointingCompactionsLoseAndResurrectNothing(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        let count = 2 + rng.below(3)
        let maximumLines = 3 + rng.below(6)
        var devices = (0..<count).map { i in
            let id = ReplicaID(rawValue: UInt64(i + 1) &* 0x2545_F491_4F6C_DD1D)
            return Device(note: NoteText(replica: id), shadow: NoteText(replica: id))
        }
        var server = Device(note: NoteText(replica: ReplicaID(rawValue: 7)), shadow: NoteText(replica: ReplicaID(rawValue: 7)))
        let counted = devices.map { Set([$0.note.replica]) }
        var repointings = 0
        var i = 0
        var session = 0
        for step in 0..<2_500 {
            // Sessions: one device makes several edits in a row.
            if session == 0 {
                i = rng.below(count)
                session = 1 + rng.below(12)
            }
            session -= 1
            let comment: Comment = "seed \(seed) step \(step) device \(i)"
            let lines = devices[i].note.string.split(separator: "\n").map(String.init)
            let before = devices[i].note
            if lines.count >= maximumLines || (!lines.isEmpty && rng.below(3) == 0) {
                let k = rng.below(lines.count)
                let start = lines[..<k].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
                devices[i].deleted.insert(lines[k])
                try devices[i].note.deleteScalars(in: start..<(start + lines[k].unicodeScalars.count + 1))
            } else {
                // At the top one time in three (where chains form), else at a random boundary.
                let k = rng.below(3) == 0 ? 0 : rng.below(lines.count + 1)
                let start = lines[..<k].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
                let line = "d\(i)s\(step)"
                devices[i].known.insert(line)
                for (offset, scalar) in (line + "\n").unicodeScalars.enumerated() {
                    try devices[i].note.insert(String(scalar), atScalarOffset: start + offset)
                }
            }
            try devices[i].shadow.apply(try devices[i].note.changes(after: before))
            switch rng.below(10) {
            case 0:
                let j = (i + 1 + rng.below(count - 1)) % count
                try devices[i].take(devices[j])
                try devices[j].take(devices[i])
                devices[j].check(comment)
            case 1, 2:
                try devices[i].take(server)
                let listed = devices[i].note.ledger?.repointed ?? [:]
                devices[i].note.recordSeen(by: devices[i].note.replica)
                try devices[i].note.compactIfSettled(devices: counted, repointing: .sparingHistory(of: devices[i].note))
                if let now = devices[i].note.ledger?.repointed, now != listed, !now.isEmpty { repointings += 1 }
                #expect(devices[i].note.invariantViolations.isEmpty, comment)
                server = devices[i]
            default:
                break
            }
            devices[i].check(comment)
        }
        for _ in 0..<3 {
            for i in 0..<count {
                try devices[i].take(server)
                devices[i].note.recordSeen(by: devices[i].note.replica)
                try devices[i].note.compactIfSettled(devices: counted, repointing: .sparingHistory(of: devices[i].note))
                server = devices[i]
            }
        }
        for device in devices {
            device.check("seed \(seed), after syncing")
            #expect(device.note.string == server.note.string, "seed \(seed)")
            #expect(device.note.invariantViolations.isEmpty, "seed \(seed)")
            let back = try NoteText(snapshot: device.note.encodedSnapshot(format: .version7), replica: device.note.replica)
            try back.checkLoadedSnapshot()
            #expect(back.string == device.note.string, "seed \(seed)")
        }
        #expect(repointings > 0, "seed \(seed): some compaction must re-point a chain")
    }
}
