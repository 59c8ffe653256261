import Foundation
import Testing
@testable import CRDTNoteCLI
import CRDTNote
import CRDTNoteFiles
import CRDTNoteTestSupport

/// Issue 29, items 4 and 5: what `edit` writes must read back under the limits readers apply
/// (`CloudRecord.maximumJSONBytes`), an in-place `edit` removes the asset files it replaced, and
/// `simulate` refuses sizes beyond its documented bounds.
@Suite struct CLIWrittenRecordsTests {
    /// A note record with an app field nested 500 levels deep around `count` zeros: a few hundred
    /// KB compact, but over 64 MiB indented (each zero on a line of 1,000 spaces).
    static func deepRecord(count: Int) -> String {
        let open = String(repeating: "[", count: 500)
        let close = String(repeating: "]", count: 500)
        let zeros = Array(repeating: "0", count: count).joined(separator: ",")
        return #"{"recordName":"deep","recordType":"Note","fields":{"version":{"value":1,"type":"INT64"},"text":{"value":"hello","type":"STRING"},"shape":{"value":"# + open + zeros + close + #","type":"UNKNOWN_APP_TYPE"}}}"#
    }

    @Test func anEditInPlaceWhoseIndentedJSONWouldBeTooLargeIsWrittenCompactlyAndReadsBack() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let record = folder.url.appendingPathComponent("deep.json")
        let original = Data(Self.deepRecord(count: 70_000).utf8)
        try original.write(to: record)
        #expect(try CLIHarness.run(["verify", record.path]).status == 0)
        let edit = try CLIHarness.run(["edit", record.path, "--replica", "7"], stdin: Data("hello, world".utf8))
        #expect(edit.status == 0, "\(edit.stderr)")
        let written = try Data(contentsOf: record)
        #expect(written.count <= CloudRecord.maximumJSONBytes, "\(written.count) bytes written")
        // Every reader takes it again: verify, text, and a second edit in place.
        let verify = try CLIHarness.run(["verify", record.path])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(try CLIHarness.run(["text", record.path]).stdout == "hello, world")
        let again = try CLIHarness.run(["edit", record.path, "--replica", "7"], stdin: Data("hello again".utf8))
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try CLIHarness.run(["text", record.path]).stdout == "hello again")
        // The app field came through unchanged.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
        let fields = try #require(json["fields"] as? [String: Any])
        var shape: Any? = (fields["shape"] as? [String: Any])?["value"]
        for _ in 0..<500 { shape = (shape as? [Any])?.count == 1 && ((shape as? [Any])?.first is [Any]) ? (shape as? [Any])?.first : shape }
        #expect((shape as? [Any])?.count == 70_000)
    }

    @Test func aRecordOverTheLimitEvenCompactIsRefusedAndNothingIsWritten() throws {
        let record = try NoteRecord(recordName: "small", note: NoteText(replica: ReplicaID(rawValue: 1)))
        let compact = record.record.jsonBytes(pretty: false).count
        // Within the limit indented: indented. Over it indented but not compact: compact.
        #expect(try RecordOutput.json(of: record, for: .standardOutput, limit: 1 << 20) == record.record.jsonBytes(pretty: true))
        #expect(try RecordOutput.json(of: record, for: .standardOutput, limit: compact) == record.record.jsonBytes(pretty: false))
        do {
            _ = try RecordOutput.json(of: record, for: .file("out.json"), limit: compact - 1)
            Issue.record("a record over the limit was accepted")
        } catch {
            #expect(error.code == .dataError)
            #expect(error.message.hasPrefix("limit exceeded: record 'small'"), "\(error.message)")
            #expect(error.file == "out.json")
        }
    }

    @Test func anInPlaceEditRemovesTheAssetFilesItReplacedAndNothingElse() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let record = folder.url.appendingPathComponent("big.json")
        // Over the 512,000-byte inline limit: the payload is an asset, and the text mirror one.
        func text(_ n: Int) -> Data { Data(String(repeating: "line \(n) of a long note\n", count: 30_000).utf8) }
        let created = try CLIHarness.run(["new", "--replica", "3", "--name", "big", "-o", record.path], stdin: text(0))
        #expect(created.status == 0, "\(created.stderr)")
        // Files that are not this record's assets: another note's, a look-alike, an unrelated one.
        let bystanders = ["payloadAsset-0123456789abcdef.bin", "text-0123456789abcdef.bin", "notes.txt"]
        for name in bystanders { try Data("keep".utf8).write(to: folder.url.appendingPathComponent(name)) }
        for n in 1...3 {
            let edit = try CLIHarness.run(["edit", record.path, "--replica", "3"], stdin: text(n))
            #expect(edit.status == 0, "\(edit.stderr)")
        }
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
        let fields = try #require(json["fields"] as? [String: Any])
        var referenced: Set<String> = []
        for field in ["payloadAsset", "text"] {
            let value = (fields[field] as? [String: Any])?["value"] as? [String: Any]
            if let url = value?["downloadURL"] as? String { referenced.insert(url) }
        }
        #expect(referenced.count == 2)
        #expect(files == referenced.union(bystanders).union(["big.json"]), "\(files.sorted())")
        #expect(try CLIHarness.run(["text", record.path]).stdoutData == text(3))
        // With -o elsewhere the input's assets stay: they are still the input's.
        let copy = folder.url.appendingPathComponent("copy.json")
        #expect(try CLIHarness.run(["edit", record.path, "--replica", "3", "-o", copy.path], stdin: text(4)).status == 0)
        #expect(try CLIHarness.run(["text", record.path]).stdoutData == text(3))
    }

    @Test(arguments: [
        ["--devices", "1000", "--notes", "100000", "--edits", "1"],
        ["--devices", "1", "--notes", "1", "--edits", "100000000"],
    ])
    func simulateRefusesSizesBeyondItsBounds(_ sizes: [String]) throws {
        let result = try CLIHarness.run(["simulate"] + sizes + ["--fault-rate", "0", "--seed", "1"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
