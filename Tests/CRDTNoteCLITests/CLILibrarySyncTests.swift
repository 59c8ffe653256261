import CRDTNoteTestSupport
import Foundation
import Testing

/// `crdtnote library sync DIR --server SERVERDIR`: libraries synced through a server folder by
/// separate processes, the JSON report, deletes, and (Tests/Scripts/library_sync_kill_test.py,
/// a small size of the run in Docs/BENCHMARKS.md) processes killed mid-sync.
@Suite struct CLILibrarySyncTests {
    func run(_ arguments: [String]) throws -> CLIResult {
        try CLIHarness.run(arguments)
    }

    func report(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result.stdout)")
    }

    @Test func twoLibrariesConvergeThroughAServerFolder() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let a = scratch.path("a"), b = scratch.path("b"), server = scratch.path("server")
        #expect(try run(["library", "init", a]).status == 0)
        #expect(try run(["library", "init", b]).status == 0)
        #expect(try run(["library", "append", a, "groceries", "milk"]).status == 0)
        let first = try report(try run(["library", "sync", a, "--server", server, "--json"]))
        #expect(first["saved"] as? Int == 1)
        #expect(first["fetched"] as? Int == 0)
        let second = try report(try run(["library", "sync", b, "--server", server, "--json"]))
        #expect(second["fetched"] as? Int == 1)
        #expect(second["changedNotes"] as? [String] == ["groceries"])
        #expect((second["failedNotes"] as? [String: Any])?.isEmpty == true)

        // Both edit offline, then sync: the second save conflicts and is merged.
        #expect(try run(["library", "append", a, "groceries", ", bread"]).status == 0)
        #expect(try run(["library", "append", b, "groceries", ", eggs"]).status == 0)
        #expect(try run(["library", "sync", a, "--server", server]).status == 0)
        let merged = try report(try run(["library", "sync", b, "--server", server, "--json"]))
        #expect(merged["saved"] as? Int == 1)
        #expect(try run(["library", "sync", a, "--server", server]).status == 0)
        let textA = try run(["library", "text", a, "groceries"]).stdout
        #expect(textA == (try run(["library", "text", b, "groceries"]).stdout))
        #expect(textA.contains(", bread") && textA.contains(", eggs") && textA.hasPrefix("milk"))
        let listed = try #require(try JSONSerialization.jsonObject(with: try run(["library", "list", a, "--json"]).stdoutData) as? [[String: Any]])
        #expect(listed.first?["unsaved"] as? Bool == false)

        // A delete travels too.
        #expect(try run(["library", "delete", b, "groceries"]).status == 0)
        let deleted = try report(try run(["library", "sync", b, "--server", server, "--json"]))
        #expect(deleted["deleted"] as? Int == 1)
        #expect(try run(["library", "sync", a, "--server", server]).status == 0)
        #expect(try run(["library", "text", a, "groceries"]).status == 1)
    }

    @Test func syncNeedsAServer() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let a = scratch.path("a")
        #expect(try run(["library", "init", a]).status == 0)
        let result = try run(["library", "sync", a])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--server"))
    }

    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: python != nil, "needs python3 to run Tests/Scripts/library_sync_kill_test.py"))
    func killedSyncsAndAppendsConvergeWithNothingLost() throws {
        let crdtnote = try CLIHarness.located.get()
        let result = try CLIHarness.runProcess(
            URL(fileURLWithPath: Self.python ?? "python3"),
            [RepositoryPaths.root + "/Tests/Scripts/library_sync_kill_test.py", "--crdtnote", crdtnote.path,
             "--steps", "60", "--seed", "5"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("every acknowledged append present exactly once everywhere"), "\(result.stdout)")
        #expect(result.stdout.contains("every acknowledged deletion gone everywhere"), "\(result.stdout)")
    }
}
