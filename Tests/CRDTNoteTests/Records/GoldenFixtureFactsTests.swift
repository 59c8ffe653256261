import Foundation
import Testing
@testable import CRDTNote

/// The golden payloads' header fields and facts, checked at library level (the CLI suite compares
/// `show --json` as a whole): every `.bin` has format version 1, minimum reader version 1, kind 1
/// (snapshot), flags 0, a body length equal to its size minus 18 and a CRC-32C (computed here
/// bit by bit, independently of the library's table-driven one) equal to the header's; decoded,
/// it has the run count, replica ids, id counts and clock range its `.show.json` records. And
/// the independent Python reader (`second_reader.py`, written from the specs) agrees on all of it.
@Suite("Golden fixtures (facts)")
struct GoldenFixtureFactsTests {
    static let directory = GoldenFixtureTests.directory

    static func crc32c(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    static func le<T: FixedWidthInteger>(_ bytes: [UInt8], _ at: Int, _: T.Type) -> T {
        (0..<MemoryLayout<T>.size).reduce(T(0)) { $0 | T(bytes[at + $1]) << (8 * $1) }
    }

    @Test(arguments: GoldenFixtureTests.fixtures)
    func headerFields(_ name: String) throws {
        let bin = try GoldenFixtureTests.bytes("\(name).bin")
        try #require(bin.count >= 18)
        #expect(Array(bin[0..<4]) == Array("CRNT".utf8))
        #expect(Self.le(bin, 4, UInt16.self) == 1, "format version")
        #expect(Self.le(bin, 6, UInt16.self) == 1, "minimum reader version")
        #expect(bin[8] == 1, "kind: snapshot")
        #expect(bin[9] == 0, "flags")
        #expect(Int(Self.le(bin, 10, UInt32.self)) == bin.count - 18, "body length")
        #expect(Self.le(bin, 14, UInt32.self) == Self.crc32c(bin[18...]), "CRC-32C of the body")
        let header = try PayloadHeader.read(bin)
        #expect(header.formatVersion == 1 && header.minimumReaderVersion == 1 && header.kind == .snapshot
                && header.flags == 0 && header.bodyLength == bin.count - 18 && header.checksum == Self.crc32c(bin[18...]))
    }

    /// FORMAT.md §4.3: a payload this writer produced, decoded and encoded again without edits,
    /// is reproduced byte for byte (the table, the runs and the modes are kept).
    @Test(arguments: GoldenFixtureTests.fixtures)
    func reencodingReproducesTheBytes(_ name: String) throws {
        let bin = try GoldenFixtureTests.bytes("\(name).bin")
        let note = try NoteText(snapshot: bin, replica: ReplicaID(rawValue: 0), clock: HybridLogicalClock(physicalClock: .fixed(0)))
        #expect(note.encodedSnapshot() == bin)
    }

    @Test(arguments: GoldenFixtureTests.fixtures)
    func decodedFactsMatchShowJSON(_ name: String) throws {
        let bin = try GoldenFixtureTests.bytes("\(name).bin")
        let show = try #require(try JSONSerialization.jsonObject(with: Data(GoldenFixtureTests.bytes("\(name).show.json"))) as? [String: Any])
        let note = try NoteText(snapshot: bin, replica: ReplicaID(rawValue: 0), clock: HybridLogicalClock(physicalClock: .fixed(0)))
        #expect(note.runCount == show["runs"] as? Int)
        let payload = try #require((show["payloads"] as? [[String: Any]])?.first)
        #expect(payload["encodedBytes"] as? Int == bin.count)
        #expect(payload["formatVersion"] as? Int == 1 && payload["minimumReaderVersion"] as? Int == 1)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        func date(_ stamp: HLCTimestamp?) -> String? {
            stamp.map { iso.string(from: Date(timeIntervalSince1970: Double($0.milliseconds) / 1000)) }
        }
        let expected = try #require(show["replicas"] as? [[String: Any]])
        let got = note.replicaHistories
        #expect(got.count == expected.count)
        for (h, e) in zip(got, expected) {
            #expect(String(h.replica.rawValue) == e["replica"] as? String)
            #expect(Int(h.insertedCount) == e["inserted"] as? Int)
            #expect(date(h.firstInsertion) == e["firstInsertion"] as? String)
            #expect(date(h.latestEdit) == e["latestEdit"] as? String)
        }
    }

    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Tests/Fixtures/golden/second_reader.py decodes every payload from the spec alone, reads the
    /// format 2 fixtures (Tests/Fixtures/format2) to the runs of their format 1 twins, and derives
    /// the legacy and fold replica ids; it must agree with the fixtures. Skipped without python3.
    @Test(.enabled(if: python != nil, "python3 is not installed"))
    func independentPythonReaderAgrees() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.python))
        process.arguments = [Self.directory.appendingPathComponent("second_reader.py").path, Self.directory.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("ok   fold replica of golden-clobbered"), "\(output)")
        #expect(output.contains("ok   edited.v2: 1317 runs, ids and origins equal .v1's"), "\(output)")
    }
}
