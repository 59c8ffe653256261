import CRDTNoteToolSupport
import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport

/// Snapshot format 6 (Docs/FORMAT.md §4.8): the clock logs as a stamp base and four coded
/// columns. Checked against the inline varuint logs of formats 1 to 3 (separate code), on random
/// logs and on notes edited by several replicas, and refused where a damaged section goes wrong.
@Suite("Snapshot format 6: clock logs in columns")
struct SnapshotFormatSixTests {
    /// Random logs for `replicas` replicas: increasing seqs with gaps, stamps that mostly rise by
    /// typing intervals, sometimes jump by hours, fall back, or sit at the ends of their range.
    static func randomLogs(_ rng: inout SplitMix64, replicas: Int) -> [[ClockLogEntry]] {
        (0..<replicas).map { _ in
            var log: [ClockLogEntry] = []
            var seq = UInt32(rng.below(3) == 0 ? 0 : rng.below(1_000))
            var ms = UInt64(1_700_000_000_000 + rng.below(1 << 30))
            for _ in 0..<rng.below(rng.below(4) == 0 ? 400 : 12) {
                switch rng.below(20) {
                case 0: ms = HLCTimestamp.maxMilliseconds - UInt64(rng.below(3))
                case 1: ms = UInt64(rng.below(3))
                case 2: ms = ms &+ 3_600_000 * UInt64(1 + rng.below(48))
                case 3: ms = ms >= 5_000 ? ms - UInt64(rng.below(5_000)) : ms
                default: ms = ms &+ UInt64(1_000 + rng.below(300))
                }
                ms = min(ms, HLCTimestamp.maxMilliseconds)
                let counter = rng.below(10) == 0 ? UInt64(rng.below(65_536)) : 0
                log.append(ClockLogEntry(seq: seq, stamp: HLCTimestamp(rawValue: ms << HLCTimestamp.counterBits | counter)))
                guard seq < UInt32.max - 2_000 else { break }
                seq += UInt32(1 + (rng.below(8) == 0 ? rng.below(1_000) : rng.below(12)))
            }
            return log
        }
    }

    /// A table of `logs` (id counts just past each log's last seq) in the given layout, read back.
    static func roundTrip(_ logs: [[ClockLogEntry]], layout: ClockTableCoding.LogLayout) throws -> [[ClockLogEntry]] {
        let replicas = logs.indices.map { ReplicaID(rawValue: UInt64($0) + 1) }
        let nextSeq = logs.map { ($0.last?.seq ?? 0) + 1 }
        var out = ByteWriter()
        ClockTableCoding.write(replicas, nextSeq: nextSeq, latest: logs.map { _ in .zero }, logs: logs, layout: layout, into: &out)
        if layout == .columns { ClockLogColumns.write(logs, into: &out) }
        var reader = ByteReader(out.bytes)
        var table = try ClockTableCoding.read(&reader, withCounts: true, layout: layout, limits: .default)
        if layout == .columns { try ClockLogColumns.read(&reader, into: &table) }
        #expect(reader.remaining == 0)
        return table.logs
    }

    @Test func randomLogsReadBackAsTheInlineTableReadsThem() throws {
        var rng = SplitMix64(seed: 6)
        for round in 0..<300 {
            let logs = Self.randomLogs(&rng, replicas: 1 + rng.below(5))
            let inline = try Self.roundTrip(logs, layout: .inline)
            let columns = try Self.roundTrip(logs, layout: .columns)
            #expect(inline == logs, "round \(round): the inline table")
            #expect(columns == logs, "round \(round): the columns")
        }
    }

    /// A log so regular that its coded columns would hold more than four entries a byte: the
    /// writer stores the low bytes raw, and the section reads back.
    @Test func aPerfectlyRegularLogStaysWithinTheDensityBound() throws {
        let log = (0..<50_000).map { ClockLogEntry(seq: UInt32($0) * 5, stamp: HLCTimestamp(rawValue: (1_800_000_000_000 + UInt64($0) * 1_000) << 16)) }
        var section = ByteWriter()
        ClockLogColumns.write([log], into: &section)
        #expect(log.count <= ClockLogColumns.maximumEntriesPerByte * section.count)
        #expect(section.count < log.count + 200, "the low bytes raw, the rest coded")
        #expect(try Self.roundTrip([log], layout: .columns) == [log])
    }

