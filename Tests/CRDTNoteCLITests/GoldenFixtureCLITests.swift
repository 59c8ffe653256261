import Foundation
import Testing

/// The golden fixtures in Tests/Fixtures/golden/ (written by release e04db0a, see the README
/// there) read by the built `crdtnote`: `text` and `show --json` give exactly the committed
/// outputs, and `verify` passes. The commands run inside the fixture folder with bare file
/// names, as the outputs were produced (`show --json` prints the path it was given).
@Suite("Golden fixtures (CLI)")
struct GoldenFixtureCLITests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden")

    static let fixtures = [
        "empty", "ascii", "emoji-crlf", "multi-replica", "merged", "asset-spilled", "legacy-v1-upgraded",
        "clobbered-folded",
    ]

    static func contents(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }

    @Test(arguments: fixtures)
    func textIsExact(_ name: String) throws {
        let result = try CLIHarness.run(["text", "\(name).json"], in: Self.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdoutData == (try Self.contents("\(name).txt")))
    }

    @Test(arguments: fixtures)
    func showJSONIsExact(_ name: String) throws {
        let result = try CLIHarness.run(["show", "--json", "\(name).json"], in: Self.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let expected = try Self.contents("\(name).show.json")
        #expect(result.stdoutData == expected, "got:\n\(result.stdout)\nexpected:\n\(String(decoding: expected, as: UTF8.self))")
    }

    @Test(arguments: fixtures)
    func verifyPasses(_ name: String) throws {
        let result = try CLIHarness.run(["verify", "\(name).json"], in: Self.directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(name).json: ok ("))
    }
}
