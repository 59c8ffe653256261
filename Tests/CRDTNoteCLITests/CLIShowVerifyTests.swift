import Foundation
import Testing

/// End-to-end checks of `show` and `verify`.
@Suite struct CLIShowVerifyTests {
    @Test func showDescribesTheServerExample() throws {
        let result = try CLIHarness.run(["show", CLIFixtures.example("server.json")])
        #expect(result.status == 0)
        let expectedLines = [
            "record:           B3F1C2D4-5E6F-4A7B-8C9D-0E1F2A3B4C5D",
            "type:             Note",
            "change tag:       lxq7",
            "zone:             Notes",
            "schema version:   2",
            "read from:        CRDT payload",
            "payload:          inline (field payload), ",
            "text:             34 scalars, 34 UTF-16 units, 34 UTF-8 bytes (field text: inline)",
            "modified field:   2026-11-21T13:05:00.000Z",
        ]
        for line in expectedLines {
            #expect(result.stdout.contains(line), "show lacks '\(line)':\n\(result.stdout)")
        }
        #expect(result.stdout.contains("format 1, minimum reader 1"))
    }

    @Test func showJSONHasStableKeysInOrder() throws {
        let result = try CLIHarness.run(["show", "--json", CLIFixtures.example("server.json")])
        #expect(result.status == 0)
        let keys = [
            "file", "recordName", "recordType", "recordChangeTag", "zoneName", "deleted", "schemaVersion", "origin",
            "payloads", "text", "runs", "replicas", "clock", "modifiedField",
        ]
        var position = result.stdout.startIndex
        for key in keys {
            let range = try #require(result.stdout.range(of: "\n  \"\(key)\": ", range: position..<result.stdout.endIndex),
                                     "key \(key) missing or out of order")
            position = range.upperBound
        }
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let payloads = try #require(object["payloads"] as? [[String: Any]])
        #expect(payloads.count == 1)
        #expect(payloads.first?["storage"] as? String == "inline")
        #expect(payloads.first?["minimumReaderVersion"] as? Int == 1)
        let clock = try #require(object["clock"] as? [String: Any])
        #expect((clock["latest"] as? String)?.hasSuffix("Z") == true)
        let replicas = try #require(object["replicas"] as? [[String: Any]])
        #expect(!replicas.isEmpty)
        #expect(replicas.allSatisfy { UInt64($0["replica"] as? String ?? "") != nil })
    }

    @Test func showOfLegacyRecord() throws {
        let object = try CLIHarness.showJSON(CLIFixtures.example("legacy-v1.json"))
        #expect(object["schemaVersion"] as? Int == 1)
        #expect(object["origin"] as? String == "legacyText")
        #expect((object["payloads"] as? [Any])?.isEmpty == true)
    }

    @Test func verifyPassesTheExamples() throws {
        let names = ["ancestor.json", "client.json", "server.json", "legacy-v1.json"]
        let result = try CLIHarness.run(["verify"] + names.map(CLIFixtures.example))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.contains(": ok (") })
    }

    @Test func verifyReportsEveryBadFileAndExits1() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.copyExamples(["server.json"], into: folder)
        try CLIFixtures.write(try CLIFixtures.serverWithPayload { $0[$0.count - 3] ^= 0x40 }, to: "flipped.json", in: folder)
        try CLIFixtures.write("[1, 2", to: "broken.json", in: folder)
        let result = try CLIHarness.run(["verify", "flipped.json", "server.json", "broken.json", "gone.json"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stdout == "server.json: ok (schema 2, 34 scalars)\n")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("crdtnote: error: flipped.json: fields.payload.value: corrupt payload: checksumMismatch"))
        #expect(lines[1].hasPrefix("crdtnote: error: broken.json: invalid JSON"))
        #expect(lines[2] == "crdtnote: error: gone.json: no such file")
        #expect(lines[3] == "crdtnote: error: 3 of 4 records failed verification")
    }

    @Test func verifyExits75WhenTheOnlyProblemIsANewerVersion() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.copyExamples(["client.json"], into: folder)
        try CLIFixtures.write(try CLIFixtures.serverWithPayload { $0[6] = 9 }, to: "newer.json", in: folder)
        let result = try CLIHarness.run(["verify", "client.json", "newer.json"], in: folder.url)
        #expect(result.status == 75)
        #expect(result.stderr.contains("newer.json: fields.payload.value: newer version available"))
        #expect(result.stderr.contains("reader version 9"))
        #expect(result.stderr.contains("update crdtnote"))
    }
}

/// A v2 record whose `text` mirror an older app rewrote: read as payload plus that change.
@Suite struct CLIFoldedMirrorTests {
    @Test func showAndVerifyReportTheFoldedChange() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let clobbered = try CLIFixtures.exampleText("server.json")
            .replacingOccurrences(of: "- apples\\n\"", with: "- apples\\n- pears\\n\"")
        try CLIFixtures.write(clobbered, to: "r.json", in: folder)
        #expect(try CLIHarness.text(of: "r.json", in: folder.url) == "Weekend groceries\n- milk\n- apples\n- pears\n")
        #expect(try CLIHarness.showJSON("r.json", in: folder.url)["origin"] as? String == "payloadWithFoldedText")
        let verify = try CLIHarness.run(["verify", "r.json"], in: folder.url)
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("text mirror changed by an older app"))
    }
}
