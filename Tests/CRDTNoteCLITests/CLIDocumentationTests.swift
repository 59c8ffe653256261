import Foundation
import Testing
import CRDTNoteTestSupport

/// Runs every example in Docs/CLI.md, so the reference cannot drift from the tool.
///
/// Examples are the `$ ` lines of the ```console blocks, run in order by `/bin/sh` in a scratch
/// copy of the repository root (`Docs` linked in, `../shared/traces` linked when installed).
/// The lines after a command are its expected standard output and error: all of it, or, when
/// the block shows `...`, those lines in that order with anything between. A trailing
/// `# exit N` gives the expected status (default 0).
@Suite struct CLIDocumentationTests {
    struct Example: CustomStringConvertible {
        var command: String
        var expectedStatus: Int32
        var output: [String]
        var description: String { command }
    }

    static func examples() throws -> [Example] {
        let path = CLIFixtures.repositoryRoot.appendingPathComponent("Docs/CLI.md").path
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        var examples: [Example] = []
        var inConsole = false
        for line in lines {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                var command = String(line.dropFirst(2))
                var status: Int32 = 0
                if let marker = command.range(of: "   # exit ") {
                    status = Int32(command[marker.upperBound...].trimmingCharacters(in: .whitespaces)) ?? -1
                    command = String(command[..<marker.lowerBound])
                }
                examples.append(Example(command: command, expectedStatus: status, output: []))
            } else if !examples.isEmpty {
                examples[examples.count - 1].output.append(line)
            }
        }
        return examples
    }

    @Test func everyExampleInCLIReferenceRunsAsShown() throws {
        let executable = try CLIHarness.located.get()
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("repo")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: root, withIntermediateDirectories: false)
        try fileManager.createSymbolicLink(
            at: root.appendingPathComponent("Docs"), withDestinationURL: CLIFixtures.repositoryRoot.appendingPathComponent("Docs"))
        if let traces = SharedTraces.directory {
            try fileManager.createDirectory(at: scratch.url.appendingPathComponent("shared"), withIntermediateDirectories: false)
            try fileManager.createSymbolicLink(
                at: scratch.url.appendingPathComponent("shared/traces"), withDestinationURL: URL(fileURLWithPath: traces))
        }
        let examples = try Self.examples()
        #expect(examples.count >= 15)
        for example in examples {
            if example.command.contains("../shared/traces"), SharedTraces.directory == nil {
                print("skipping example '\(example.command)': shared traces not installed")
                continue
            }
            let (status, output) = try run(example.command, in: root, toolFolder: executable.deletingLastPathComponent().path)
            #expect(status == example.expectedStatus, "\(example.command): status \(status)\n\(output)")
            var expected = example.output
            while expected.last == "" { expected.removeLast() }
            var actual = output.components(separatedBy: "\n")
            if actual.last == "" { actual.removeLast() }
            if expected.contains("...") {
                var position = actual.startIndex
                for line in expected where line != "..." {
                    guard let found = actual[position...].firstIndex(of: line) else {
                        Issue.record("\(example.command): missing or out-of-order line '\(line)' in:\n\(output)")
                        break
                    }
                    position = found + 1
                }
            } else {
                #expect(actual == expected, "\(example.command) printed:\n\(output)")
            }
        }
    }

    /// Runs `command` with `sh -c` in `directory`, the built tool first on `PATH`; returns the
    /// status and standard output and error interleaved.
    private func run(_ command: String, in directory: URL, toolFolder: String) throws -> (Int32, String) {
        let outputURL = directory.deletingLastPathComponent().appendingPathComponent("output.txt")
        try Data().write(to: outputURL)
        let handle = try FileHandle(forWritingTo: outputURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "{ \(command)\n} 2>&1"]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = toolFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: outputURL), as: UTF8.self))
    }
}
