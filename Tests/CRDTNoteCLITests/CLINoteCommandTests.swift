import Foundation
import Testing
import CRDTNote
import CRDTNoteSupport

/// End-to-end checks of `new`, `edit` and `text`: records made from text and edited by replicas.
@Suite struct CLINoteCommandTests {
    /// Emoji (astral plane, with a skin-tone modifier), a combining mark, CRLF and no final newline.
    static let tricky = "Caf\u{65}\u{301} 👋🏽\r\nsecond line\r\n🇫🇷 end"

    @Test func newEditTextRoundTripKeepsBytesExactly() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let created = try CLIHarness.run(
            ["new", "--replica", "7", "--name", "note-1", "-o", "n.json"], stdin: Data(Self.tricky.utf8), in: folder.url)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.isEmpty)
        let text = try CLIHarness.run(["text", "n.json"], in: folder.url)
        #expect(text.stdoutData == Data(Self.tricky.utf8))

        let edited = Self.tricky.replacingOccurrences(of: "second", with: "2nd 🎉") + "\r\n"
        try CLIFixtures.write(edited, to: "new.txt", in: folder)
        let edit = try CLIHarness.run(["edit", "n.json", "--replica", "0x2a", "--text", "new.txt"], in: folder.url)
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try CLIHarness.run(["text", "n.json"], in: folder.url).stdoutData == Data(edited.utf8))
        // Beside the record: the text mirror's asset file (ASSET, the default type) of the text now
        // written — the edit in place removed the one it replaced — and nothing else.
        let mirrors = [edited].map { "text-\(FNV1a64.hex(Array($0.utf8))).bin" }
        #expect(try folder.contents() == (["n.json", "new.txt"] + mirrors).sorted())

        let shown = try CLIHarness.showJSON("n.json", in: folder.url)
        #expect(shown["recordName"] as? String == "note-1")
        let replicas = try #require(shown["replicas"] as? [[String: Any]])
        #expect(replicas.compactMap { $0["replica"] as? String } == ["7", "42"])
        let textInfo = try #require(shown["text"] as? [String: Any])
        #expect(textInfo["scalars"] as? Int == edited.unicodeScalars.count)
        #expect(textInfo["utf16"] as? Int == edited.utf16.count)
        #expect(textInfo["utf8"] as? Int == edited.utf8.count)
    }

    /// `--format` picks the snapshot format of `new`, `edit` and `merge`; without it `new` writes
    /// format 1, `edit` keeps its input's, `merge` writes the newest among its inputs.
    @Test func formatOptionSelectsTheSnapshotFormat() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        func versions(_ file: String) throws -> [Int] {
            let shown = try CLIHarness.showJSON(file, in: folder.url)
            let payload = try #require((shown["payloads"] as? [[String: Any]])?.first)
            return [payload["formatVersion"] as? Int ?? -1, payload["minimumReaderVersion"] as? Int ?? -1]
        }
        #expect(try CLIHarness.run(["new", "--replica", "1", "--name", "f", "-o", "one.json"], stdin: Data("a".utf8), in: folder.url).status == 0)
        #expect(try versions("one.json") == [1, 1])
        #expect(try CLIHarness.run(["new", "--replica", "1", "--name", "f", "--format", "2", "-o", "two.json"],
                                   stdin: Data(Self.tricky.utf8), in: folder.url).status == 0)
        #expect(try versions("two.json") == [2, 2])
        #expect(try CLIHarness.text(of: "two.json", in: folder.url) == Self.tricky)
        #expect(try CLIHarness.run(["edit", "two.json", "--replica", "2", "-o", "edited.json"], stdin: Data("b".utf8), in: folder.url).status == 0)
        #expect(try versions("edited.json") == [2, 2], "edit keeps its input's format")
        #expect(try CLIHarness.run(["edit", "two.json", "--replica", "2", "--format", "1", "-o", "down.json"], stdin: Data("c".utf8), in: folder.url).status == 0)
        #expect(try versions("down.json") == [1, 1], "unless told")
        #expect(try CLIHarness.run(["merge", "one.json", "two.json", "-o", "merged.json"], in: folder.url).status == 0)
        #expect(try versions("merged.json") == [2, 2], "merge writes the newest format among its inputs")
        #expect(try CLIHarness.run(["merge", "one.json", "down.json", "-o", "merged1.json"], in: folder.url).status == 0)
        #expect(try versions("merged1.json") == [1, 1])
        let bad = try CLIHarness.run(["new", "--replica", "1", "--format", "4"], stdin: Data("a".utf8), in: folder.url)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("option '--format' must be 1, 2, 3 or 6, got '4'"), "\(bad.stderr)")
    }

    @Test func newWithoutNameUsesAUUIDAndWritesToStandardOutput() throws {
        // With standard output, the text mirror's asset file goes to the current directory.
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try CLIHarness.run(["new", "--replica", "1"], stdin: Data("hello".utf8), in: folder.url)
        #expect(result.status == 0)
        #expect(try folder.contents() == ["text-\(FNV1a64.hex(Array("hello".utf8))).bin"])
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let name = try #require(object["recordName"] as? String)
        #expect(UUID(uuidString: name) != nil, "record name \(name) is not a UUID")
        #expect(object["recordType"] as? String == "Note")
    }

    @Test func editOfLegacyRecordUpgradesItToVersion2() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.copyExamples(["legacy-v1.json"], into: folder)
        let before = try CLIHarness.text(of: "legacy-v1.json", in: folder.url)
        let after = before + "- tea\n"
        let result = try CLIHarness.run(
            ["edit", "legacy-v1.json", "--replica", "9", "-o", "upgraded.json"], stdin: Data(after.utf8), in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try CLIHarness.text(of: "upgraded.json", in: folder.url) == after)
        let shown = try CLIHarness.showJSON("upgraded.json", in: folder.url)
        #expect(shown["schemaVersion"] as? Int == 2)
        #expect(shown["origin"] as? String == "payload")
        #expect(shown["recordChangeTag"] as? String == "lxq9")
        // The original is untouched when -o is given.
        let original = try CLIHarness.showJSON("legacy-v1.json", in: folder.url)
        #expect(original["schemaVersion"] as? Int == 1)
        #expect(original["origin"] as? String == "legacyText")
        // Replica 9 inserted exactly the new line; the legacy text came from a derived replica.
        let replicas = try #require(shown["replicas"] as? [[String: Any]])
        #expect(replicas.first { $0["replica"] as? String == "9" }?["inserted"] as? Int == 6)
    }

    @Test func largeTextGoesToAssetFilesBesideTheOutputAndReadsBack() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("out"), withIntermediateDirectories: false)
        let text = String(repeating: "a line of a long note ✓\n", count: 12_000)
        let result = try CLIHarness.run(["new", "--replica", "3", "--name", "long", "-o", "out/long.json"],
                                        stdin: Data(text.utf8), in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).sorted()
        #expect(files.count == 2)
        #expect(files.first == "long.json")
        #expect(files.last?.hasPrefix("text-") == true && files.last?.hasSuffix(".bin") == true)
        #expect(try CLIHarness.text(of: "out/long.json", in: folder.url) == text)

        // Edited and written elsewhere: the assets follow the record.
        let edit = try CLIHarness.run(["edit", "out/long.json", "--replica", "4", "-o", "copy.json"],
                                      stdin: Data((text + "more\n").utf8), in: folder.url)
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try CLIHarness.text(of: "copy.json", in: folder.url) == text + "more\n")
        #expect(try folder.contents().contains { $0.hasPrefix("text-") })
    }

    @Test func assetsOfARecordOnStandardOutputGoToTheAssetsFolder() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let text = String(repeating: "0123456789abcdef\n", count: 14_000)
        let created = try CLIHarness.run(["new", "--replica", "3", "--name", "long", "-o", "long.json"],
                                         stdin: Data(text.utf8), in: folder.url)
        #expect(created.status == 0)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("assets"), withIntermediateDirectories: false)
        let merged = try CLIHarness.run(["merge", "long.json", "long.json", "--assets", "assets"], in: folder.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        let assetFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path("assets"))
        #expect(assetFiles.count == 1 && assetFiles.first?.hasPrefix("text-") == true)
        // Read back from elsewhere, the asset is found in --assets by crdtnote's own file name.
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("elsewhere"), withIntermediateDirectories: false)
        try merged.stdoutData.write(to: folder.url.appendingPathComponent("elsewhere/m.json"))
        let missing = try CLIHarness.run(["text", "elsewhere/m.json"], in: folder.url)
        #expect(missing.status == 66)
        #expect(try CLIHarness.text(of: "elsewhere/m.json", in: folder.url, assets: "assets") == text)
    }

    @Test func newOnStandardOutputPutsAssetsInTheCurrentDirectory() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let text = String(repeating: "x", count: 200_000)
        let result = try CLIHarness.run(["new", "--replica", "1", "--name", "big"], stdin: Data(text.utf8), in: folder.url)
        #expect(result.status == 0)
        let files = try folder.contents()
        #expect(files.count == 1 && files.first?.hasPrefix("text-") == true)
        try result.stdoutData.write(to: folder.url.appendingPathComponent("big.json"))
        #expect(try CLIHarness.text(of: "big.json", in: folder.url) == text)
    }

    @Test func textPrintsNoTrailingNewline() throws {
        let result = try CLIHarness.run(["text", CLIFixtures.example("server.json")])
        #expect(result.stdout == "Weekend groceries\n- milk\n- apples\n")
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let bare = try CLIHarness.run(["new", "--replica", "1", "--name", "x"], stdin: Data("no newline".utf8), in: folder.url)
        let text = try CLIHarness.run(["text", "-"], stdin: bare.stdoutData, in: folder.url)
        #expect(text.stdout == "no newline")
    }

    @Test func invalidUTF8TextIsRefusedWithItsOffset() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try CLIHarness.run(["new", "--replica", "1", "-o", "n.json"],
                                        stdin: Data([0x61, 0x62, 0xFF, 0x63]), in: folder.url)
        #expect(result.status == 65)
        #expect(result.stderr == "crdtnote: error: <stdin>: byte 2: text is not valid UTF-8\n")
        #expect(try folder.contents().isEmpty)
    }

    @Test func editWithoutChangeKeepsTheText() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.copyExamples(["server.json"], into: folder)
        let same = try CLIHarness.text(of: "server.json", in: folder.url)
        let result = try CLIHarness.run(["edit", "server.json", "--replica", "5"], stdin: Data(same.utf8), in: folder.url)
        #expect(result.status == 0)
        #expect(try CLIHarness.text(of: "server.json", in: folder.url) == same)
    }
}
