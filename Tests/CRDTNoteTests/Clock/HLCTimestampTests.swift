import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

@Suite("HLCTimestamp")
struct HLCTimestampTests {
    @Test("packs milliseconds in the high 48 bits and the counter in the low 16")
    func packing() throws {
        let t = try #require(HLCTimestamp(milliseconds: 0x1234_5678_9ABC, counter: 0xDEF0))
        #expect(t.rawValue == 0x1234_5678_9ABC_DEF0)
        #expect(t.milliseconds == 0x1234_5678_9ABC)
        #expect(t.counter == 0xDEF0)
        #expect(HLCTimestamp.zero.rawValue == 0)
        #expect(HLCTimestamp.maxMilliseconds == 281_474_976_710_655)
        let top = try #require(HLCTimestamp(milliseconds: HLCTimestamp.maxMilliseconds, counter: .max))
        #expect(top == HLCTimestamp.max)
        #expect(HLCTimestamp(milliseconds: HLCTimestamp.maxMilliseconds + 1, counter: 0) == nil)
        #expect(HLCTimestamp(milliseconds: .max, counter: 0) == nil)
        #expect(HLCTimestamp(clampingMilliseconds: .max, counter: 3).milliseconds == HLCTimestamp.maxMilliseconds)
        #expect(HLCTimestamp(clampingMilliseconds: .max, counter: 3).counter == 3)
    }

    @Test("order is lexicographic on (milliseconds, counter)")
    func ordering() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let a = HLCTimestamp(rawValue: rng.next() % 8 << 16 | rng.next() % 4)
            let b = HLCTimestamp(rawValue: rng.next() % 8 << 16 | rng.next() % 4)
            let expected = (a.milliseconds, a.counter) < (b.milliseconds, b.counter)
            #expect((a < b) == expected)
        }
        let early = try #require(HLCTimestamp(milliseconds: 5, counter: .max))
        let late = try #require(HLCTimestamp(milliseconds: 6, counter: 0))
        #expect(early < late)
    }

    @Test("successor increments the counter, carries into milliseconds, saturates at max")
    func successor() throws {
        let t = try #require(HLCTimestamp(milliseconds: 9, counter: 4))
        #expect(t.successor() == HLCTimestamp(milliseconds: 9, counter: 5))
        let full = try #require(HLCTimestamp(milliseconds: 9, counter: .max))
        #expect(full.successor() == HLCTimestamp(milliseconds: 10, counter: 0))
        #expect(full < full.successor())
        #expect(HLCTimestamp.max.successor() == HLCTimestamp.max)
        let almost = HLCTimestamp(rawValue: .max - 1)
        #expect(almost.successor() == .max)
    }

    @Test("description is ISO-8601 UTC with milliseconds and counter")
    func descriptionKnownValues() throws {
        #expect(HLCTimestamp.zero.description == "1970-01-01T00:00:00.000Z#0")
        let example = try #require(HLCTimestamp(milliseconds: 1_795_262_400_123, counter: 5))
        #expect(example.description == "2026-11-21T12:00:00.123Z#5")
        let leapDay = try #require(HLCTimestamp(milliseconds: 951_868_799_999, counter: 65_535))
        #expect(leapDay.description == "2000-02-29T23:59:59.999Z#65535")
        #expect(HLCTimestamp.max.description == "10889-08-02T05:31:50.655Z#65535")
    }

    @Test("description agrees with Foundation's calendar for random dates")
    func descriptionMatchesFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var rng = SplitMix64(seed: 2024)
        // Up to 9999-12-31, where Foundation's formatting is well defined.
        let limit: UInt64 = 253_402_300_799_999
        for _ in 0..<1_000 {
            let ms = rng.next() % limit
            let counter = UInt16(truncatingIfNeeded: rng.next())
            let t = try #require(HLCTimestamp(milliseconds: ms, counter: counter))
            let date = Date(timeIntervalSince1970: TimeInterval(ms / 1_000))
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ#%d",
                c.year ?? -1, c.month ?? -1, c.day ?? -1, c.hour ?? -1, c.minute ?? -1, c.second ?? -1,
                Int(ms % 1_000), Int(counter))
            #expect(t.description == expected)
        }
    }

    @Test("Codable as the packed integer")
    func codable() throws {
        let t = try #require(HLCTimestamp(milliseconds: 1_795_262_400_123, counter: 5))
        let data = try JSONEncoder().encode([t, .max])
        #expect(String(decoding: data, as: UTF8.self) == "[\(t.rawValue),18446744073709551615]")
        #expect(try JSONDecoder().decode([HLCTimestamp].self, from: data) == [t, .max])
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode([HLCTimestamp].self, from: Data("[-5]".utf8))
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode([HLCTimestamp].self, from: Data("[\"5\"]".utf8))
        }
    }
}

@Suite("ClockStamp")
struct ClockStampTests {
    @Test("orders by timestamp, then replica")
    func ordering() throws {
        let t1 = try #require(HLCTimestamp(milliseconds: 100, counter: 0))
        let t2 = try #require(HLCTimestamp(milliseconds: 100, counter: 1))
        let a = ClockStamp(timestamp: t1, replica: .test(9))
        let b = ClockStamp(timestamp: t1, replica: .test(10))
        let c = ClockStamp(timestamp: t2, replica: .test(1))
        #expect(a < b)
        #expect(b < c)
        #expect(a < c)
        #expect(!(a < a))
        #expect([c, b, a].sorted() == [a, b, c])
        #expect(a.description == "1970-01-01T00:00:00.100Z#0@9")
    }

    @Test("Codable with integer fields")
    func codable() throws {
        let stamp = ClockStamp(timestamp: HLCTimestamp(rawValue: 77), replica: .test(5))
        let data = try JSONEncoder().encode(stamp)
        #expect(try JSONDecoder().decode(ClockStamp.self, from: data) == stamp)
    }
}
