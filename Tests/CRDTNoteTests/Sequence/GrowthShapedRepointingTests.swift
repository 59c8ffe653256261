import CRDTNoteToolSupport
import Testing
@testable import CRDTNote

/// Property tests of re-pointing compactions on to-do lists shaped like `crdtnote-bench growth`'s
/// (a suite of its own: its runs are long, and the internal-checks run of `.ci/run` leaves it out).
@Suite("Growth-shaped lists re-pointing (property)")
struct GrowthShapedRepointingTests {
    typealias Device = RepointedListPropertyTests.Device

    /// The shape of `crdtnote-bench growth` (Docs/BENCHMARKS.md, "The to-do workload", with the
    /// same draws) on a list of at most 12 or 20 lines instead of 25, where copies re-point chains
    /// whose first runs other copies re-pointed differently within a few thousand edits: three
    /// devices keeping no history, sessions of 1–30 line edits minutes to hours apart, lines typed
    /// at the start of a random line one scalar every 50–300 ms, pair merges after every 7th line
    /// edit, and a device syncing once its last sync is an hour old. It finds both merges the
    /// long growth runs refused (FORMAT.md §4.7, "Re-pointed right origins") without their
    /// fixtures: with the rule's order checked before the listed right origins are reconciled,
    /// seeds 6 and 34 of the 20-line lists are refused after 2,765 and 4,172 line edits; with
    /// the reconciliation taking the other copy's right origins in a single pass, seeds 7 and 32
    /// of the 12-line lists after 903 and 1,001.
    /// Oracles as in ``RepointedListPropertyTests``: shadows that never compact, and the lines each
    /// device knows typed and deleted.
    @Test(arguments: [12, 20], Array(1...40) as [UInt64])
    func growthShapedListsSurviveNestedRepointing(maximumLines: Int, seed: UInt64) throws {
        let lineEdits = maximumLines == 12 ? 1_100 : 4_200
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
        for edits in 0..<lineEdits {
            if sessionLeft == 0 {
                editor = rng.below(3)
                sessionLeft = 1 + rng.below(30)
                time.advance(by: 60_000 * UInt64(1 + rng.below(rng.below(4) == 0 ? 480 : 30)))
            } else {
                time.advance(by: UInt64(2_000 + rng.below(28_000)))
            }
            sessionLeft -= 1
            let comment: Comment = "\(maximumLines) lines, seed \(seed), edit \(edits), device \(editor)"
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
