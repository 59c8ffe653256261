import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting

/// The independent Python reader (`Tests/Fixtures/golden/second_reader.py`, written from
/// Docs/FORMAT.md alone) against the library on snapshot format 2 (FORMAT.md §4.5): it must decode
/// what the library writes to the same text, runs (ids, origins, tombstones) and state digest, and
/// refuse the damaged payloads the library refuses, with the same error kind at the same byte.
/// Skipped without python3.
@Suite("Second reader (format 2)", .enabled(if: GoldenFixtureFactsTests.python != nil, "python3 is not installed"))
struct SecondReaderFormatTwoTests {
    /// What `second_reader.py --dump` says about one payload file (one JSON object per file).
    struct Dump {
        let json: [String: Any]
        var ok: Bool { json["ok"] as? Bool == true }
        var text: String? { json["text"] as? String }
        var digest: String? { json["digest"] as? String }
        var kind: String? { json["kind"] as? String }
        var offset: Int? { json["offset"] as? Int }
        /// The runs as `[replica id, seq, length, deleted, left, right]`, compared as JSON text.
        var runs: String { Self.canonical(json["runs"]) }
        var replicas: String { Self.canonical(json["replicas"]) }

        static func canonical(_ value: Any?) -> String {
            guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else {
                return "<missing>"
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Writes `payloads` to a fresh temporary folder and runs the reader's `--dump` over them.
    static func dump(_ payloads: [[UInt8]]) throws -> [Dump] {
        try jsonLines(mode: "--dump", payloads).map(Dump.init(json:))
    }

    /// Runs `second_reader.py MODE` over `payloads` (written to a fresh temporary folder): its one
    /// JSON object per payload.
    static func jsonLines(mode: String, _ payloads: [[UInt8]]) throws -> [[String: Any]] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("second-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (i, payload) in payloads.enumerated() {
            let url = folder.appendingPathComponent("\(i).bin")
            try Data(payload).write(to: url)
            paths.append(url.path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(GoldenFixtureFactsTests.python))
        process.arguments = [GoldenFixtureFactsTests.directory.appendingPathComponent("second_reader.py").path, mode] + paths
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "second_reader.py failed: \(errors)")
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == payloads.count, "one line per payload: \(lines.count) for \(payloads.count)")
        return try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// The notes compared: every golden fixture, random multi-replica notes, and a long-edited
    /// note whose format 2 columns are rANS-coded.
    static func notes() throws -> [NoteText] {
        var notes: [NoteText] = []
        for name in GoldenFixtureTests.fixtures {
            notes.append(try NoteText(snapshot: GoldenFixtureTests.bytes("\(name).bin"), replica: .test(1)))
        }
        for seed in [3, 11, 29] as [UInt64] {
            notes += FormatSamples.randomNotes(seed: seed, replicas: 3, edits: 200)
        }
        notes.append(SnapshotFormatV2Tests.largeNote())
        return notes
    }

    /// Each note written in format 2 by the library decodes in the second reader to the text and
    /// state digest the library reads back from it, and to the same runs as the library's format
    /// 1 encoding of what it read (format 1 being read by the second reader's format 1 decoder,
    /// which the golden fixtures check).
    @Test func readsWhatTheLibraryWritesInFormatTwo() throws {
        let notes = try Self.notes()
        var payloads: [[UInt8]] = []
        var loaded: [NoteText] = []
        for note in notes {
            let v2 = note.encodedSnapshot(format: .version2)
            let fromV2 = try NoteText(snapshot: v2, replica: .test(2))
            try fromV2.checkLoadedSnapshot()
            payloads += [v2, fromV2.encodedSnapshot(format: .version1)]
            loaded.append(fromV2)
        }
        let dumps = try Self.dump(payloads)
        var ransColumns = 0
        for (i, note) in loaded.enumerated() {
            let v2 = dumps[2 * i], v1 = dumps[2 * i + 1]
            #expect(v2.ok && v1.ok, "note \(i): \(v2.json["error"] ?? "") \(v1.json["error"] ?? "")")
            #expect(v2.json["minimumReaderVersion"] as? Int == 2)
            #expect(v2.text == note.string, "note \(i): text")
            #expect(v2.digest == String(NoteReplicaDerivation.digest(note)), "note \(i): state digest")
            #expect(v2.runs == v1.runs, "note \(i): runs (ids, origins, tombstones)")
            #expect(v2.replicas == v1.replicas, "note \(i): replica table")
            #expect((v2.json["runs"] as? [Any])?.count == note.runCount, "note \(i): run count")
            ransColumns += try SnapshotFormatV2Tests.columnModes(payloads[2 * i]).filter { $0 == CodedColumn.rans }.count
        }
        #expect(ransColumns >= 3, "the rANS decoder is exercised (\(ransColumns) coded columns)")
    }

    /// The pinned format 2 fixtures (Tests/Fixtures/format2), against the library.
    @Test(arguments: ["multi-replica", "edited"])
    func readsThePinnedFormatTwoFixtures(name: String) throws {
        let directory = RepositoryPaths.fixtures + "/format2/"
        let v2 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + name + ".v2.bin")))
        let note = try NoteText(snapshot: v2, replica: .test(1))
        let dump = try #require(try Self.dump([v2]).first)
        #expect(dump.ok, "\(dump.json)")
        #expect(dump.text == note.string)
        #expect(dump.digest == String(NoteReplicaDerivation.digest(note)))
    }

    // MARK: - Damaged payloads

    /// A snapshot of "hello" by replica 1 (nextSeq 5, no stamps) whose run table is `runTable`,
    /// under a format 2 header with a correct length and CRC.
    static func payload(_ runTable: [UInt8]) -> [UInt8] {
        var body: [UInt8] = [1, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0]   // 1 replica: id 1, nextSeq 5, latest 0, no log
        body += [5] + Array("hello".utf8)
        body += runTable
        let length = UInt32(body.count), crc = GoldenFixtureFactsTests.crc32c(body[...])
        var out = Array("CRNT".utf8) + [2, 0, 2, 0, 1, 0]
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: length >> (8 * UInt32(k)))) }
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k)))) }
        return out + body
    }

    /// A raw column (mode 0) of at most 127 bytes.
    static func raw(_ bytes: [UInt8]) -> [UInt8] { [0, UInt8(bytes.count)] + bytes }

    /// A rANS column (mode 1) of `count` (< 128) decoded bytes: `table` is the frequency table
    /// as written, `stream` the stream bytes.
    static func rans(_ count: UInt8, table: [UInt8], stream: [UInt8]) -> [UInt8] {
        [1, count] + table + [UInt8(stream.count)] + stream
    }

    /// One symbol `s` of frequency 4096: the state never changes, so the stream is the state.
    static func one(_ s: UInt8) -> [UInt8] { [0, s, 0x80, 0x20] }
    /// 2^23, the encoder's initial state, little-endian: the stream of a one-symbol column.
    static let finalState: [UInt8] = [0, 0, 0x80, 0]

    /// One run "hello" (flag 0: visible, left = previous (none), right = predicted (none),
    /// sequence code 0), columns replaceable by name.
    static func runs(count: UInt8 = 1, flags: [UInt8] = raw([0]), code: [UInt8] = raw([]), delta: [UInt8] = raw([0]),
                     length: [UInt8] = raw([4]), replica: [UInt8] = raw([]), left: [UInt8] = raw([]),
                     right: [UInt8] = raw([]), tail: [UInt8] = []) -> [UInt8] {
        [count] + flags + code + delta + length + replica + left + right + tail
    }

    /// A case: its run table and what FORMAT.md says a reader does with it (nil: decodes to
    /// "hello"; else the error kind).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let runTable: [UInt8]
        let refusal: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "all raw", runTable: runs(), refusal: nil),
        Case(name: "rANS flag column, one symbol", runTable: runs(flags: rans(1, table: one(0), stream: finalState)), refusal: nil),
        Case(name: "rANS length column, two symbols", runTable: runs(length: rans(1, table: [1, 4, 0x80, 0x10, 9, 0x80, 0x10], stream: [0, 0, 0, 1])), refusal: nil),
        Case(name: "rANS frequencies sum to 4095", runTable: runs(flags: rans(1, table: [0, 0, 0xFF, 0x1F], stream: finalState)), refusal: "invalidValue"),
        Case(name: "rANS frequencies sum to 4097", runTable: runs(length: rans(1, table: [1, 4, 0x81, 0x10, 9, 0x80, 0x10], stream: [0, 0, 0, 1])), refusal: "invalidValue"),
        Case(name: "rANS frequency 0", runTable: runs(length: rans(1, table: [1, 4, 0x80, 0x20, 9, 0], stream: finalState)), refusal: "invalidValue"),
        Case(name: "rANS symbols out of order", runTable: runs(length: rans(1, table: [1, 9, 0x80, 0x10, 4, 0x80, 0x10], stream: [0, 0, 0, 1])), refusal: "invalidValue"),
        Case(name: "rANS stream not ending in the initial state", runTable: runs(flags: rans(1, table: one(0), stream: [0, 0, 0x80, 1])), refusal: "invalidValue"),
        Case(name: "rANS stream with a byte left over", runTable: runs(flags: rans(1, table: one(0), stream: finalState + [0x55])), refusal: "trailingBytes"),
        Case(name: "rANS stream cut off in a renormalisation", runTable: runs(length: rans(1, table: [1, 4, 0x80, 0x10, 9, 0x80, 0x10], stream: finalState)), refusal: "truncated"),
        Case(name: "rANS initial state 2^31", runTable: runs(flags: rans(1, table: one(0), stream: [0, 0, 0, 0x80])), refusal: "invalidValue"),
        Case(name: "rANS stream shorter than a state", runTable: runs(flags: rans(1, table: one(0), stream: [0, 0, 0x80])), refusal: "truncated"),
        Case(name: "rANS column of 0 bytes", runTable: runs(code: rans(0, table: one(0), stream: finalState)), refusal: "invalidValue"),
        Case(name: "rANS length column decodes one byte too many", runTable: runs(length: rans(2, table: one(4), stream: finalState)), refusal: "trailingBytes"),
        Case(name: "flag column of 2 bytes for 1 run", runTable: runs(flags: raw([0, 0])), refusal: "lengthTooLarge"),
        Case(name: "flag column of 0 bytes for 1 run", runTable: runs(flags: raw([])), refusal: "invalidValue"),
        Case(name: "rANS column count 2^31", runTable: runs(code: [1, 0x80, 0x80, 0x80, 0x80, 0x08]), refusal: "invalidValue"),
        Case(name: "text with a scalar no run uses", runTable: runs(length: raw([3])), refusal: "invalidValue"),
        Case(name: "ids 0 and 1 in two runs", runTable: runs(count: 2, flags: raw([0, 0]), delta: raw([0, 5]), length: raw([2, 1])), refusal: "invalidValue"),
        Case(name: "right origin inside its own run", runTable: runs(flags: raw([0x18]), right: raw([0, 2])), refusal: "invalidValue"),
        Case(name: "origins in a cycle", runTable: runs(count: 2, flags: raw([0x08, 0]), delta: raw([0, 0]), length: raw([1, 2])), refusal: "invalidValue"),
        Case(name: "\"he\" typed before \"llo\": negative delta, predicted right origin", runTable: runs(count: 2, flags: raw([0x02, 0x02]), delta: raw([6, 9]), length: raw([1, 2])), refusal: nil),
        Case(name: "\"h\", \"el\", \"lo\": sequence code 2, own predecessor", runTable: runs(count: 3, flags: raw([0, 0, 0x84]), delta: raw([0, 4]), length: raw([0, 1, 1])), refusal: nil),
        Case(name: "length column with a byte left over", runTable: runs(length: raw([4, 0])), refusal: "trailingBytes"),
        Case(name: "delta column beyond 10 bytes per code-0 run", runTable: runs(delta: raw([0] + Array(repeating: 0x55, count: 10))), refusal: "lengthTooLarge"),
        Case(name: "raw column longer than the body", runTable: runs(right: [0, 5, 1]), refusal: "invalidValue"),
        Case(name: "raw column one byte longer than the body", runTable: runs(flags: raw([0x18]), right: [0, 3, 0, 0]), refusal: "lengthTooLarge"),
        Case(name: "rANS stream one byte longer than the body", runTable: runs(flags: raw([0x18]), right: [1, 1] + one(0) + [5] + finalState), refusal: "lengthTooLarge"),
        Case(name: "column mode 2", runTable: runs(replica: [2, 0]), refusal: "invalidValue"),
        Case(name: "a byte after the last column", runTable: runs(tail: [0]), refusal: "trailingBytes"),
        Case(name: "more runs than ids", runTable: runs(count: 6, flags: raw([0, 0, 0, 0, 0, 0])), refusal: "lengthTooLarge"),
        Case(name: "sequence code 1 with no open end", runTable: runs(flags: raw([0x40]), delta: raw([])), refusal: "invalidValue"),
        Case(name: "sequence code 3 (code column) with no open end", runTable: runs(flags: raw([0xC0]), code: raw([3]), delta: raw([])), refusal: "invalidValue"),
        Case(name: "sequence code 1 continuing past the ids", runTable: runs(count: 2, flags: raw([0, 0x40]), length: raw([4, 0])), refusal: "invalidValue"),
        Case(name: "code column byte 9", runTable: runs(flags: raw([0xC0]), code: raw([9]), delta: raw([])), refusal: "invalidValue"),
        Case(name: "right origin = next element on the last run", runTable: runs(flags: raw([0x08])), refusal: "invalidValue"),
        Case(name: "own predecessor of seq 0", runTable: runs(flags: raw([0x04])), refusal: "invalidValue"),
        Case(name: "explicit left origin beyond the ids", runTable: runs(flags: raw([0x06]), left: raw([0, 5])), refusal: "invalidValue"),
        Case(name: "run beyond the ids", runTable: runs(length: raw([5])), refusal: "invalidValue"),
    ]

    /// The library's verdict on a payload: its text, or the decoding error's kind and offset.
    static func libraryVerdict(_ payload: [UInt8]) -> (text: String?, kind: String?, offset: Int?) {
        do {
            let note = try NoteText(snapshot: payload, replica: .test(1))
            try note.checkLoadedSnapshot()
            return (note.string, nil, nil)
        } catch let error as PayloadError {
            return (nil, error.decodingError?.code.rawValue ?? "\(error.code)", error.decodingError?.offset)
        } catch let error as BinaryDecodingError {
            return (nil, error.code.rawValue, error.offset)
        } catch {
            return (nil, "\(error)", nil)
        }
    }

    /// Crafted format 2 payloads, damaged where FORMAT.md §4.5 says a reader must refuse them
    /// (and five sound ones as controls): the library and the second reader both accept or
    /// both refuse, with the error kind the spec names, at the same byte.
    @Test func refusesDamagedFormatTwoPayloadsLikeTheLibrary() throws {
        let payloads = Self.cases.map { Self.payload($0.runTable) }
        let dumps = try Self.dump(payloads)
        for (c, (payload, dump)) in zip(Self.cases, zip(payloads, dumps)) {
            let library = Self.libraryVerdict(payload)
            if let kind = c.refusal {
                #expect(library.kind == kind, "\(c.name): library \(library)")
                #expect(!dump.ok && dump.kind == kind, "\(c.name): second reader \(dump.json)")
                #expect(dump.offset == library.offset, "\(c.name): offset, second reader \(dump.json), library \(library)")
            } else {
                #expect(library.text == "hello", "\(c.name): library \(library)")
                #expect(dump.ok && dump.text == "hello", "\(c.name): second reader \(dump.json)")
            }
        }
    }
}
