import Foundation
import Testing

/// End-to-end checks that bad command lines exit 64, explain themselves and write nothing.
@Suite struct CLIUsageErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// Text the error line must contain.
        var message: String
        /// The command named in the hint; nil for the general help.
        var hint: String?
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: [], message: "missing command", hint: nil),
        Case(arguments: ["frobnicate"], message: "unknown command 'frobnicate'", hint: nil),
        Case(arguments: ["--frob"], message: "unknown option '--frob'", hint: nil),
        Case(arguments: ["help", "frobnicate"], message: "unknown command 'frobnicate'", hint: nil),
        Case(arguments: ["--version", "x"], message: "'--version' takes no arguments", hint: nil),
        Case(arguments: ["show", "r.json", "--frob"], message: "unknown option '--frob'", hint: "show"),
        Case(arguments: ["show", "r.json", "--json=yes"], message: "'--json' takes no value", hint: "show"),
        Case(arguments: ["text", "r.json", "--assets"], message: "option '--assets' needs a value", hint: "text"),
        Case(arguments: ["merge", "--server", "--client", "c.json"],
             message: "option '--server' needs a value", hint: "merge"),
        Case(arguments: ["merge", "a.json", "b.json", "--server", "s.json", "--client", "c.json"],
             message: "not both", hint: "merge"),
        Case(arguments: ["merge", "--server", "s.json"], message: "--server requires --client", hint: "merge"),
        Case(arguments: ["merge", "--client=c.json"], message: "--client requires --server", hint: "merge"),
        Case(arguments: ["merge", "a.json"], message: "at least two records", hint: "merge"),
        Case(arguments: ["merge"], message: "missing records", hint: "merge"),
        Case(arguments: ["merge", "-o", "x", "-o", "y", "a", "b"], message: "'--output' given more than once",
             hint: "merge"),
        Case(arguments: ["new", "--replica", "abc"], message: "option '--replica' needs a replica ID", hint: "new"),
        Case(arguments: ["new", "--replica", "-1"], message: "option '--replica' needs a replica ID", hint: "new"),
        Case(arguments: ["new", "--replica=18446744073709551616"], message: "'--replica'", hint: "new"),
        Case(arguments: ["new", "--replica", "0x"], message: "'--replica'", hint: "new"),
        Case(arguments: ["new"], message: "missing required option '--replica'", hint: "new"),
        Case(arguments: ["new", "--replica", "1", "--name", "caf\u{E9}"], message: "'--name'", hint: "new"),
        Case(arguments: ["edit", "--replica", "1"], message: "missing RECORD", hint: "edit"),
        Case(arguments: ["edit", "a.json", "b.json", "--replica", "1"], message: "unexpected argument 'b.json'",
             hint: "edit"),
        Case(arguments: ["edit", "-", "--replica", "1"], message: "needs -o", hint: "edit"),
        Case(arguments: ["verify"], message: "missing RECORD", hint: "verify"),
        Case(arguments: ["replay", "t.json", "--runs", "0"], message: "'--runs' must be between 1 and", hint: "replay"),
        Case(arguments: ["replay", "t.json", "--runs", "many"], message: "'--runs' needs a whole number",
             hint: "replay"),
        Case(arguments: simulate(faultRate: "1.5"), message: "'--fault-rate' must be between 0.0 and 1.0",
             hint: "simulate"),
        Case(arguments: simulate(faultRate: "-0.1"), message: "'--fault-rate' must be between", hint: "simulate"),
        Case(arguments: simulate(faultRate: "nan"), message: "'--fault-rate' needs a number", hint: "simulate"),
        Case(arguments: simulate(devices: "0"), message: "'--devices' must be between 1 and", hint: "simulate"),
        Case(arguments: simulate(seed: "-3"), message: "'--seed' needs a number", hint: "simulate"),
        Case(arguments: ["simulate", "--devices", "2"], message: "missing required option '--notes'",
             hint: "simulate"),
    ]

    static func simulate(devices: String = "2", faultRate: String = "0.1", seed: String = "7") -> [String] {
        ["simulate", "--devices", devices, "--notes", "1", "--edits", "10", "--fault-rate", faultRate, "--seed", seed]
    }

    @Test(arguments: cases)
    func usageErrorExits64WithHintAndWritesNothing(_ testCase: Case) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try CLIHarness.run(testCase.arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("crdtnote: error: ") == true)
        #expect(result.stderr.contains(testCase.message), "stderr was: \(result.stderr)")
        let help = testCase.hint.map { "crdtnote help \($0)" } ?? "crdtnote help"
        #expect(lines.count > 1 && lines[1] == "crdtnote: see '\(help)'", "stderr was: \(result.stderr)")
        #expect(try folder.contents().isEmpty)
    }
}
