import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
@testable import CRDTNoteToolSupport

@Suite("ReplicaID")
struct ReplicaIDTests {
    @Test("parses decimal and 0x-prefixed hex")
    func parsesValidForms() {
        #expect(ReplicaID("42") == ReplicaID(rawValue: 42))
        #expect(ReplicaID("0") == ReplicaID(rawValue: 0))
        #expect(ReplicaID("007") == ReplicaID(rawValue: 7))
        #expect(ReplicaID("0x2a") == ReplicaID(rawValue: 42))
        #expect(ReplicaID("0x2A") == ReplicaID(rawValue: 42))
        #expect(ReplicaID("0X2a") == ReplicaID(rawValue: 42))
        #expect(ReplicaID("18446744073709551615") == ReplicaID(rawValue: .max))
        #expect(ReplicaID("0xffffffffffffffff") == ReplicaID(rawValue: .max))
        #expect(ReplicaID("0x0000000000000000001") == ReplicaID(rawValue: 1))
    }

    @Test("rejects empty, signs, overflow and junk", arguments: [
        "", "-1", "+1", "0x", "0X", "x2a", " 42", "42 ", "4_2", "4,2", "0b101", "0o7", "0x-1", "0x+1",
        "18446744073709551616", "99999999999999999999", "0x10000000000000000", "0x2g", "2a", "1e3",
        "\u{0664}\u{0662}", "４２", "0x 2a", "00x2a",
    ])
    func rejectsInvalid(_ text: String) {
        #expect(ReplicaID(text) == nil)
    }

    @Test("description is decimal and round-trips")
    func descriptionRoundTrips() {
        var rng = SplitMix64(seed: 7)
        for raw: UInt64 in [0, 1, 42, .max, 1 << 63] {
            let id = ReplicaID(rawValue: raw)
            #expect(id.description == String(raw))
            #expect(ReplicaID(id.description) == id)
        }
        for _ in 0..<500 {
            let id = ReplicaID(rawValue: rng.next())
            #expect(ReplicaID(id.description) == id)
            #expect(ReplicaID("0x" + String(id.rawValue, radix: 16)) == id)
        }
    }

    @Test("cannot be written as an integer literal, so no two apps pick the same small number")
    func noIntegerLiteral() {
        #expect(!(ReplicaID.self is any ExpressibleByIntegerLiteral.Type))
    }

    @Test("ordering by value")
    func order() {
        let a = ReplicaID.test(3)
        let b = ReplicaID.test(10)
        #expect(a.rawValue == 3)
        #expect(a < b)
        #expect(!(b < a))
        #expect([b, a].sorted() == [a, b])
    }

    @Test("random ids are never zero, even when the generator yields zeros")
    func randomNeverZero() {
        var zeros = ZeroThenCountingGenerator(zeroCount: 5)
        #expect(ReplicaID.random(using: &zeros) == ReplicaID(rawValue: 1))
        var rng = SplitMix64(seed: 99)
        var seen = Set<ReplicaID>()
        for _ in 0..<1_000 {
            let id = ReplicaID.random(using: &rng)
            #expect(id.rawValue != 0)
            seen.insert(id)
        }
        #expect(seen.count == 1_000)
        #expect(ReplicaID.random().rawValue != 0)
        #expect(ReplicaID.random() != ReplicaID.random())
    }

    @Test("seeded random ids are reproducible")
    func seededRandomReproducible() {
        var first = SplitMix64(seed: 123)
        var second = SplitMix64(seed: 123)
        #expect(ReplicaID.random(using: &first) == ReplicaID.random(using: &second))
    }

    @Test("Codable as a single unsigned integer, not a string")
    func codableAsInteger() throws {
        let encoder = JSONEncoder()
        let data = try encoder.encode([ReplicaID(rawValue: .max), ReplicaID(rawValue: 42)])
        #expect(String(decoding: data, as: UTF8.self) == "[18446744073709551615,42]")
        let decoded = try JSONDecoder().decode([ReplicaID].self, from: data)
        #expect(decoded == [ReplicaID(rawValue: .max), ReplicaID(rawValue: 42)])
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode([ReplicaID].self, from: Data("[\"42\"]".utf8))
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode([ReplicaID].self, from: Data("[-1]".utf8))
        }
    }
}

/// Yields `zeroCount` zeros, then 1, 2, 3...: checks that `random(using:)` skips zero.
private struct ZeroThenCountingGenerator: RandomNumberGenerator {
    var zeroCount: Int
    var counter: UInt64 = 0

    mutating func next() -> UInt64 {
        if zeroCount > 0 {
            zeroCount -= 1
            return 0
        }
        counter += 1
        return counter
    }
}
