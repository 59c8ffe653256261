import Foundation
import Testing

/// End-to-end checks of `crdtnote simulate` (the library's seeded sync simulation).
@Suite struct CLISimulateTests {
    static let arguments = ["simulate", "--devices", "3", "--notes", "4", "--edits", "300", "--fault-rate", "0.2", "--seed", "7"]

    @Test func textReportListsEveryFigureAndConverges() throws {
        let result = try CLIHarness.run(Self.arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let labels = result.stdout.split(separator: "\n").map { $0.split(separator: ":").first.map(String.init) ?? "" }
        #expect(labels == ["devices", "notes", "edits", "conflicts merged", "retries", "faults injected", "lost edits", "converged"])
        #expect(result.stdout.contains("devices: 3\n"))
        #expect(result.stdout.contains("lost edits: 0\n"))
        #expect(result.stdout.hasSuffix("converged: true\n"))
    }

    /// On a terminal (a pseudo-terminal made by util-linux `script`), progress goes to standard
    /// error, rewritten in place, and is cleared before the report.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux script for a pseudo-terminal"))
    func progressLineOnATerminalOnly() throws {
        let tool = try CLIHarness.located.get().path
        let command = ([tool] + Self.arguments).joined(separator: " ")
        let result = try CLIHarness.runProcess(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\r\u{1B}[Kedits 300/300, syncs "))
        #expect(result.stdout.contains("\r\u{1B}[Kdevices: 3"))
    }

    @Test func jsonReportIsOneObjectAndTheSameForTheSameSeed() throws {
        let first = try CLIHarness.run(Self.arguments + ["--json"])
        let second = try CLIHarness.run(Self.arguments + ["--json"])
        #expect(first.status == 0)
        #expect(first.stdoutData == second.stdoutData)
        let object = try #require(try JSONSerialization.jsonObject(with: first.stdoutData) as? [String: Any])
        for key in ["devices", "notes", "edits", "conflictsMerged", "retries", "faultsInjected", "lostEdits", "converged"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["converged"] as? Bool == true)
        #expect(object["lostEdits"] as? Int == 0)
        #expect((object["faultsInjected"] as? Int ?? 0) > 0)
    }

    /// The mixed-fleet run of issue 28: one of four devices reads only format 1 until every
    /// device is updated after 400 edits. No format 2, 3 or 6 record before, format 6 after, nothing lost.
    @Test(arguments: [("0", "0", "3"), ("0.2", "0.05", "1"), ("0.2", "0.05", "4")])
    func mixedFleetsWriteFormatTwoOnlyOnceEveryDeviceReadsIt(faultRate: String, crashRate: String, seed: String) throws {
        let result = try CLIHarness.run(["simulate", "--devices", "4", "--notes", "5", "--edits", "800", "--fault-rate", faultRate,
                                         "--crash-rate", crashRate, "--seed", seed, "--reader-formats", "2,2,2,1",
                                         "--update-at", "400", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let before = try #require(object["recordsByFormatBeforeUpdate"] as? [String: Int])
        let after = try #require(object["recordsByFormatAfterUpdate"] as? [String: Int])
        #expect(before["2"] == nil && before["3"] == nil && before["6"] == nil && (before["1"] ?? 0) > 0, "\(before)")
        // Format 6 (this release's newest) once every device reads it.
        #expect((after["6"] ?? 0) > 0, "\(after)")
        #expect(object["lostEdits"] as? Int == 0)
        #expect(object["converged"] as? Bool == true)
        #expect(object["unreadableRecordsWritten"] as? Int == 0)
    }

    @Test func readerFormatsAreChecked() throws {
        for bad in ["8", "0", "1,x", "2,2,2,2,2"] {
            let result = try CLIHarness.run(["simulate", "--devices", "4", "--notes", "1", "--edits", "1", "--fault-rate", "0",
                                             "--seed", "1", "--reader-formats", bad])
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains("--reader-formats"))
        }
    }

    @Test func anotherSeedGivesAnotherRun() throws {
        var other = Self.arguments
        other[other.count - 1] = "0x2a"
        let first = try CLIHarness.run(Self.arguments + ["--json"])
        let second = try CLIHarness.run(other + ["--json"])
        #expect(second.status == 0)
        #expect(first.stdoutData != second.stdoutData)
    }

    @Test func noFaultsMeansNoneInjected() throws {
        var arguments = Self.arguments
        arguments[8] = "0"
        let result = try CLIHarness.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.contains("faults injected: 0\n"))
        #expect(result.stdout.contains("retries: 0\n"))
    }
}
