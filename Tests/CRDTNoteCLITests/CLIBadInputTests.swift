import Foundation
import Testing

/// Damaged and hostile records: every command that reads a record must end with the right
/// status, name the file and the problem on stderr, and write nothing.
@Suite struct CLIBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Builds `bad.json` (and any other file) in the folder.
        var make: @Sendable (TemporaryDirectory) throws -> Void
        var status: Int32
        /// Text the error line must contain after `bad.json: `.
        var message: String
        var testDescription: String { name }
    }

    static func json(_ text: @escaping @Sendable () throws -> String) -> @Sendable (TemporaryDirectory) throws -> Void {
        { folder in try CLIFixtures.write(try text(), to: "bad.json", in: folder) }
    }

    static func server(_ from: String, _ to: String) -> @Sendable (TemporaryDirectory) throws -> Void {
        json { try CLIFixtures.exampleText("server.json").replacingOccurrences(of: from, with: to) }
    }

    static let cases: [Case] = [
        Case(name: "malformed JSON", make: json { "{\"recordName\": \"x\",\n \"fields\": [" }, status: 65,
             message: "invalid JSON: JSON error at 2:"),
        Case(name: "empty file", make: json { "" }, status: 65, message: "invalid JSON"),
        Case(name: "JSON that is not a record", make: json { "[true]" }, status: 65, message: "invalid record"),
        Case(name: "INT64 field given as a string", make: server("\"value\": 2,", "\"value\": \"2\","), status: 65,
             message: "fields.version.value: invalid record"),
        Case(name: "BYTES field given as a number",
             make: server("\"type\": \"BYTES\"", "\"type\": \"INT64\""), status: 65,
             message: "fields.payload.value: invalid record"),
        Case(name: "version zero", make: server("\"value\": 2,", "\"value\": 0,"), status: 65,
             message: "fields.version.value: invalid field"),
        Case(name: "text field of the wrong type",
             make: server("\"value\": \"Weekend groceries\\n- milk\\n- apples\\n\",\n      \"type\": \"STRING\"",
                          "\"value\": 5,\n      \"type\": \"INT64\""),
             status: 65, message: "fields.text.value: invalid field"),
        Case(name: "recordName missing", make: server("\"recordName\"", "\"name\""), status: 65,
             message: "recordName"),
        Case(name: "corrupted base64", make: server("\"value\": \"Q1JOVAEA", "\"value\": \"Q1J*VAEA"), status: 65,
             message: "fields.payload.value: invalid base64"),
        Case(name: "payload body byte flipped (valid base64)",
             make: json { try CLIFixtures.serverWithPayload { $0[30] ^= 0x01 } }, status: 65,
             message: "fields.payload.value: corrupt payload: checksumMismatch"),
        Case(name: "payload truncated", make: json { try CLIFixtures.serverWithPayload { $0.removeLast(10) } },
             status: 65, message: "fields.payload.value: corrupt payload"),
        Case(name: "payload that is not a crdtnote payload",
             make: json { try CLIFixtures.serverWithPayload { $0 = Array("hello, world".utf8) } }, status: 65,
             message: "fields.payload.value: corrupt payload: badMagic"),
        Case(name: "payload needing a newer reader", make: json { try CLIFixtures.serverWithPayload { $0[6] = 8 } },
             status: 75, message: "fields.payload.value: newer version available: the payload needs reader version 8"),
        Case(name: "record version newer", make: server("\"value\": 2,", "\"value\": 7,"), status: 75,
             message: "fields.version.value: newer version available: the record has schema version 7"),
        Case(name: "record of another type", make: server("\"recordType\": \"Note\"", "\"recordType\": \"Contact\""),
             status: 65, message: "recordType: not a note record: record type is 'Contact'"),
        Case(name: "CloudKit error entry",
             make: json { "{\"records\": [{\"recordName\": \"x\", \"serverErrorCode\": \"NOT_FOUND\"}]}" }, status: 65,
             message: "records[0]: not a record: CloudKit error NOT_FOUND"),
        Case(name: "two records in one file",
             make: json { "[" + (try CLIFixtures.exampleText("server.json")) + "," + (try CLIFixtures.exampleText("server.json")) + "]" },
             status: 65, message: "expected exactly one record, found 2"),
        Case(name: "missing asset file", make: server(
                "\"value\": \"Weekend groceries\\n- milk\\n- apples\\n\",\n      \"type\": \"STRING\"",
                "\"value\": {\"fileChecksum\": \"0123456789abcdef\", \"size\": 12, \"downloadURL\": \"text.bin\"},\n      \"type\": \"ASSET\""),
             status: 66, message: "fields.text.value: missing asset file"),
        Case(name: "asset file of the wrong size", make: { folder in
                 try server("\"value\": \"Weekend groceries\\n- milk\\n- apples\\n\",\n      \"type\": \"STRING\"",
                            "\"value\": {\"size\": 12, \"downloadURL\": \"text.bin\"},\n      \"type\": \"ASSET\"")(folder)
                 try CLIFixtures.write("too short", to: "text.bin", in: folder)
             },
             status: 65, message: "fields.text.value: asset file does not match the record"),
        Case(name: "enormous file", make: { folder in
                 // Sparse: 65 MiB of zeros that take no disk space, past the 64 MiB input limit.
                 let handle = try FileHandle(forWritingTo: try {
                     let url = folder.url.appendingPathComponent("bad.json")
                     try Data().write(to: url)
                     return url
                 }())
                 try handle.truncate(atOffset: 65 << 20)
                 try handle.close()
             },
             status: 65, message: "input is larger than the 64 MiB limit"),
    ]

    /// Every command that reads a record, with its output (if any) going to `out.json`.
    static let commands: [[String]] = [
        ["text", "bad.json"],
        ["show", "bad.json", "--json"],
        ["edit", "bad.json", "--replica", "1", "--text", "new.txt", "-o", "out.json"],
        ["merge", "bad.json", "good.json", "-o", "out.json"],
        ["merge", "--server", "good.json", "--client", "bad.json", "-o", "out.json"],
        ["verify", "bad.json"],
    ]

    @Test(arguments: cases)
    func badRecordFailsCleanlyInEveryCommand(_ testCase: Case) throws {
        for command in Self.commands {
            let folder = try TemporaryDirectory()
            defer { folder.remove() }
            try testCase.make(folder)
            try CLIFixtures.write("new text", to: "new.txt", in: folder)
            try CLIFixtures.copyExamples(["server.json"], into: folder)
            try FileManager.default.moveItem(atPath: folder.path("server.json"), toPath: folder.path("good.json"))
            let before = try folder.contents()
            let bad = try Data(contentsOf: folder.url.appendingPathComponent("bad.json"))

            let result = try CLIHarness.run(command, in: folder.url)
            let what = command.joined(separator: " ")
            // verify reports a newer record with 75 too, and any other problem with 1.
            let expected = command[0] == "verify" && testCase.status != 75 ? 1 : testCase.status
            #expect(result.status == expected, "\(what): status \(result.status), stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(what) printed: \(result.stdout)")
            #expect(result.stderr.hasPrefix("crdtnote: error: bad.json: "), "\(what): \(result.stderr)")
            #expect(result.stderr.contains(testCase.message), "\(what): \(result.stderr)")
            #expect(try folder.contents() == before, "\(what) left files behind")
            #expect(try Data(contentsOf: folder.url.appendingPathComponent("bad.json")) == bad)
        }
    }

    @Test func damagedAncestorFallsBackToATwoWayMergeWithANote() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.write(try CLIFixtures.serverWithPayload { $0[30] ^= 0x01 }, to: "ancestor.json", in: folder)
        let result = try CLIHarness.run([
            "merge", "--ancestor", "ancestor.json", "--client", CLIFixtures.example("legacy-v1.json"),
            "--server", CLIFixtures.example("server.json"),
        ], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr.contains("crdtnote: note: ancestor not used"))
        #expect(result.stderr.contains("two-way merge"))
    }

    @Test func randomlyDamagedRecordsNeverCrash() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let original = Array(try CLIFixtures.exampleText("client.json").utf8)
        var random = SplitMix64(seed: 0xC0FFEE)
        for round in 0..<24 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: random.next())
            }
            try Data(bytes).write(to: folder.url.appendingPathComponent("r.json"))
            let result = try CLIHarness.run(["show", "r.json"], in: folder.url)
            #expect([0, 65, 66, 75].contains(result.status), "round \(round): status \(result.status) \(result.stderr)")
            if result.status != 0 {
                #expect(result.stderr.hasPrefix("crdtnote: error: r.json: "), "round \(round): \(result.stderr)")
            }
        }
    }
}

/// A tiny seeded generator so the damage is the same on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
