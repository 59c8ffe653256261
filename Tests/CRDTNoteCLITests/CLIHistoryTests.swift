import Foundation
import Testing
@testable import CRDTNote
@testable import CRDTNoteCLI

/// `log`, `text --at` and `restore` beyond Docs/CLI.md's examples: bad input is a typed error
/// that writes nothing, a restore merges with a concurrent edit, and restored records keep history.
@Suite struct CLIHistoryTests {
    /// A folder holding `letter.json`, the Docs/examples note with history (replica 7 wrote it
    /// at 09:00 and 09:02 on 2026-11-25, replica 8 edited it at 15:02).
    static func letterFolder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let source = CLIFixtures.repositoryRoot.appendingPathComponent("Docs/examples/letter-history.json")
        try FileManager.default.copyItem(at: source, to: folder.url.appendingPathComponent("letter.json"))
        return folder
    }

    @Test(arguments: [
        (["restore", "letter.json", "--replica", "9"], "missing required option '--at'"),
        (["restore", "letter.json", "--at", "2026-11-25T12:00:00Z"], "missing required option '--replica'"),
        (["restore", "letter.json", "--at", "yesterday", "--replica", "9"], "ISO 8601"),
        (["restore", "letter.json", "--at", "2026-11-25T12:00:00", "--replica", "9"], "with a zone"),
        (["restore", "letter.json", "--at", "2026-11-25T12:00:00Z", "--replica", "9", "--utf16-range", "5:2"], "0 <= A <= B"),
        (["text", "letter.json", "--at", "2026-11-25T12:00:00Z", "--spans"], "without '--spans'"),
        (["log", "letter.json", "--pause", "-1"], "option '--pause'"),
    ] as [([String], String)])
    func badOptionsExit64AndWriteNothing(_ arguments: [String], _ message: String) throws {
        let folder = try Self.letterFolder()
        defer { folder.remove() }
        let before = try Data(contentsOf: folder.url.appendingPathComponent("letter.json"))
        let result = try CLIHarness.run(arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("letter.json")) == before)
    }

    @Test func aRangeBeyondThePastTextExits65AndWritesNothing() throws {
        let folder = try Self.letterFolder()
        defer { folder.remove() }
        let before = try Data(contentsOf: folder.url.appendingPathComponent("letter.json"))
        let result = try CLIHarness.run(["restore", "letter.json", "--at", "2026-11-25T12:00:00Z", "--replica", "9", "--utf16-range", "0:48"],
                                        in: folder.url)
        #expect(result.status == 65)
        #expect(result.stderr.contains("invalidRange"), "\(result.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("letter.json")) == before)
    }

    @Test func aRestoreMergesWithAConcurrentEditAndKeepsTheHistory() throws {
        let folder = try Self.letterFolder()
        defer { folder.remove() }
        let restored = try CLIHarness.run(["restore", "letter.json", "--at", "2026-11-25T12:00:00Z", "--replica", "9", "-o", "restored.json"],
                                          in: folder.url)
        #expect(restored.status == 0, "\(restored.stderr)")
        let edited = try CLIHarness.run(["edit", "letter.json", "--replica", "10", "--utf16-range", "0:0", "-o", "edited.json"],
                                        stdin: Data("Hi! ".utf8), in: folder.url)
        #expect(edited.status == 0, "\(edited.stderr)")
        let merged = try CLIHarness.run(["merge", "restored.json", "edited.json", "-o", "merged.json"], in: folder.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try CLIHarness.run(["text", "merged.json"], in: folder.url).stdout == "Hi! Dear Anna, see you Monday.\nP.S. bring the map.\n")
        // The restored record still answers for the times before it, and logs the restore.
        let past = try CLIHarness.run(["text", "merged.json", "--at", "2026-11-25T15:03:00Z"], in: folder.url)
        #expect(past.stdout == "Dear Anna, see you Tuesday.\n", "\(past.stderr)")
        let log = try CLIHarness.run(["log", "restored.json", "--json"], in: folder.url)
        let entries = try #require(try JSONSerialization.jsonObject(with: log.stdoutData) as? [[String: Any]])
        #expect(entries.map { $0["replica"] as? String } == ["7", "8", "9"])
        #expect(entries.last?["deleted"] as? Int == 4 && entries.last?["inserted"] as? Int == 23)
    }
}
