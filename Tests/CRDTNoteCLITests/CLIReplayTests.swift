import Foundation
import Testing
import CRDTNoteTestSupport

/// End-to-end checks of `crdtnote replay` on small handmade traces and the shared traces.
@Suite struct CLIReplayTests {
    static let sequential = """
        {"startContent": "", "endContent": "héllo 👋 world", "txns": [
          {"time": "2024-01-01T00:00:00Z", "patches": [[0, 0, "hello world"]]},
          {"time": "2024-01-01T00:00:01Z", "patches": [[1, 1, "é"], [6, 0, "👋 "]]}
        ]}
        """

    static let concurrent = """
        {"kind": "concurrent", "endContent": "ab", "numAgents": 2, "txns": [
          {"parents": [], "numChildren": 2, "agent": 0, "time": "t", "patches": []},
          {"parents": [0], "numChildren": 1, "agent": 0, "time": "t", "patches": [[0, 0, "a"]]},
          {"parents": [0], "numChildren": 1, "agent": 1, "time": "t", "patches": [[0, 0, "b"]]},
          {"parents": [1, 2], "numChildren": 0, "agent": 0, "time": "t", "patches": []}
        ]}
        """

    @Test func sequentialTraceFromStandardInputMatches() throws {
        let result = try CLIHarness.run(["replay", "-", "--json", "--runs", "3"], stdin: Data(Self.sequential.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(object["trace"] as? String == "<stdin>")
        #expect(object["kind"] as? String == "sequential")
        #expect(object["transactions"] as? Int == 2)
        #expect(object["patches"] as? Int == 3)
        #expect(object["finalLength"] as? Int == 13)
        #expect(object["match"] as? Bool == true)
        #expect(object["runs"] as? Int == 3)
        #expect((object["medianMilliseconds"] as? Double).map { $0 >= 0 } == true)
    }

    @Test func concurrentTraceTextReport() throws {
        let result = try CLIHarness.run(["replay", "-"], stdin: Data(Self.concurrent.utf8))
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("kind:            concurrent (2 agents)\n"))
        #expect(result.stdout.contains("transactions:    4\n"))
    }

    @Test func mismatchExits1AndSaysWhere() throws {
        let wrong = Self.sequential.replacingOccurrences(of: "\"endContent\": \"héllo", with: "\"endContent\": \"hallo")
        let result = try CLIHarness.run(["replay", "-"], stdin: Data(wrong.utf8))
        #expect(result.status == 1)
        #expect(result.stdout.contains("match:           false\n"))
        #expect(result.stderr == "crdtnote: error: <stdin>: replayed text differs from endContent at scalar 1 (13 scalars, expected 13)\n")
    }

    @Test func invalidTracesExit65() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let cases = [
            ("notjson.json", Data("{\"txns\": ".utf8), "invalid trace"),
            ("outofrange.json", Data(Self.sequential.replacingOccurrences(of: "[6, 0,", with: "[600, 0,").utf8),
             "txns[1].patches[1]"),
            ("badgzip.json.gz", Data([0x1F, 0x8B, 0x08, 0x00, 0x01]), "invalid gzip data"),
        ]
        for (name, bytes, message) in cases {
            try bytes.write(to: folder.url.appendingPathComponent(name))
            let result = try CLIHarness.run(["replay", name], in: folder.url)
            #expect(result.status == 65, "\(name): \(result.stderr)")
            #expect(result.stderr.hasPrefix("crdtnote: error: \(name): "), "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test(.enabled(if: SharedTraces.isInstalled("clownschool.concurrent.json.gz"), "needs ../shared/traces/clownschool.concurrent.json.gz"))
    func sharedConcurrentTraceReproducesItsEndContent() throws {
        let path = try #require(SharedTraces.path("clownschool.concurrent.json.gz"))
        let result = try CLIHarness.run(["replay", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(object["kind"] as? String == "concurrent")
        #expect(object["agents"] as? Int == 3)
        #expect(object["transactions"] as? Int == 23_136)
        #expect(object["finalLength"] as? Int == 21_148)
        #expect(object["match"] as? Bool == true)
    }

    @Test(.enabled(if: SharedTraces.isInstalled("seph-blog1.json.gz"), "needs ../shared/traces/seph-blog1.json.gz"))
    func sharedSequentialTraceReproducesItsEndContent() throws {
        let path = try #require(SharedTraces.path("seph-blog1.json.gz"))
        let result = try CLIHarness.run(["replay", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("transactions:    137154\n"))
        #expect(result.stdout.contains("final length:    56769 scalars\n"))
        #expect(result.stdout.contains("match:           true\n"))
    }
}
