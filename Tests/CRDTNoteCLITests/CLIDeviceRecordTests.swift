import Foundation
import Testing

/// Device records (`CRDTNoteDevice`, Tests/Fixtures/device-record) in the commands that read
/// records: `show` and `verify` describe them, the note commands refuse them as device records,
/// `library import` skips them.
@Suite struct CLIDeviceRecordTests {
    /// The fixture device record, as `library sync` wrote it into a folder server.
    static let fixture = CLIFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/device-record/device.json").path
    /// The fixture's record name.
    static let recordName = "CRDTNoteDevice-afb8ecb649aea73c000001a21759f8c1"
    /// The message every note command gives for a device record.
    static let refusal = "is a device record (CRDTNoteDevice), not a note"

    /// The fixture's text with `old` replaced by `new` (which must occur), as `name` in `folder`.
    static func writeFixture(replacing old: String, with new: String, to name: String, in folder: TemporaryDirectory) throws {
        let text = try String(contentsOfFile: fixture, encoding: .utf8)
        #expect(text.contains(old), "fixture lacks \(old)")
        try CLIFixtures.write(text.replacingOccurrences(of: old, with: new), to: name, in: folder)
    }

    /// Runs `script` with `/bin/sh -c` in `folder` (so it may use globs), each `crdtnote` in it
    /// being the built executable.
    static func shell(_ script: String, in folder: TemporaryDirectory) throws -> CLIResult {
        let executable = try CLIHarness.located.get()
        let command = script.replacingOccurrences(of: "crdtnote", with: "\"$0\"")
        return try CLIHarness.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command, executable.path], in: folder.url)
    }

    @Test func showDescribesADeviceRecord() throws {
        let result = try CLIHarness.run(["show", Self.fixture])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let expected = """
            device record:    \(Self.recordName)
            type:             CRDTNoteDevice
            change tag:       ee85c9f551100b0f-1
            zone:             Notes
            release:          0.1.0
            reads:            format 2
            capabilities:     (none)
            name:             (none)
            last sync:        2026-11-26T10:15:02.097Z
            replicas:         1
              12662130620016535356

            """
        #expect(result.stdout == expected)
    }

    @Test func showJSONOfADeviceRecord() throws {
        let result = try CLIHarness.run(["show", "--json", Self.fixture])
        #expect(result.status == 0, "\(result.stderr)")
        let keys = ["kind", "file", "recordName", "recordType", "recordChangeTag", "zoneName", "deleted", "release", "reads",
                    "capabilities", "name", "lastSync", "replicas"]
        var position = result.stdout.startIndex
        for key in keys {
            let range = try #require(result.stdout.range(of: "\n  \"\(key)\": ", range: position..<result.stdout.endIndex),
                                     "key \(key) missing or out of order")
            position = range.upperBound
        }
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(object.count == keys.count)
        #expect(object["kind"] as? String == "device")
        #expect(object["recordName"] as? String == Self.recordName)
        #expect(object["recordType"] as? String == "CRDTNoteDevice")
        #expect(object["release"] as? String == "0.1.0")
        #expect(object["reads"] as? Int == 2)
        #expect((object["capabilities"] as? [Any])?.isEmpty == true)
        #expect(object["name"] is NSNull)
        #expect(object["lastSync"] as? String == "2026-11-26T10:15:02.097Z")
        #expect(object["replicas"] as? [String] == ["12662130620016535356"])
    }

    @Test func showNamesAndCapabilitiesWhenPresent() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.writeFixture(
            replacing: "\"replicas\": {",
            with: "\"name\": {\"value\": \"Anna's iPhone\", \"type\": \"STRING\"},\n    "
                + "\"capabilities\": {\"value\": [\"encrypted\"], \"type\": \"STRING_LIST\"},\n    \"replicas\": {",
            to: "named.json", in: folder)
        let result = try CLIHarness.run(["show", "named.json"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nname:             Anna's iPhone\n"))
        #expect(result.stdout.contains("\ncapabilities:     encrypted\n"))
        let object = try CLIHarness.showJSON("named.json", in: folder.url)
        #expect(object["name"] as? String == "Anna's iPhone")
        #expect(object["capabilities"] as? [String] == ["encrypted"])
    }

    @Test func verifyPassesADeviceRecordBesideANote() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.copyExamples(["server.json"], into: folder)
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: folder.path("device.json"))
        let single = try CLIHarness.run(["verify", "device.json"], in: folder.url)
        #expect(single.status == 0, "\(single.stderr)")
        #expect(single.stdout == "device.json: device record, not a note (release 0.1.0, reads format 2)\n")
        #expect(single.stderr.isEmpty)

        let all = try Self.shell("crdtnote verify *.json", in: folder)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stderr.isEmpty)
        #expect(all.stdout == "device.json: device record, not a note (release 0.1.0, reads format 2)\n"
            + "server.json: ok (schema 2, 34 scalars)\n")
    }

    /// A device record broken in one field, the field its error must name, and the message.
    static let malformed: [(old: String, new: String, field: String, message: String)] = [
        ("\"value\": 2,\n      \"type\": \"INT64\"", "\"value\": 0,\n      \"type\": \"INT64\"", "reads", "expected an INT64 from 1 to 65535"),
        ("\"12662130620016535356\"", "\"0x2a\"", "replicas", "\"0x2a\" is not a decimal replica id"),
        ("\"value\": 1000000,", "\"value\": 2,", "version", "expected INT64 1000000"),
        ("\"value\": \"0.1.0\",", "\"value\": \"\",", "release", "expected a STRING"),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedDeviceRecordNamesTheField(_ index: Int) throws {
        let broken = Self.malformed[index]
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.writeFixture(replacing: broken.old, with: broken.new, to: "bad.json", in: folder)
        let prefix = "crdtnote: error: bad.json: fields.\(broken.field).value: invalid field: device record: \(broken.message)"
        for json in [false, true] {
            let show = try CLIHarness.run(["show", "bad.json"] + (json ? ["--json"] : []), in: folder.url)
            #expect(show.status == 65)
            #expect(show.stdout.isEmpty)
            #expect(show.stderr.hasPrefix(prefix), "\(show.stderr)")
        }
        let verify = try CLIHarness.run(["verify", "bad.json"], in: folder.url)
        #expect(verify.status == 1)
        #expect(verify.stdout.isEmpty)
        #expect(verify.stderr.hasPrefix(prefix), "\(verify.stderr)")
        #expect(verify.stderr.hasSuffix("crdtnote: error: 1 of 1 record failed verification\n"))
    }

    @Test func noteCommandsRefuseADeviceRecordAsOne() throws {
        let commands: [[String]] = [
            ["merge", "device.json", "server.json", "-o", "out.json"],
            ["merge", "--server", "server.json", "--client", "device.json", "-o", "out.json"],
            ["edit", "device.json", "--replica", "1", "--text", "new.txt", "-o", "out.json"],
            ["text", "device.json"],
        ]
        for command in commands {
            let folder = try TemporaryDirectory()
            defer { folder.remove() }
            try CLIFixtures.copyExamples(["server.json"], into: folder)
            try FileManager.default.copyItem(atPath: Self.fixture, toPath: folder.path("device.json"))
            try CLIFixtures.write("new text", to: "new.txt", in: folder)
            let before = try folder.contents()
            let result = try CLIHarness.run(command, in: folder.url)
            #expect(result.status == 65, "\(command)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("crdtnote: error: device.json: \(Self.refusal)"), "\(command): \(result.stderr)")
            #expect(try folder.contents() == before, "\(command) left files behind")
        }
    }

    @Test func verifyAndImportAFolderServerWithItsDeviceRecord() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let setup = try Self.shell(
            "crdtnote library init lib && crdtnote library append lib groceries 'milk' && crdtnote library sync lib --server srv",
            in: folder)
        #expect(setup.status == 0, "\(setup.stderr)")
        // The store's copies of the current records (file names escaped: StoreFileName), whose
        // assets are in the zone's assets folder.
        let records = "srv/zones/*/records/*.json --assets srv/zones/*/assets"
        let verify = try Self.shell("crdtnote verify \(records)", in: folder)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stderr.isEmpty)
        let lines = verify.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(verify.stdout)")
        #expect(lines.filter { $0.contains(": device record, not a note (release ") }.count == 1, "the sync wrote no device record: \(verify.stdout)")
        // The only device, having read the whole feed, writes the encrypted layout (schema 3).
        #expect(lines.filter { $0.hasSuffix("/groceries.json: ok (schema 3, 4 scalars)") }.count == 1, "\(verify.stdout)")

        let imported = try Self.shell("crdtnote library init copy && crdtnote library import copy \(records)", in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains(": skipped: a device record (CRDTNoteDevice), not a note\n"), "\(imported.stderr)")
        let text = try CLIHarness.run(["library", "text", "copy", "groceries"], in: folder.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "milk")
    }
}
