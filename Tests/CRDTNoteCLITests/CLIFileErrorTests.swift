import Foundation
import Testing

/// End-to-end checks of missing inputs (66) and unwritable outputs (73).
@Suite struct CLIFileErrorTests {
    @Test func missingRecordExits66NamingTheFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try CLIHarness.run(["text", "missing.json"], in: folder.url)
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "crdtnote: error: missing.json: no such file\n")
    }

    @Test func directoryGivenAsRecordExits66() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try CLIHarness.run(["show", folder.url.path])
        #expect(result.status == 66)
        #expect(result.stderr.contains("is a directory"))
    }

    @Test func missingMergeSideExits66() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Data("{}".utf8).write(to: folder.url.appendingPathComponent("server.json"))
        let result = try CLIHarness.run(
            ["merge", "--server", "server.json", "--client", "client.json", "-o", "out.json"], in: folder.url)
        #expect(result.status == 66)
        #expect(result.stderr.contains("client.json: no such file"))
        #expect(try folder.contents() == ["server.json"])
    }

    @Test func missingAssetsFolderExits66() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Data("{}".utf8).write(to: folder.url.appendingPathComponent("r.json"))
        let result = try CLIHarness.run(["text", "r.json", "--assets", "assets"], in: folder.url)
        #expect(result.status == 66)
        #expect(result.stderr.contains("assets: no such directory"))
    }

    @Test(arguments: ["no-such-dir/out.json", "file.txt/out.json"])
    func outputIntoUnwritableDirectoryExits73AndLeavesNothing(_ output: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Data("hello".utf8).write(to: folder.url.appendingPathComponent("file.txt"))
        let result = try CLIHarness.run(
            ["new", "--replica", "1", "-o", output], stdin: Data("hello".utf8), in: folder.url)
        #expect(result.status == 73)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("crdtnote: error: \(output): "))
        #expect(try folder.contents() == ["file.txt"])
    }

    @Test func outputOntoDirectoryExits73() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("out"), withIntermediateDirectories: false)
        let result = try CLIHarness.run(["new", "--replica", "1", "-o", "out"], in: folder.url)
        #expect(result.status == 73)
        #expect(result.stderr.contains("is a directory"))
        #expect(try folder.contents() == ["out"])
    }
}
