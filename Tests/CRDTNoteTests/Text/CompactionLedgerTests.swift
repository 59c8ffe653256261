import CRDTNoteToolSupport
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// When deleted text is settled (Docs/FORMAT.md §4.7, "When tombstones settle"): nothing is
/// dropped until every device that counts has recorded seeing the proposal's cut, a device
/// offline across the compaction still merges without losing a character (through a record
/// conflict with and without its ancestor), and ledgers merge as a CRDT.
@Suite("Compaction ledger")
struct CompactionLedgerTests {
    static let devices: [Set<ReplicaID>] = [[.test(1)], [.test(2)], [.test(3)]]

    /// The device writes the note: records what it has seen, compacts what is settled.
    static func write(_ note: inout NoteText) throws -> Bool {
        note.recordSeen(by: note.replica)
        return try note.compactIfSettled(devices: devices)
    }

    @Test func nothingIsDroppedUntilEveryDeviceHasSeenTheCut() throws {
        var a = try NoteText("keep\n", replica: .test(1))
        try a.insert("drop me\n", atScalarOffset: 5)
        var b = a.forked(as: .test(2))
        var c = a.forked(as: .test(3))
        try a.deleteScalars(in: 5..<13)
        #expect(try !Self.write(&a), "nothing proposed yet")
        #expect(a.ledger?.proposed.isEmpty == false, "the deleted line is proposed")
        try b.merge(a)
        #expect(try !Self.write(&b), "C has not seen the cut")
        try a.merge(b)
        #expect(try !Self.write(&a), "still C")
        #expect(!a.isCompacted)
        try c.merge(a)
        #expect(try Self.write(&c), "C's write records the last seen vector needed: C compacts")
        #expect(c.isCompacted && c.string == "keep\n")
        try a.merge(c)
        #expect(try Self.write(&a), "A learns it from C's ledger")
        #expect(a.isCompacted && a.string == "keep\n")
        #expect(a.index.runsInOrder().allSatisfy { !$0.isDeleted })
        // A device whose record is not counted (an empty list) never holds compaction back; one
        // that counts but never wrote does.
        var d = try NoteText("x", replica: .test(1))
        try d.insert("y", atScalarOffset: 1)
        try d.deleteScalars(in: 1..<2)
        d.recordSeen(by: .test(1))
        try d.compactIfSettled(devices: [[.test(1)], [.test(9)]])
        d.recordSeen(by: .test(1))
        #expect(try !d.compactIfSettled(devices: [[.test(1)], [.test(9)]]))
        #expect(try d.compactIfSettled(devices: [[.test(1)]]))
    }

    /// B goes offline; A and C settle and compact a deleted paragraph. B, which still shows it,
    /// types next to it and inside it, then saves: the save conflicts, and the record merge (with
    /// and without the ancestor B started from) keeps every character B typed and none that A deleted.
    @Test(arguments: [true, false])
    func aDeviceOfflineAcrossACompactionLosesNothing(withAncestor: Bool) throws {
        // "end" is typed before the paragraph is, so it does not name the paragraph as an origin.
        var a = try NoteText("title\n", replica: .test(1))
        try a.insert("end\n", atScalarOffset: 6)
        try a.insert("old paragraph\n", atScalarOffset: 6)
        var b = a.forked(as: .test(2))
        var c = a.forked(as: .test(3))
        let ancestor = try NoteRecord(recordName: "n", note: a, format: .version3)
        // B leaves; A deletes the paragraph; A and C settle it (B no longer counts: its device
        // record is past the activity window).
        let counted: [Set<ReplicaID>] = [[.test(1)], [.test(3)]]
        try a.deleteScalars(in: 6..<20)
        for _ in 0..<3 {
            a.recordSeen(by: .test(1)); try a.compactIfSettled(devices: counted)
            try c.merge(a)
            c.recordSeen(by: .test(3)); try c.compactIfSettled(devices: counted)
            try a.merge(c)
        }
        #expect(a.isCompacted && a.string == "title\nend\n")
        // B, offline: types before the paragraph, inside it, and after it.
        try b.insert("[inside]", atScalarOffset: 10)      // "title\nold [inside]paragraph\n"
        try b.insert("[before]", atScalarOffset: 6)
        try b.insert("[after]", atScalarOffset: 36)
        #expect(b.string == "title\n[before]old [inside]paragraph\n[after]end\n")
        let server = try NoteRecord(recordName: "n", note: a, format: .version3)
        let client = try NoteRecord(recordName: "n", note: b, format: .version3)
        let merged = try RecordMerger(format: .version3).merge(ancestor: withAncestor ? ancestor : nil, client: client, server: server).note
        #expect(merged.string == "title\n[before][inside][after]end\n")
        // The same through uncompacted copies: the oracle.
        var full = try NoteText("title\n", replica: .test(1))
        try full.insert("end\n", atScalarOffset: 6)
        try full.insert("old paragraph\n", atScalarOffset: 6)
        var offline = full.forked(as: .test(2))
        try full.deleteScalars(in: 6..<20)
        try offline.insert("[inside]", atScalarOffset: 10)
        try offline.insert("[before]", atScalarOffset: 6)
        try offline.insert("[after]", atScalarOffset: 36)
        try full.merge(offline)
        #expect(merged.string == full.string)
        #expect(merged.invariantViolations.isEmpty)
    }

    /// Ledgers merge as a CRDT: in any order, with duplicates, to the same ledger.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func ledgersMergeCommutativelyAndIdempotently(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func randomLedger() -> CompactionLedger {
            var ledger = CompactionLedger()
            func vector() -> [ReplicaID: HLCTimestamp] {
                var v: [ReplicaID: HLCTimestamp] = [:]
                for r in 1...3 where rng.below(2) == 0 { v[.test(UInt64(r))] = HLCTimestamp(rawValue: UInt64(1 + rng.below(100))) }
                return v
            }
            for d in 1...3 where rng.below(2) == 0 { ledger.seen[.test(UInt64(d))] = vector() }
            ledger.cut = vector()
            for r in 1...3 where rng.below(2) == 0 {
                let a = UInt32(rng.below(20)), b = UInt32(rng.below(20))
                ledger.proposed[.test(UInt64(r))] = IDRanges.union([min(a, b)..<max(a, b) + 1], [UInt32(30)..<UInt32(31 + rng.below(5))])
            }
            return ledger
        }
        let ledgers = (0..<5).map { _ in randomLedger() }
        var forward = CompactionLedger()
        for l in ledgers { forward.merge(l) }
        var backward = CompactionLedger()
        for l in ledgers.reversed() { backward.merge(l); backward.merge(l) }
        #expect(forward == backward)
        var twice = forward
        twice.merge(forward)
        #expect(twice == forward)
        // Every input's seen vectors and cut are covered by the merge; its proposals are kept.
        for l in ledgers {
            #expect(CompactionLedger.covers(forward.cut, l.cut))
            for (device, vector) in l.seen { #expect(CompactionLedger.covers(forward.seen[device] ?? [:], vector)) }
            for (replica, ranges) in l.proposed {
                for range in ranges { #expect(IDRanges.contains(forward.proposed[replica] ?? [], range)) }
            }
        }
    }
}
