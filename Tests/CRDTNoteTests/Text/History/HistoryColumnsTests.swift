import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteToolSupport

/// History payload version 2 (Docs/FORMAT.md §11.2, "Version 2": the events as coded columns)
/// against version 1 and against the event sets the tests made: the same set reads back from
/// both, equal sets encode to equal bytes, damage is a typed error, and older readers refuse it.
@Suite struct HistoryColumnsTests {
    /// A random event set like an editing session makes: backspace runs and forward deletes
    /// (consecutive seqs of one inserter), selections deleted at one stamp, several replicas,
    /// multi-byte text, counters, far jumps in time and seq; then repeats and a shuffle.
    static func events(seed: UInt64, count: Int) -> [DeletionEvent] {
        var random = SplitMix64(seed: seed)
        let replicas = (0..<Int.random(in: 1...4, using: &random)).map { _ in ReplicaID(rawValue: random.next()) }
        let alphabet = Array("abc é€🙂\n".unicodeScalars)
        var events: [DeletionEvent] = []
        var ms = UInt64.random(in: 0...(1 << 44), using: &random)
        var seq = UInt32.random(in: 0...1_000, using: &random)
        while events.count < count {
            let inserter = replicas.randomElement(using: &random)!
            let deleter = replicas.randomElement(using: &random)!
            let run = Int.random(in: 1...12, using: &random)
            let backwards = Bool.random(using: &random)
            let together = Int.random(in: 0..<4, using: &random) == 0  // one edit: one stamp for the run
            for _ in 0..<run {
                let length = Int.random(in: 0..<5, using: &random) == 0 ? Int.random(in: 2...6, using: &random) : 1
                if backwards { seq = seq >= UInt32(length) ? seq - UInt32(length) : 0 }
                let text = String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
                if !together || events.isEmpty { ms += UInt64.random(in: 0...400, using: &random) }
                let counter = Int.random(in: 0..<8, using: &random) == 0 ? UInt16.random(in: 0...UInt16.max, using: &random) : 0
                events.append(DeletionEvent(inserter: inserter, seqs: seq..<seq + UInt32(length), deleter: deleter,
                                            stamp: HLCTimestamp(rawValue: ms << 16 | UInt64(counter)), text: Array(text.utf8)))
                if !backwards { seq += UInt32(length) }
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0: ms += UInt64.random(in: 0...(1 << 36), using: &random)
            case 1: seq = UInt32.random(in: 0...(UInt32.max - 100), using: &random)
            default: seq = seq &+ UInt32.random(in: 0...50, using: &random)
            }
            if seq > UInt32.max - 100 { seq = 0 }
        }
        // Repeats, and any order.
        events += (0..<count / 10).map { _ in events.randomElement(using: &random)! }
        events.shuffle(using: &random)
        return events
    }

