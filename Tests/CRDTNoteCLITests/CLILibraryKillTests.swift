import Foundation
import Testing
import CRDTNoteTestSupport

/// Real `crdtnote library append` processes, and `library edit`s removing tokens, killed with
/// SIGKILL at random moments, one or two at a time (Tests/Scripts/library_kill_test.py; the full
/// run of 500 attempts is in Docs/LIBRARY.md): every acknowledged append is present exactly
/// once (none after an acknowledged removal), none twice, `library verify` passes, and the
/// note's history counts exactly the removed characters as deleted.
@Suite struct CLILibraryKillTests {
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: python != nil, "needs python3 to run Tests/Scripts/library_kill_test.py"))
    func killedAppendsLoseNothingAcknowledged() throws {
        let crdtnote = try CLIHarness.located.get()
        let result = try CLIHarness.runProcess(
            URL(fileURLWithPath: Self.python ?? "python3"),
            [RepositoryPaths.root + "/Tests/Scripts/library_kill_test.py", "--crdtnote", crdtnote.path,
             "--attempts", "40", "--seed", "7"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("every acknowledged append present exactly once"), "\(result.stdout)")
    }
}
