import Foundation
import Testing
import CRDTNoteTestSupport

/// Hostile inputs, built small inside each test: asset references leading out of the record's
/// folder, outputs that are not regular files, invalid UTF-8 and duplicate keys in JSON, and a
/// gzip bomb given to `replay`. Each must end in a clean, typed refusal that writes nothing.
@Suite struct CLIUntrustedInputTests {
    // MARK: Asset references

    /// A version 1 note record whose `text` is an asset at `downloadURL`.
    static func recordWithTextAsset(_ downloadURL: String, name: String = "hostile-note") throws -> String {
        let record: [String: Any] = [
            "recordName": name,
            "recordType": "Note",
            "fields": [
                "version": ["value": 1, "type": "INT64"],
                "text": ["value": ["downloadURL": downloadURL, "size": 10], "type": "ASSET"],
            ],
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
    }

    /// Runs `text`, `verify` and `merge` on a record whose text asset is `downloadURL` (in a
    /// folder `records` inside `folder`), checks each refuses it as outside the folder without
    /// writing anything, and returns the three stderr texts.
    private func refusals(_ downloadURL: String, in folder: TemporaryDirectory) throws -> [String] {
        try CLIFixtures.write(try Self.recordWithTextAsset(downloadURL), to: "records/hostile.json", in: folder)
        try CLIFixtures.write(try CLIFixtures.exampleText("legacy-v1.json"), to: "records/other.json", in: folder)
        let before = try folder.contents()
        let recordsBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path("records")).sorted()
        var messages: [String] = []
        for arguments in [
            ["text", "records/hostile.json"],
            ["verify", "records/hostile.json"],
            ["merge", "records/hostile.json", "records/hostile.json", "-o", "merged.json"],
            ["edit", "records/hostile.json", "--replica", "5", "-o", "edited.json"],
        ] {
            let result = try CLIHarness.run(arguments, stdin: Data("new text\n".utf8), in: folder.url)
            let expected: Int32 = arguments[0] == "verify" ? 1 : 65
            #expect(result.status == expected, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            let line = try #require(result.stderr.split(separator: "\n").first.map(String.init))
            #expect(line.hasPrefix("crdtnote: error: records/hostile.json: fields.text.value.downloadURL: asset outside the record's folder: record 'hostile-note': downloadURL "), "\(line)")
            #expect(line.hasSuffix(" of field 'text' leads outside the record's folder; asset files must be inside"), "\(line)")
            #expect(!line.contains("bytes") && !line.contains("no such") && !line.contains("tried"), "\(line)")
            messages.append(result.stderr.replacingOccurrences(of: downloadURL, with: "URL"))
            #expect(try folder.contents() == before, "\(arguments) left files behind")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("records")).sorted() == recordsBefore)
        }
        return messages
    }

