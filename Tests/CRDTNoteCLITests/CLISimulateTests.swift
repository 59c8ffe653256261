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