    /// Three replicas typing at 50–300 ms a keystroke with pauses, merging now and then: format 6
    /// decodes to the state format 3 decodes to (text, ids, origins, clocks), writes its clock
    /// logs in under half the bytes, and re-encodes to the same bytes.
    @Test func editedNotesReadBackAsFormatThreeReadsThem() throws {
        for seed in [3, 11, 29] as [UInt64] {
            var rng = SplitMix64(seed: seed)
            let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
            var notes = (1...3).map { NoteText(replica: .test(UInt64($0)), clock: HybridLogicalClock(physicalClock: time.clock)) }
            for _ in 0..<1_500 {
                time.advance(by: UInt64(50 + rng.below(251)) + (rng.below(200) == 0 ? 600_000 : 0))
                let i = rng.below(3)
                let count = notes[i].scalarCount
                if count > 0 && rng.below(4) == 0 {
                    let lo = rng.below(count)
                    try notes[i].deleteScalars(in: lo..<min(count, lo + 1 + rng.below(4)))
                } else if rng.below(40) == 0 {
                    try notes[i].merge(notes[rng.below(3)])
                } else {
                    try notes[i].insert(String(RandomText.make(&rng).prefix(2)), atScalarOffset: rng.below(count + 1))
                }
            }
            var note = notes[0]
            for other in notes { try note.merge(other) }
            let three = note.encodedSnapshot(format: .version3)
            let six = note.encodedSnapshot(format: .version6)
            #expect(PayloadHeader.requiredReaderVersion(of: six) == 6)
            let a = try NoteText(snapshot: three, replica: .test(9)).loadedSequence()
            let b = try NoteText(snapshot: six, replica: .test(9)).loadedSequence()
            #expect(b.string == note.string)
            #expect(a.string == b.string && a.replicas == b.replicas && a.nextSeq == b.nextSeq && a.latestStamp == b.latestStamp)
            #expect(a.clockLog.map(\.entries) == b.clockLog.map(\.entries), "seed \(seed): clock logs")
            #expect(a.runsInOrder() == b.runsInOrder(), "seed \(seed): runs")
            #expect(try NoteText(snapshot: six, replica: .test(9)).encodedSnapshot(format: .version6) == six)
            let parts3 = try note.payloadBreakdown(format: .version3), parts6 = try note.payloadBreakdown(format: .version6)
            #expect(parts6.clockLogBytes * 2 < parts3.clockLogBytes, "seed \(seed): \(parts6.clockLogBytes) vs \(parts3.clockLogBytes) bytes")
            #expect(parts6.total == six.count && parts3.total == three.count)
        }
    }

    /// `note` written in format 6 whether or not its clock logs pay for it (the library writes
    /// format 6 only when they do, ``ClockLogColumns/pay(_:)``).
    static func formatSix(_ note: NoteText) throws -> [UInt8] {
        PayloadHeader.wrap(SnapshotEncoder.encode(try note.loadedSequence(), format: .version6, ledger: note.ledger), kind: .snapshot, version: 6)
    }

    /// A note pasted at once (one clock-log entry) is written in format 2 when format 6 is
    /// asked, a typed one in format 6; the first with a ledger in format 3.
    @Test func formatSixIsWrittenWhenItsColumnsPay() throws {
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        var pasted = NoteText(replica: .test(1), clock: HybridLogicalClock(physicalClock: time.clock))
        try pasted.insert("a line pasted at once\nand another", atScalarOffset: 0)
        var typed = pasted
        for k in 0..<30 {
            time.advance(by: 1_100)
            try typed.insert("k\(k)", atScalarOffset: typed.scalarCount)
        }
        #expect(PayloadHeader.requiredReaderVersion(of: pasted.encodedSnapshot(format: .version6)) == 2)
        #expect(PayloadHeader.requiredReaderVersion(of: typed.encodedSnapshot(format: .version6)) == 6)
        pasted.recordSeen(by: .test(1))  // a ledger: format 3 at least
        #expect(PayloadHeader.requiredReaderVersion(of: pasted.encodedSnapshot(format: .version6)) == 3)
        // What a lazily loaded note hands back unchanged is what its decoded copy writes.
        for note in [pasted, typed] {
            let six = note.encodedSnapshot(format: .version6)
            var loaded = try NoteText(snapshot: six, replica: .test(2))
            #expect(loaded.encodedSnapshot(format: .version6) == six)
            try loaded.checkLoadedSnapshot()
            try loaded.insert("", atScalarOffset: 0)
            #expect(PayloadHeader.requiredReaderVersion(of: loaded.encodedSnapshot(format: .version6)) == PayloadHeader.requiredReaderVersion(of: six))
        }
    }

    /// The payload of `body` (a format 6 snapshot body), header and CRC made for it.
    static func payload(_ body: [UInt8]) -> [UInt8] {
        PayloadHeader.wrap(body, kind: .snapshot, version: 6)
    }

    /// A body of one replica (id 1, 3 ids, no latest stamp) whose log declares `entries` entries,
    /// with the clock log `section`, then the text "abc" and one visible run holding it.
    static func body(entries: Int, section: [UInt8]) -> [UInt8] {
        var out = ByteWriter()
        out.writeVarUInt(1)
        out.writeUInt64LE(1)
        out.writeVarUInt(3)
        out.writeVarUInt(0)
        out.writeVarUInt(UInt64(entries))
        out.writeBytes(section)
        out.writeLengthPrefixed(Array("abc".utf8))
        CompactionLedgerCoding.write(nil, replicas: [.test(1)], into: &out)
        let run = Run(replica: 0, seq: 0, length: 3, utf16: 3, byteStart: 0, byteCount: 3, left: .none, right: .none)
        RunColumnsV2Encoder.write([run], replicaCount: 1, into: &out)
        return out.bytes
    }