    /// Each pair: a reference to an existing file outside the folder, and the same to a missing
    /// one. Both are refused with exit 65 and the same message: nothing tells them apart.
    @Test(arguments: [
        ("../../../../../../../../../../etc/passwd", "../../../../../../../../../../etc/no-such-file"),
        ("/etc/hostname", "/etc/no-such-file"),
        ("file:///etc/hostname", "file:///etc/no-such-file"),
        ("file://localhost/etc/hostname", "file://localhost/etc/no-such-file"),
        ("/proc/self/environ", "/proc/self/no-such-file"),
        ("sub/../../outside.txt", "sub/../../no-such-file.txt"),
    ])
    func referencesOutsideTheFolderAreRefused(_ existing: String, _ missing: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("records/sub"), withIntermediateDirectories: true)
        try CLIFixtures.write("outside!!!", to: "outside.txt", in: folder)
        let a = try refusals(existing, in: folder)
        let b = try refusals(missing, in: folder)
        #expect(a == b)
    }

    @Test func symbolicLinksLeadingOutAreRefusedAlike() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("records"), withIntermediateDirectories: true)
        try CLIFixtures.write("outside!!!", to: "outside.txt", in: folder)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: folder.path("records/to-existing"), withDestinationPath: folder.path("outside.txt"))
        try fm.createSymbolicLink(atPath: folder.path("records/to-missing"), withDestinationPath: folder.path("missing.txt"))
        try fm.createSymbolicLink(atPath: folder.path("records/to-hostname"), withDestinationPath: "/etc/hostname")
        try fm.createSymbolicLink(atPath: folder.path("records/up"), withDestinationPath: "..")
        let existing = try refusals("to-existing", in: folder).map { $0.replacingOccurrences(of: "to-existing", with: "L") }
        let missing = try refusals("to-missing", in: folder).map { $0.replacingOccurrences(of: "to-missing", with: "L") }
        #expect(existing == missing)
        _ = try refusals("to-hostname", in: folder)
        _ = try refusals("up/outside.txt", in: folder)
    }

    @Test func assetsInsideTheFoldersStillWork() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder.path("records/sub"), withIntermediateDirectories: true)
        try fm.createDirectory(atPath: folder.path("assets"), withIntermediateDirectories: true)
        try CLIFixtures.write("0123456789", to: "records/sub/text.txt", in: folder)
        try CLIFixtures.write("9876543210", to: "assets/text.txt", in: folder)
        try fm.createSymbolicLink(atPath: folder.path("records/link"), withDestinationPath: "sub/text.txt")
        for (url, text) in [("sub/text.txt", "0123456789"), ("link", "0123456789"),
                            ("file://" + folder.path("records/sub/text.txt"), "0123456789")] {
            try CLIFixtures.write(try Self.recordWithTextAsset(url), to: "records/r.json", in: folder)
            let result = try CLIHarness.run(["text", "records/r.json"], in: folder.url)
            #expect(result.status == 0, "\(url): \(result.stderr)")
            #expect(result.stdout == text)
        }
        // `..` into the --assets folder is inside the allowed folders; without --assets it is not.
        try CLIFixtures.write(try Self.recordWithTextAsset("../assets/text.txt"), to: "records/r.json", in: folder)
        #expect(try CLIHarness.run(["text", "records/r.json", "--assets", "assets"], in: folder.url).stdout == "9876543210")
        let refused = try CLIHarness.run(["text", "records/r.json"], in: folder.url)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("asset outside the record's folder"))
    }

    @Test func specialFilesAreRefusedWithoutOpeningThem() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        #expect(mkfifo(folder.path("fifo"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder.path("dir"), withIntermediateDirectories: false)
        for (url, kind) in [("fifo", "a FIFO"), ("dir", "a directory")] {
            try CLIFixtures.write(try Self.recordWithTextAsset(url), to: "r.json", in: folder)
            // A FIFO opened for reading would block until a writer comes: it must not be opened.
            let result = try CLIHarness.run(["text", "r.json"], in: folder.url)
            #expect(result.status == 65)
            #expect(result.stderr.contains("asset is not a regular file: record 'hostile-note': asset file "))
            #expect(result.stderr.contains("is \(kind), not a regular file"), "\(result.stderr)")
        }
    }

    // MARK: Outputs

    /// A fresh note on standard input, written to `-o output`; the result, and the folder's
    /// entries after it.
    private func newNote(_ output: String, in folder: TemporaryDirectory) throws -> CLIResult {
        try CLIHarness.run(["new", "--replica", "1", "-o", output], stdin: Data("hello\n".utf8), in: folder.url)
    }

    @Test func outputsThatAreNotRegularFilesAreRefused() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let fm = FileManager.default
        try CLIFixtures.write("keep me", to: "target.json", in: folder)
        try fm.createSymbolicLink(atPath: folder.path("link.json"), withDestinationPath: "target.json")
        try fm.createSymbolicLink(atPath: folder.path("dangling.json"), withDestinationPath: "nowhere.json")
        try fm.createDirectory(atPath: folder.path("dir"), withIntermediateDirectories: false)
        #expect(mkfifo(folder.path("fifo"), 0o600) == 0)
        let before = try folder.contents()
        for (output, kind) in [("link.json", "a symbolic link"), ("dangling.json", "a symbolic link"),
                               ("dir", "a directory"), ("fifo", "a FIFO"),
                               ("/dev/null", "a character device"), ("/dev/stdout", "a symbolic link")] {
            let result = try newNote(output, in: folder)
            #expect(result.status == 73, "\(output): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "crdtnote: error: \(output): is \(kind), not a regular file; the output must be a regular file (replaced atomically) or '-' for standard output\n")
            #expect(try folder.contents() == before, "\(output)")
        }
        // The link and what it points at are untouched; /dev/null is still a device.
        #expect(try fm.destinationOfSymbolicLink(atPath: folder.path("link.json")) == "target.json")
        #expect(try String(contentsOfFile: folder.path("target.json"), encoding: .utf8) == "keep me")
        var info = stat()
        #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        // merge -o follows the same rule; a regular file and `-` are fine.
        let merged = try CLIHarness.run(["merge", CLIFixtures.example("server.json"), CLIFixtures.example("client.json"), "-o", "link.json"], in: folder.url)
        #expect(merged.status == 73)
        #expect(try newNote("target.json", in: folder).status == 0)
        #expect(try newNote("-", in: folder).status == 0)
    }

    @Test func editInPlaceRefusesALinkedRecord() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let original = try CLIFixtures.exampleText("legacy-v1.json")
        try CLIFixtures.write(original, to: "note.json", in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.json"), withDestinationPath: "note.json")
        let result = try CLIHarness.run(["edit", "link.json", "--replica", "3"], stdin: Data("changed\n".utf8), in: folder.url)
        #expect(result.status == 73)
        #expect(result.stderr.hasPrefix("crdtnote: error: link.json: is a symbolic link, not a regular file"))
        #expect(try String(contentsOfFile: folder.path("note.json"), encoding: .utf8) == original)
        #expect(try folder.contents() == ["link.json", "note.json"])
        // A FIFO as the record to edit in place is refused before it is read (no blocking).
        #expect(mkfifo(folder.path("fifo.json"), 0o600) == 0)
        let fifo = try CLIHarness.run(["edit", "fifo.json", "--replica", "3"], stdin: Data("changed\n".utf8), in: folder.url)
        #expect(fifo.status == 73)
        #expect(fifo.stderr.contains("is a FIFO"))
        // Edited through -o elsewhere, the linked record is only read.
        let copy = try CLIHarness.run(["edit", "link.json", "--replica", "3", "-o", "out.json"], stdin: Data("changed\n".utf8), in: folder.url)
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(try CLIHarness.run(["text", "out.json"], in: folder.url).stdout == "changed\n")
    }

    // MARK: JSON

    @Test func invalidUTF8BeforeAnEscapeIsRefused() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // Line 3, column 24 is the 0xFF byte, before the "\n" escape.
        let head = Array("{\"recordName\": \"n\", \"recordType\": \"Note\",\n\"fields\": {\"version\": {\"value\": 1, \"type\": \"INT64\"},\n\"text\": {\"value\": \"milk".utf8)
        let bytes = head + [0xFF] + Array("\\n\", \"type\": \"STRING\"}}}".utf8)
        try Data(bytes).write(to: folder.url.appendingPathComponent("r.json"))
        for arguments in [["text", "r.json"], ["merge", "r.json", "r.json", "-o", "out.json"]] {
            let result = try CLIHarness.run(arguments, in: folder.url)
            #expect(result.status == 65)
            #expect(result.stderr == "crdtnote: error: r.json: invalid JSON: JSON error at 3:24 (byte 118): invalid UTF-8 in string\n")
            #expect(try folder.contents() == ["r.json"])
        }
    }

    @Test(arguments: [
        ("{\"recordName\": \"a\", \"recordType\": \"Note\",\n  \"recordName\": \"b\", \"fields\": {}}", "2:3 (byte 44)", "recordName"),
        ("{\"recordName\": \"a\", \"recordType\": \"Note\", \"fields\": {\n\"payload\": {\"value\": \"AAAA\", \"type\": \"BYTES\"},\n\"payload\": {\"value\": \"AAAA\", \"type\": \"BYTES\"}}}", "3:1 (byte 101)", "payload"),
    ])
    func duplicateKeysAreRefused(_ json: String, _ position: String, _ key: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.write(json, to: "r.json", in: folder)
        for arguments in [["text", "r.json"], ["merge", "r.json", "r.json", "-o", "out.json"], ["verify", "r.json"]] {
            let result = try CLIHarness.run(arguments, in: folder.url)
            #expect(result.status == (arguments[0] == "verify" ? 1 : 65))
            #expect(result.stderr.hasPrefix("crdtnote: error: r.json: invalid JSON: JSON error at \(position): duplicate key \"\(key)\" in object\n"), "\(result.stderr)")
            #expect(try folder.contents() == ["r.json"])
        }
    }

    // MARK: Trace limits

    @Test func gzipBombIsStoppedAtTheDocumentedLimit() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // About 1 MB of gzip that would inflate to over 1 GiB of spaces.
        let bomb = GzipBomb.spaces(matches: 4_200_000)
        #expect(bomb.count < 1_100_000)
        try Data(bomb).write(to: folder.url.appendingPathComponent("bomb.json.gz"))
        let result = try CLIHarness.run(["replay", "bomb.json.gz"], in: folder.url)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "crdtnote: error: bomb.json.gz: gzip data decompresses to more than the 64 MiB limit for a trace\n")
        // The same under a 512 MiB address-space limit: refused, not killed for lack of memory.
        let executable = try CLIHarness.located.get().path
        let limited = try Self.shell("ulimit -v 524288 && exec \"$0\" replay bomb.json.gz", executable, in: folder.url)
        #expect(limited.status == 65, "\(limited.stderr)")
        #expect(limited.stderr == result.stderr)
        #expect(try folder.contents() == ["bomb.json.gz"])
    }

    /// Runs `script` with `/bin/sh -c`, `$0` set to `argument`; the exit status and stderr.
    static func shell(_ script: String, _ argument: String, in directory: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, argument]
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
