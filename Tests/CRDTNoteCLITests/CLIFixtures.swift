import Foundation
import Testing

/// Inputs for the end-to-end tests: the bundled example records, damaged copies of them, and
/// the shared editing traces.
enum CLIFixtures {
    /// The package root (three levels above this file).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Path of a file in Docs/examples.
    static func example(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("Docs/examples/\(name)").path
    }

    /// The text of an example record file.
    static func exampleText(_ name: String) throws -> String {
        try String(contentsOfFile: example(name), encoding: .utf8)
    }

    /// The text the three example records merge to: the client's "oat milk" and "bread", the
    /// server's "apples" (which replaced "eggs", deleted by the server).
    static let mergedExampleText = "Weekend groceries\n- oat milk\n- apples\n- bread\n"

    /// The example server record with its inline payload replaced by `transform(bytes)`,
    /// re-encoded as valid base64.
    static func serverWithPayload(_ transform: (inout [UInt8]) -> Void) throws -> String {
        let json = try exampleText("server.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let fields = try #require(object["fields"] as? [String: Any])
        let payload = try #require(fields["payload"] as? [String: Any])
        let base64 = try #require(payload["value"] as? String)
        var bytes = [UInt8](try #require(Data(base64Encoded: base64)))
        transform(&bytes)
        return json.replacingOccurrences(of: base64, with: Data(bytes).base64EncodedString())
    }

    /// Writes `text` to `name` in `folder`.
    static func write(_ text: String, to name: String, in folder: TemporaryDirectory) throws {
        try Data(text.utf8).write(to: folder.url.appendingPathComponent(name))
    }

    /// Copies example records into `folder` under their own names.
    static func copyExamples(_ names: [String], into folder: TemporaryDirectory) throws {
        for name in names {
            try FileManager.default.copyItem(atPath: example(name), toPath: folder.path(name))
        }
    }
}

extension CLIHarness {
    /// Runs `crdtnote text` on `path` and returns the text, requiring success.
    static func text(of path: String, in directory: URL? = nil, assets: String? = nil) throws -> String {
        let result = try run(["text", path] + (assets.map { ["--assets", $0] } ?? []), in: directory)
        #expect(result.status == 0, "crdtnote text \(path) failed: \(result.stderr)")
        return result.stdout
    }

    /// Runs `crdtnote show --json` on `path` and returns the parsed object, requiring success.
    static func showJSON(_ path: String, in directory: URL? = nil) throws -> [String: Any] {
        let result = try run(["show", path, "--json"], in: directory)
        #expect(result.status == 0, "crdtnote show \(path) failed: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    }
}
