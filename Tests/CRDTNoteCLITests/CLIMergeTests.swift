import Foundation
import Testing

/// End-to-end checks of `crdtnote merge` on the bundled example records.
@Suite struct CLIMergeTests {
    static let conflictArguments = [
        "merge", "--ancestor", CLIFixtures.example("ancestor.json"),
        "--client", CLIFixtures.example("client.json"), "--server", CLIFixtures.example("server.json"),
    ]

    @Test func threeWayMergeOfTheExamplesKeepsBothDevicesEdits() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try CLIHarness.run(Self.conflictArguments + ["-o", "merged.json"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try folder.contents() == ["merged.json"])
        #expect(try CLIHarness.text(of: "merged.json", in: folder.url) == CLIFixtures.mergedExampleText)

        // Built on the server record: its change tag, zone and app fields.
        let merged = try CLIHarness.showJSON("merged.json", in: folder.url)
        #expect(merged["recordChangeTag"] as? String == "lxq7")
        #expect(merged["schemaVersion"] as? Int == 2)
        #expect(merged["origin"] as? String == "payload")
        let json = try String(contentsOfFile: folder.path("merged.json"), encoding: .utf8)
        for field in ["\"title\"", "\"pinned\"", "\"folderColor\"", "\"zoneName\": \"Notes\""] {
            #expect(json.contains(field), "merged record lacks \(field)")
        }
    }

    @Test func standardOutputGetsTheSameRecordAsOutputFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let toFile = try CLIHarness.run(Self.conflictArguments + ["-o", "merged.json"], in: folder.url)
        let toStdout = try CLIHarness.run(Self.conflictArguments, in: folder.url)
        #expect(toFile.status == 0 && toStdout.status == 0)
        #expect(toStdout.stdoutData == (try Data(contentsOf: folder.url.appendingPathComponent("merged.json"))))
        #expect(toStdout.stderr.isEmpty)
    }

    @Test func versionsFormGivesTheSameTextInEitherOrder() throws {
        let client = CLIFixtures.example("client.json")
        let server = CLIFixtures.example("server.json")
        let ancestor = CLIFixtures.example("ancestor.json")
        var texts: Set<String> = []
        for order in [[client, server], [server, client], [server, ancestor, client], [ancestor, client, server]] {
            let folder = try TemporaryDirectory()
            defer { folder.remove() }
            let result = try CLIHarness.run(["merge"] + order + ["-o", "m.json"], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            texts.insert(try CLIHarness.text(of: "m.json", in: folder.url))
        }
        #expect(texts == [CLIFixtures.mergedExampleText])
    }

    /// Issue 11's reproduction: an old plain-text app's version (`- eggs`, `- coffee`) merged
    /// with no ancestor into a version that replaced `eggs` with `apples` keeps both words
    /// whole, in either order (it printed `- appleggs` in release 0.1.0).
    @Test func twoWayMergeWithALegacyVersionKeepsWordsWhole() throws {
        var texts: Set<String> = []
        for order in [["legacy-v1.json", "server.json"], ["server.json", "legacy-v1.json"]] {
            let folder = try TemporaryDirectory()
            defer { folder.remove() }
            let result = try CLIHarness.run(["merge"] + order.map(CLIFixtures.example) + ["-o", "m.json"], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            texts.insert(try CLIHarness.text(of: "m.json", in: folder.url))
        }
        #expect(texts == ["Weekend groceries\n- milk\n- apples eggs\n- coffee\n"])
    }

    @Test func versionsFormIsBuiltOnTheLastRecord() throws {
        let result = try CLIHarness.run(
            ["merge", CLIFixtures.example("server.json"), CLIFixtures.example("client.json")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"recordChangeTag\": \"lxq1\""))
    }

    @Test func legacyV1ClientIsDiffedAgainstTheAncestorAndUpgraded() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try CLIHarness.run([
            "merge", "--ancestor", CLIFixtures.example("ancestor.json"),
            "--client", CLIFixtures.example("legacy-v1.json"), "--server", CLIFixtures.example("server.json"),
            "-o", "m.json",
        ], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        // The v1 side added "coffee"; the server replaced "eggs" by "apples". Both survive.
        #expect(try CLIHarness.text(of: "m.json", in: folder.url) == "Weekend groceries\n- milk\n- apples\n- coffee\n")
        #expect(result.stderr.contains("crdtnote: note: client: legacy text"))
        let merged = try CLIHarness.showJSON("m.json", in: folder.url)
        #expect(merged["schemaVersion"] as? Int == 2)
    }

    @Test func mergingTheSameV1RecordTwiceIsDeterministic() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let arguments = ["merge", CLIFixtures.example("legacy-v1.json"), CLIFixtures.example("server.json")]
        let first = try CLIHarness.run(arguments, in: folder.url)
        let second = try CLIHarness.run(arguments, in: folder.url)
        #expect(first.status == 0)
        #expect(first.stdoutData == second.stdoutData)
    }

    @Test func mergeOfAnUpToDateServerSaysSoAndStillWritesTheRecord() throws {
        let server = CLIFixtures.example("server.json")
        let result = try CLIHarness.run(["merge", "--server", server, "--client", server])
        #expect(result.status == 0)
        #expect(result.stderr.contains("nothing new to save"))
        #expect(result.stdoutData == (try Data(contentsOf: URL(fileURLWithPath: server))))
    }

    @Test func recordsOfDifferentNotesAreRefusedWithStatus1() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let other = try CLIFixtures.exampleText("client.json")
            .replacingOccurrences(of: "B3F1C2D4-5E6F-4A7B-8C9D-0E1F2A3B4C5D", with: "another-note")
        try CLIFixtures.write(other, to: "other.json", in: folder)
        try CLIFixtures.copyExamples(["server.json"], into: folder)
        let result = try CLIHarness.run(["merge", "server.json", "other.json", "-o", "m.json"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("crdtnote: error: other.json: recordName: merge refused"))
        #expect(try folder.contents() == ["other.json", "server.json"])
    }

    @Test func deletedRecordIsRefusedWithStatus1() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let deleted = try CLIFixtures.exampleText("client.json")
            .replacingOccurrences(of: "\"recordType\": \"Note\",", with: "\"recordType\": \"Note\", \"deleted\": true,")
        try CLIFixtures.write(deleted, to: "client.json", in: folder)
        let result = try CLIHarness.run(
            ["merge", "--server", CLIFixtures.example("server.json"), "--client", "client.json", "-o", "m.json"],
            in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("client.json: deleted: merge refused"))
        #expect(try folder.contents() == ["client.json"])
    }

    @Test func newerAncestorMakesTheMergeRefuseWith75() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let newer = try CLIFixtures.exampleText("ancestor.json")
            .replacingOccurrences(of: "\"value\": 2,", with: "\"value\": 4,") // 3: the encrypted layout, read
        try CLIFixtures.write(newer, to: "ancestor.json", in: folder)
        var arguments = Self.conflictArguments
        arguments[2] = "ancestor.json"
        let result = try CLIHarness.run(arguments + ["-o", "m.json"], in: folder.url)
        #expect(result.status == 75)
        #expect(result.stderr.contains("ancestor.json: fields.version.value: newer version available"))
        #expect(result.stderr.contains("update crdtnote"))
        #expect(try folder.contents() == ["ancestor.json"])
    }
}
