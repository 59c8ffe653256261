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

    /// The shape of `crdtnote-bench growth` (Docs/BENCHMARKS.md, "The to-do workload", with the
    /// same draws) on a list of at most 12 lines instead of 25, where copies re-point chains whose
    /// first runs other copies re-pointed differently within about a thousand edits: three
    /// devices keeping no history, sessions of 1–30 line edits minutes to hours apart, lines typed
    /// at the start of a random line one scalar every 50–300 ms, pair merges after every 7th line
    /// edit, and a device syncing once its last sync is an hour old. When the reconciliation took
    /// the other copy's right origins in a single pass (FORMAT.md §4.7, "Re-pointed right origins"),
    /// seeds 7 and 32 had a pair merge refused as `inconsistent` after 903 and 1,001 line edits.
    /// Oracles as above: shadows that never compact, and the lines each device knows typed and deleted.
    @Test(arguments: Array(1...40) as [UInt64])
    func growthShapedListsSurviveNestedRepointing(seed: UInt64) throws {
        let maximumLines = 12
        let time = ManualPhysicalClock(milliseconds: 1_767_225_600_000)
        var rng = SplitMix64(seed: seed)
        func device(_ id: UInt64) -> Device {
            let replica = ReplicaID(rawValue: id)
            return Device(note: NoteText(replica: replica, clock: HybridLogicalClock(physicalClock: time.clock)),
                          shadow: NoteText(replica: replica))
        }
        var devices = (1...3).map { device(UInt64($0)) }
        var server = device(100)
        let counted = devices.map { Set([$0.note.replica]) }
        var lastSync = [UInt64](repeating: time.milliseconds, count: 3)
        var editor = 0
        var sessionLeft = 0
        func sync(_ i: Int) throws {
            try devices[i].take(server)
            devices[i].note.recordSeen(by: devices[i].note.replica)
            try devices[i].note.compactIfSettled(devices: counted, repointing: .sparingHistory(of: devices[i].note))
            #expect(devices[i].note.invariantViolations.isEmpty, "seed \(seed) device \(i)")
            server.note = devices[i].note.forked(as: server.note.replica)
            server.shadow = devices[i].shadow.forked(as: server.shadow.replica)
            server.known = devices[i].known
            server.deleted = devices[i].deleted
            lastSync[i] = time.milliseconds
        }
        for edits in 0..<1_100 {
            if sessionLeft == 0 {
                editor = rng.below(3)
                sessionLeft = 1 + rng.below(30)
                time.advance(by: 60_000 * UInt64(1 + rng.below(rng.below(4) == 0 ? 480 : 30)))
            } else {
                time.advance(by: UInt64(2_000 + rng.below(28_000)))
            }
            sessionLeft -= 1
            let comment: Comment = "seed \(seed) edit \(edits) device \(editor)"
            let lines = devices[editor].note.string.split(separator: "\n").map(String.init)
            let before = devices[editor].note
            let deletes = lines.count >= maximumLines || (!lines.isEmpty && rng.below(3) == 0)
            let k = rng.below(deletes ? lines.count : lines.count + 1)
            let start = lines[..<k].reduce(0) { $0 + $1.unicodeScalars.count + 1 }
            if deletes {
                devices[editor].deleted.insert(lines[k])
                try devices[editor].note.deleteScalars(in: start..<(start + lines[k].unicodeScalars.count + 1))
            } else {
                let line = "- [ ] task \(edits)"
                devices[editor].known.insert(line)
                for (offset, scalar) in (line + "\n").unicodeScalars.enumerated() {
                    time.advance(by: UInt64(50 + rng.below(251)))
                    try devices[editor].note.insert(String(scalar), atScalarOffset: start + offset)
                }
            }
            try devices[editor].shadow.apply(try devices[editor].note.changes(after: before))
            devices[editor].check(comment)
            if (edits + 1) % 7 == 0 {
                let a = rng.below(3)
                let b = (a + 1 + rng.below(2)) % 3
                try devices[a].take(devices[b])
                try devices[b].take(devices[a])
                devices[a].check(comment)
                devices[b].check(comment)
            }
            for i in 0..<3 where time.milliseconds - lastSync[i] >= 3_600_000 {
                try sync(i)
                devices[i].check(comment)
            }
        }
        for _ in 0..<3 { for i in 0..<3 { try sync(i) } }
        for device in devices {
            device.check("seed \(seed), after syncing")
            #expect(device.note.string == server.note.string, "seed \(seed)")
        }
    }
}