    /// A clock log section with raw columns: the base, then seqs, low bytes, high parts, counters.
    static func section(base: UInt64 = 0, seqs: [UInt8], low: [UInt8], high: [UInt8], counters: [UInt8]) -> [UInt8] {
        var out = ByteWriter()
        out.writeVarUInt(base)
        for column in [seqs, low, high, counters] { CodedColumn.write(column, into: &out, raw: true) }
        return out.bytes
    }

    struct Case: CustomStringConvertible {
        var description: String
        var entries: Int
        var section: [UInt8]
        var refusal: BinaryDecodingError.Code?
    }

    /// One sound payload and damaged ones, each refused with the kind FORMAT.md §4.8 names.
    static let cases: [Case] = [
        Case(description: "sound: entries at seqs 0 and 2", entries: 2,
             section: section(seqs: [0, 1], low: [0x10, 0xE8], high: [0x02, 0x02], counters: [0, 5]), refusal: nil),
        Case(description: "more entries than ids", entries: 4,
             section: section(seqs: [0, 0, 0, 0], low: [0, 0, 0, 0], high: [0, 0, 0, 0], counters: [0, 0, 0, 0]), refusal: .invalidValue),
        Case(description: "an entry past the ids", entries: 2,
             section: section(seqs: [0, 5], low: [0, 0], high: [0, 0], counters: [0, 0]), refusal: .invalidValue),
        Case(description: "fewer low bytes than entries", entries: 2,
             section: section(seqs: [0, 0], low: [0], high: [0, 0], counters: [0, 0]), refusal: .invalidValue),
        Case(description: "a stamp before 0 ms", entries: 1,
             section: section(seqs: [0], low: [0], high: [0x01], counters: [0]), refusal: .invalidValue),
        Case(description: "a counter past 65,535", entries: 1,
             section: section(seqs: [0], low: [0], high: [0], counters: [0x80, 0x80, 0x04]), refusal: .invalidValue),
        Case(description: "a seq column with a value left over", entries: 1,
             section: section(seqs: [0, 0], low: [0], high: [0], counters: [0]), refusal: .trailingBytes),
        Case(description: "a counter column cut short", entries: 2,
             section: section(seqs: [0, 0], low: [0, 0], high: [0, 0], counters: [0]), refusal: .truncated),
        Case(description: "a column of unknown mode", entries: 1,
             section: [0, 7, 1, 0], refusal: .invalidValue),
        Case(description: "a stamp base past 2^48 - 1 ms", entries: 0,
             section: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0, 0, 0, 0, 0, 0, 0, 0], refusal: .invalidValue),
    ]

    @Test func damagedSectionsAreRefusedAtTheValueThatIsWrong() throws {
        for c in Self.cases {
            let verdict = SecondReaderFormatTwoTests.libraryVerdict(Self.payload(Self.body(entries: c.entries, section: c.section)))
            if let refusal = c.refusal {
                #expect(verdict.kind == refusal.rawValue, "\(c): \(verdict)")
            } else {
                #expect(verdict.text == "abc", "\(c): \(verdict)")
            }
        }
    }

    /// Every cut of a real format 6 payload, and every byte of its clock section flipped, is
    /// refused or read, never a trap; a cut is always refused.
    @Test func cutAndFlippedPayloadsNeverTrap() throws {
        let time = ManualPhysicalClock(milliseconds: 1_800_000_000_000)
        var note = NoteText(replica: .test(1), clock: HybridLogicalClock(physicalClock: time.clock))
        for k in 0..<40 {
            time.advance(by: 700)
            try note.insert("w\(k) ", atScalarOffset: note.scalarCount)
        }
        var other = note.forked(as: .test(2))
        try other.insert("x", atScalarOffset: 3)
        try note.merge(other)
        let payload = note.encodedSnapshot(format: .version6)
        #expect(PayloadHeader.requiredReaderVersion(of: payload) == 6)
        let body = Array(payload[NoteFormat.headerSize...])
        for cut in 0..<body.count {
            let verdict = SecondReaderFormatTwoTests.libraryVerdict(Self.payload(Array(body[..<cut])))
            #expect(verdict.text == nil, "cut at \(cut)")
        }
        for i in 0..<min(body.count, 80) {
            var flipped = body
            flipped[i] ^= 0x5A
            _ = SecondReaderFormatTwoTests.libraryVerdict(Self.payload(flipped))
        }
    }
}
