import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// The body of a library's `.ledger` journal entry (Docs/LIBRARY.md, "Compaction entries"):
/// any ledger reads back as it was, alone, and every cut or changed byte is refused or read as
/// a valid ledger, never a trap.
@Suite struct JournalLedgerTests {
    static func randomLedger(_ random: inout SplitMix64) -> CompactionLedger {
        var ledger = CompactionLedger()
        let replicas = (0..<(1 + random.below(5))).map { ReplicaID.test(UInt64(10 + $0 * 7)) }
        func vector() -> [ReplicaID: HLCTimestamp] {
            var out: [ReplicaID: HLCTimestamp] = [:]
            for id in replicas where random.below(3) > 0 { out[id] = HLCTimestamp(rawValue: UInt64(1 + random.below(1 << 40))) }
            return out
        }
        for id in replicas where random.below(2) == 0 { ledger.seen[id] = vector() }
        if random.below(3) > 0 {
            ledger.cut = vector()
            for id in replicas where random.below(2) == 0 {
                var start = UInt32(random.below(20))
                var ranges: [Range<UInt32>] = []
                for _ in 0..<(1 + random.below(4)) {
                    let end = start + UInt32(1 + random.below(9))
                    ranges.append(start..<end)
                    start = end + UInt32(1 + random.below(5))
                }
                ledger.proposed[id] = ranges
            }
        }
        return ledger
    }

    @Test func ledgersReadBackAndDamageIsRefused() throws {
        var random = SplitMix64(seed: 17)
        for _ in 0..<300 {
            let ledger = Self.randomLedger(&random)
            let bytes = JournalLedger.encode(ledger)
            #expect(try JournalLedger.decode(bytes, 0..<bytes.count) == (ledger.isEmpty ? nil : ledger))
            for cut in 0..<bytes.count {
                #expect(throws: BinaryDecodingError.self) { _ = try JournalLedger.decode(bytes, 0..<cut) }
            }
            var damaged = bytes
            let at = random.below(damaged.count)
            damaged[at] ^= UInt8(1 + random.below(255))
            _ = try? JournalLedger.decode(damaged, 0..<damaged.count) // refused or read: never a trap
        }
        #expect(try JournalLedger.decode(JournalLedger.encode(nil), 0..<JournalLedger.encode(nil).count) == nil)
    }

    /// A ledger listing re-pointed ids (library format 7) reads back with them; one without any
    /// is written as a format 6 library wrote it.
    @Test func rePointedIDsReadBack() throws {
        var random = SplitMix64(seed: 23)
        for _ in 0..<100 {
            var ledger = Self.randomLedger(&random)
            let plain = JournalLedger.encode(ledger)
            ledger.repointed[.test(UInt64(1 + random.below(3)))] = [UInt32(random.below(5))..<UInt32(6 + random.below(5)), 20..<21]
            let bytes = JournalLedger.encode(ledger)
            #expect(try JournalLedger.decode(bytes, 0..<bytes.count) == ledger)
            #expect(bytes.count > plain.count)
        }
    }
}
