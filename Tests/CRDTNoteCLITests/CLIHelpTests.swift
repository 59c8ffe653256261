import Foundation
import Testing

@testable import CRDTNote
import CRDTNoteTestSupport
import CRDTNoteTesting
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// End-to-end checks of `--version` and the help pages.
@Suite struct CLIHelpTests {
    static let commands = ["merge", "new", "edit", "style", "text", "show", "verify", "replay", "simulate", "help"]

    @Test func versionPrintsLibraryVersion() throws {
        let result = try CLIHarness.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "crdtnote \(CRDTNoteRelease.version)\n")
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func generalHelpListsCommandsAndExitCodes(_ arguments: [String]) throws {
        let result = try CLIHarness.run(arguments)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        for command in Self.commands {
            #expect(result.stdout.contains("\n  \(command) "), "help does not list \(command)")
        }
        for code in ["0", "1", "64", "65", "66", "70", "73", "75"] {
            #expect(result.stdout.contains("\n  \(code) "), "help does not document exit status \(code)")
        }
        #expect(result.stdout.contains("EX_USAGE"))
        #expect(result.stdout.contains("update crdtnote"))
    }

    @Test(arguments: commands)
    func commandHelpHasSummaryUsageOptionsAndExample(_ command: String) throws {
        let viaHelp = try CLIHarness.run(["help", command])
        let viaFlag = try CLIHarness.run([command, "--help"])
        let viaShort = try CLIHarness.run([command, "-h"])
        for result in [viaHelp, viaFlag, viaShort] {
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
        }
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout == viaShort.stdout)
        let page = viaHelp.stdout
        #expect(page.hasPrefix("crdtnote \(command): "))
        #expect(page.contains("USAGE: crdtnote \(command)"))
        #expect(page.contains("OPTIONS:"))
        #expect(page.contains("-h, --help"))
        #expect(page.contains("EXAMPLES:\n  # "))
        #expect(page.contains("\n  crdtnote \(command)"))
    }

    @Test func mergeHelpShowsBothFormsAndEveryOption() throws {
        let page = try CLIHarness.run(["help", "merge"]).stdout
        #expect(page.contains("crdtnote merge --server S --client C"))
        #expect(page.contains("crdtnote merge R1 R2 [R3 ...]"))
        for option in ["--server S", "--client C", "--ancestor A", "--assets DIR", "-o, --output OUT"] {
            #expect(page.contains(option), "merge help lacks \(option)")
        }
        // Replica ids for plain-text sides are derived by the merger, so there is no option for them.
        #expect(!page.contains("--replica"))
    }

    @Test func helpWinsOverOtherErrorsOnTheSameLine() throws {
        let result = try CLIHarness.run(["merge", "--bogus", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("crdtnote merge: "))
    }

    @Test func helpAfterDoubleDashIsAnArgument() throws {
        let result = try CLIHarness.run(["text", "--", "--help"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("--help: no such file"))
    }
}