    /// Random sets read back through both versions to exactly the set given (the oracle: the
    /// events the test made, as a set); shuffled and repeated input encodes to the same bytes.
    @Test(arguments: 0..<24 as Range<UInt64>)
    func bothVersionsRoundTripTheSameSet(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x3302 &+ seed)
        let events = Self.events(seed: 0x3300 &+ seed, count: Int.random(in: 0...300, using: &random))
        let history = NoteHistory(deletions: events)
        let expected = Set(events)
        for format in [HistoryFormat.version1, .version2] {
            let bytes = history.encoded(format: format)
            #expect(PayloadHeader.requiredReaderVersion(of: bytes) == format.minimumReader)
            let decoded = try NoteHistory(encoded: bytes)
            #expect(Set(decoded.deletions) == expected && decoded.deletions.count == expected.count)
            #expect(NoteHistory(deletions: events.shuffled(using: &random) + events.prefix(3)).encoded(format: format) == bytes)
        }
        #expect(try NoteHistory(encoded: history.encoded(format: .version1)) == NoteHistory(encoded: history.encoded(format: .version2)))
    }

    /// Extreme values each field can hold (stamps at 0 and at the last millisecond, the largest
    /// counter, seqs at both ends, a long deletion of four-byte scalars) read back from version 2.
    @Test func extremeValuesRoundTrip() throws {
        let a = ReplicaID(rawValue: 0), b = ReplicaID(rawValue: .max)
        let wide = Array(String(repeating: "🙂", count: 300).utf8)
        let events = [
            DeletionEvent(inserter: a, seqs: 0..<1, deleter: b, stamp: HLCTimestamp(rawValue: 0), text: [0x61]),
            DeletionEvent(inserter: b, seqs: UInt32.max - 301..<UInt32.max - 1, deleter: a, stamp: HLCTimestamp(rawValue: 5), text: wide),
            DeletionEvent(inserter: b, seqs: 0..<1, deleter: b, stamp: HLCTimestamp(rawValue: 1 << 40), text: [0x62]),
            DeletionEvent(inserter: a, seqs: UInt32.max - 2..<UInt32.max - 1, deleter: a, stamp: HLCTimestamp(rawValue: .max), text: [0x63]),
        ]
        let bytes = NoteHistory(deletions: events).encoded(format: .version2)
        #expect(PayloadHeader.requiredReaderVersion(of: bytes) == 4)
        #expect(Set(try NoteHistory(encoded: bytes).deletions) == Set(events))
    }

    /// A long backspace-heavy session: version 2 is several times smaller than version 1.
    @Test func columnsAreSmallerOnATypingSession() throws {
        var random = SplitMix64(seed: 77)
        let replica = ReplicaID(rawValue: 42)
        var events: [DeletionEvent] = []
        var ms: UInt64 = 1_767_225_600_000
        var seq: UInt32 = 50_000
        let words = Array("the quick brown fox jumps over the lazy dog ".unicodeScalars)
        while events.count < 5_000 {
            seq += UInt32.random(in: 5...60, using: &random)
            for _ in 0..<Int.random(in: 1...10, using: &random) {
                ms += UInt64.random(in: 50...300, using: &random)
                seq -= 1
                events.append(DeletionEvent(inserter: replica, seqs: seq..<seq + 1, deleter: replica,
                                            stamp: HLCTimestamp(rawValue: ms << 16), text: Array(String(words.randomElement(using: &random)!).utf8)))
            }
            ms += UInt64.random(in: 500...5_000, using: &random)
        }
        let history = NoteHistory(deletions: events)
        let v1 = history.encoded(format: .version1), v2 = history.encoded(format: .version2)
        #expect(v2.count * 4 < v1.count, "version 1 \(v1.count) B, version 2 \(v2.count) B")
        #expect(try NoteHistory(encoded: v2) == history)
    }

    /// A set so regular that its columns would hold more than four events per byte is written in
    /// version 1, so every payload written reads back (the density bound refuses nothing written).
    @Test func aSetPastTheDensityBoundIsWrittenInVersionOne() throws {
        let replica = ReplicaID(rawValue: 1)
        let events = (0..<20_000 as Range<UInt32>).map {
            DeletionEvent(inserter: replica, seqs: 2 * $0..<2 * $0 + 1, deleter: replica, stamp: HLCTimestamp(rawValue: 1 << 30), text: [0x61])
        }
        let history = NoteHistory(deletions: events)
        #expect(NoteHistory.columns(of: history.deletions, index: [replica: 0]) == nil)
        let bytes = history.encoded(format: .version2)
        #expect(PayloadHeader.requiredReaderVersion(of: bytes) == 1)
        #expect(try NoteHistory(encoded: bytes) == history)
    }

    /// A release that reads up to payload version 3 stops at the header of a version 2 history
    /// (`newerFormat`) before reading anything else, so it leaves the field alone (§11.3).
    @Test func olderReadersRefuseVersionTwoAtTheHeader() throws {
        let bytes = NoteHistory(deletions: Self.events(seed: 5, count: 40)).encoded(format: .version2)
        #expect { try PayloadHeader.read(bytes, supportedReader: 3) } throws: { ($0 as? PayloadError)?.code == .newerFormat }
        #expect(try PayloadHeader.read(bytes).minimumReaderVersion == 4)
        let v1 = NoteHistory(deletions: Self.events(seed: 5, count: 40)).encoded(format: .version1)
        #expect(try PayloadHeader.read(v1, supportedReader: 1).minimumReaderVersion == 1)
    }

    /// Every truncation and random single-byte damage of a version 2 payload (checksum
    /// refreshed, so the body itself is read) is a typed `.corrupt` error or reads as some set:
    /// never a trap.
    @Test(arguments: 0..<3 as Range<UInt64>)
    func damageIsATypedErrorNeverATrap(seed: UInt64) throws {
        let bytes = NoteHistory(deletions: Self.events(seed: 0x3310 &+ seed, count: 120)).encoded(format: .version2)
        #expect(PayloadHeader.requiredReaderVersion(of: bytes) == 4)
        for cut in 0..<bytes.count {
            #expect(throws: PayloadError.self) { try NoteHistory(encoded: Array(bytes[..<cut])) }
            // The body cut with a header that matches it: the columns themselves are short.
            guard cut >= 18 else { continue }
            var short = Array(bytes[..<cut])
            Self.refreshChecksum(&short)
            #expect { try NoteHistory(encoded: short) } throws: { ($0 as? PayloadError)?.code == .corrupt }
        }
        var random = SplitMix64(seed: 0x3320 &+ seed)
        var refused = 0
        for i in 18..<bytes.count {
            for _ in 0..<3 {
                var damaged = bytes
                damaged[i] ^= UInt8.random(in: 1...255, using: &random)
                Self.refreshChecksum(&damaged)
                do throws(PayloadError) {
                    // What reads is a set like any other: it is written again and reads back.
                    let read = try NoteHistory(encoded: damaged)
                    #expect(try NoteHistory(encoded: read.encoded(format: .version2)) == read)
                } catch {
                    refused += 1
                    #expect(error.code == .corrupt && error.decodingError != nil)
                }
            }
        }
        #expect(refused > (bytes.count - 18) * 3 / 2)
    }

    /// Random bodies under a version 2 header (some starting like a real one): a typed error
    /// or a set that reads back, never a trap.
    @Test func randomBodiesAreRefusedNeverTrap() throws {
        var random = SplitMix64(seed: 0x3330)
        let real = NoteHistory(deletions: Self.events(seed: 0x3331, count: 30)).encoded(format: .version2)
        for round in 0..<3_000 {
            var body = (0..<Int.random(in: 0..<80, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if round % 2 == 0 { body = Array(real[18..<min(real.count, 18 + Int.random(in: 0...40, using: &random))]) + body }
            let payload = PayloadHeader.wrap(body, kind: .history, version: 4)
            do throws(PayloadError) {
                let read = try NoteHistory(encoded: payload)
                #expect(try NoteHistory(encoded: read.encoded(format: .version2)) == read)
            } catch {
                #expect(error.code == .corrupt && error.decodingError != nil)
            }
        }
    }

    static func refreshChecksum(_ payload: inout [UInt8]) {
        let crc = CRC32C.checksum(Array(payload[18...]))
        for k in 0..<4 { payload[14 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
        let length = UInt32(payload.count - 18)
        for k in 0..<4 { payload[10 + k] = UInt8(truncatingIfNeeded: length >> (8 * k)) }
    }

    /// A version 2 body built by hand: one replica, `count` declared, then `rest`.
    static func body(count: UInt64, _ rest: [UInt8]) -> [UInt8] {
        var body = ByteWriter()
        body.writeVarUInt(1)
        body.writeUInt64LE(7)
        body.writeVarUInt(count)
        body.writeBytes(rest)
        return PayloadHeader.wrap(body.bytes, kind: .history, version: 4)
    }

    static func decodingError(_ bytes: [UInt8], limits: NoteLimits = .default) -> BinaryDecodingError? {
        do throws(PayloadError) {
            _ = try NoteHistory(encoded: bytes, limits: limits)
            return nil
        } catch {
            return error.decodingError
        }
    }

    /// Huge counts are refused at their field before anything is allocated for them: an event
    /// count past four per byte or past the limit, a column longer than its events can use.
    @Test func hugeCountsAreRefusedBeforeAllocating() throws {
        // 2^21 events declared in 20 bytes.
        let dense = Self.decodingError(Self.body(count: 1 << 21, [UInt8](repeating: 0, count: 20)))
        #expect(dense?.code == .lengthTooLarge && dense?.offset == 18 + 9)
        // Within the density bound but past a lowered event limit.
        var limits = NoteLimits.default
        limits.maximumHistoryEvents = 3
        let many = Self.decodingError(Self.body(count: 4, [UInt8](repeating: 0, count: 20)), limits: limits)
        #expect(many?.code == .lengthTooLarge && many?.offset == 18 + 9)
        // A raw low-byte column declaring more bytes than events (2 events, 5 bytes).
        let raw = Self.decodingError(Self.body(count: 2, [0, 0, 5, 1, 2, 3, 4, 5] + [UInt8](repeating: 0, count: 20)))
        #expect(raw?.code == .lengthTooLarge && raw?.offset == 18 + 11)
        // A rANS column declaring 2^30 decoded bytes.
        var coded = ByteWriter()
        coded.writeByte(0)  // the stamp base
        coded.writeByte(CodedColumn.rans)
        coded.writeVarUInt(1 << 30)
        let huge = Self.decodingError(Self.body(count: 2, coded.bytes + [UInt8](repeating: 0, count: 20)))
        #expect(huge?.code == .lengthTooLarge && huge?.offset == 18 + 12)
        // The deleted text passing the limit.
        limits = .default
        limits.maximumTextBytes = 10
        let events = (0..<4 as Range<UInt32>).map {
            DeletionEvent(inserter: ReplicaID(rawValue: 1), seqs: $0 * 4..<$0 * 4 + 4, deleter: ReplicaID(rawValue: 1),
                          stamp: HLCTimestamp(rawValue: UInt64($0) << 20), text: Array("abcd".utf8))
        }
        let text = Self.decodingError(NoteHistory(deletions: events).encoded(format: .version2), limits: limits)
        #expect(text?.code == .lengthTooLarge)
    }

    /// Values out of range in hand-built columns are `invalidValue` at their column (raw columns:
    /// at the value itself).
    @Test func valuesOutOfRangeAreRefusedWhereTheyAre() throws {
        func column(_ bytes: [UInt8]) -> [UInt8] { [0, UInt8(bytes.count)] + bytes }
        func payload(base: [UInt8] = [0], low: [UInt8] = [1], high: [UInt8] = [0], counter: [UInt8] = [0], deleter: [UInt8] = [0],
                     inserter: [UInt8] = [0], length: [UInt8] = [0], seq: [UInt8] = [1], extra: [UInt8] = [0], text: [UInt8] = [0x61]) -> [UInt8] {
            Self.body(count: 1, base + [low, high, counter, deleter, inserter, length, seq, extra, text].flatMap(column))
        }
        // One event: 1 ms, ids 0 ..< 1 (seq code 1: the inserter's first range, forwards from 0).
        #expect(try NoteHistory(encoded: payload()).deletions
            == [DeletionEvent(inserter: ReplicaID(rawValue: 7), seqs: 0..<1, deleter: ReplicaID(rawValue: 7), stamp: HLCTimestamp(rawValue: 1 << 16), text: [0x61])])
        #expect(try NoteHistory(encoded: payload(base: [0x81, 0x01], low: [0xFF], high: [1])).deletions.first?.stamp.milliseconds == 129 - 1)
        // Base at 28; columns (mode, length, value) at: low 29, high 32, counter 35, deleter 38,
        // inserter 41, length 44, seq 47, extra 50, text 53.
        let cases: [([UInt8], BinaryDecodingError.Code, Int)] = [
            (payload(base: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40]), .invalidValue, 28), // base 2^48
            (payload(low: []), .invalidValue, 29),                       // no low byte for the event
            (payload(high: [1]), .invalidValue, 34),                     // delta -255: before the previous stamp
            (payload(counter: [0x80, 0x80, 0x04]), .invalidValue, 37),  // counter 65,536
            (payload(deleter: [1]), .invalidValue, 40),                 // index past the table
            (payload(inserter: [1]), .invalidValue, 43),
            (payload(seq: [0]), .invalidValue, 49),                     // backwards from 0: ends at 0
            (payload(seq: [0x82, 0x80, 0x80, 0x80, 0x20]), .invalidValue, 49), // jumps to end at 2^32
            (payload(extra: [1]), .invalidValue, 53),                   // 2 bytes counted, the text column holds 1
            (payload(extra: [4]), .invalidValue, 52),                   // more than 3 extra bytes per scalar
            (payload(text: [0xC3]), .invalidValue, 53),                 // not UTF-8
            (payload(seq: [1, 0]), .trailingBytes, 50),                 // a column holding more than its events use
        ]
        for (bytes, code, offset) in cases {
            let error = Self.decodingError(bytes)
            #expect(error?.code == code && error?.offset == offset, "\(error.map { "\($0)" } ?? "read")")
        }
    }

    /// The seq codes of version 2 against ranges worked out by hand: a backspace run, a turn to
    /// the delete key and back, and a jump, for one inserter.
    @Test func seqCodesFollowTheDirectionOfDeleting() {
        var run = NoteHistory.SeqRun()
        let ranges: [Range<UInt32>] = [10..<11, 9..<10, 7..<9, 9..<10, 10..<12, 6..<7, 100..<101, 99..<100]
        var codes: [UInt64] = []
        for range in ranges { codes.append(run.code(for: range)) }
        // 10..<11: a jump from 0 (end 11: zigzag 22, code 24); 9..<10 and 7..<9 backspaces;
        // 9..<10 begins where 7..<9 ended (a turn forwards); 10..<12 goes on forwards; 6..<7 a jump
        // (end 7 - first 10 = -3: zigzag 5); 100..<101 a jump (end 101 - first 6 = 95: zigzag
        // 190); 99..<100 a backspace while the direction is forwards: a turn.
        #expect(codes == [24, 0, 0, 1, 0, 7, 192, 1])
        var back = NoteHistory.SeqRun()
        #expect(codes.enumerated().map { back.range(for: $0.element, length: Int64(ranges[$0.offset].count)) } == ranges)
    }

    /// The events of the pinned fixtures (Tests/Fixtures/history/session.events.json), in order.
    static func pinnedEvents() throws -> [DeletionEvent] {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.fixtures + "/history/session.events.json"))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return try list.map { e in
            let seq = try #require(e["seq"] as? Int), length = try #require(e["length"] as? Int)
            return DeletionEvent(inserter: ReplicaID(rawValue: try #require(UInt64(e["inserter"] as? String ?? ""))),
                                 seqs: UInt32(seq)..<UInt32(seq + length),
                                 deleter: ReplicaID(rawValue: try #require(UInt64(e["deleter"] as? String ?? ""))),
                                 stamp: HLCTimestamp(rawValue: try #require(UInt64(e["stamp"] as? String ?? ""))),
                                 text: Array(try #require(e["text"] as? String).utf8))
        }
    }

    /// The pinned fixtures of both versions read to the events listed beside them, and those
    /// events are written again byte for byte (a change to either layout shows here).
    @Test func pinnedFixturesRead() throws {
        let events = try Self.pinnedEvents()
        for (name, format) in [("session.v1.bin", HistoryFormat.version1), ("session.v2.bin", .version2)] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.fixtures + "/history/" + name)))
            #expect(PayloadHeader.requiredReaderVersion(of: bytes) == format.minimumReader)
            let decoded = try NoteHistory(encoded: bytes)
            #expect(decoded.deletions == events, "\(name)")
            #expect(decoded.encoded(format: format) == bytes, "\(name)")
        }
    }
}
