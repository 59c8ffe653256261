import Foundation
import Testing
import CRDTNoteTestSupport

/// Issue 12, item 2, end to end: the 47-byte payload bomb and a 100 MB legacy text asset,
/// with memory measured in the CLI process itself, under `ulimit -v`.
@Suite struct CLILimitsTests {
    /// Virtual memory the CLI gets (KiB). Before the fix the bomb needed over 600 MB.
    static let memoryLimitKiB = 262_144

    /// Runs `crdtnote ARGS` under `ulimit -v` through /bin/sh.
    static func runLimited(_ arguments: [String], in folder: TemporaryDirectory) throws -> CLIResult {
        let executable = try CLIHarness.located.get().path
        let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = "ulimit -v \(memoryLimitKiB) && exec " + quoted.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = folder.url
        let out = folder.url.appendingPathComponent(".stdout")
        let err = folder.url.appendingPathComponent(".stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let outData = try Data(contentsOf: out)
        let errData = try Data(contentsOf: err)
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }

    static func bombRecord() -> String {
        let payload = Data(PayloadBomb.snapshot()).base64EncodedString()
        return #"{"recordName":"bomb","recordType":"Note","fields":{"version":{"value":2,"type":"INT64"},"#
            + #""payload":{"value":"\#(payload)","type":"BYTES"},"text":{"value":"","type":"STRING"}}}"#
    }

    @Test func payloadBombIsReadInBoundedMemoryAndNoUnreadableRecordIsWritten() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try CLIFixtures.write(Self.bombRecord(), to: "bomb.json", in: folder)
        try CLIFixtures.write("hi\n", to: "hi.txt", in: folder)
        // Reading: a range, not 2^26 entries.
        let verify = try Self.runLimited(["verify", "bomb.json"], in: folder)
        #expect(verify.status == 0, "\(verify.stderr)")
        let text = try Self.runLimited(["text", "bomb.json"], in: folder)
        #expect(text.status == 0 && text.stdout.isEmpty, "\(text.stderr)")
        // A merge whose result would pass the element limit is refused, naming the note; nothing written.
        let other = try Self.runLimited(["new", "--replica", "5", "--name", "bomb", "--text", "hi.txt", "-o", "other.json"], in: folder)
        #expect(other.status == 0, "\(other.stderr)")
        let merge = try Self.runLimited(["merge", "bomb.json", "other.json", "-o", "merged.json"], in: folder)
        #expect(merge.status == 65)
        #expect(merge.stderr.contains("limit exceeded") && merge.stderr.contains("'bomb'"), "\(merge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("merged.json")))
        // `edit` in place leaves the readable note as it was.
        let before = try Data(contentsOf: folder.url.appendingPathComponent("bomb.json"))
        let edit = try Self.runLimited(["edit", "bomb.json", "--replica", "7", "--text", "hi.txt"], in: folder)
        #expect(edit.status == 65)
        #expect(edit.stderr.contains("bomb.json") && edit.stderr.contains("limit"), "\(edit.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("bomb.json")) == before)
        // Only what `new` wrote: other.json and its text mirror's asset file.
        #expect(try folder.contents().filter { !$0.hasPrefix(".") && !$0.hasPrefix("text-") } == ["bomb.json", "hi.txt", "other.json"])
        #expect(try folder.contents().filter { $0.hasPrefix("text-") }.count == 1)
    }

    @Test func hugeLegacyTextAssetIsRefusedBeforeItIsRead() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // A sparse 100 MB file: reading it would need 100 MB; its size alone refuses it.
        let asset = folder.path("big.txt")
        _ = FileManager.default.createFile(atPath: asset, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: asset))
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
        try CLIFixtures.write(#"{"recordName":"big","recordType":"Note","fields":{"version":{"value":1,"type":"INT64"},"#
            + #""text":{"value":{"size":100000000,"downloadURL":"big.txt"},"type":"ASSET"}}}"#, to: "big.json", in: folder)
        let start = Date()
        let text = try Self.runLimited(["text", "big.json"], in: folder)
        #expect(text.status == 65, "\(text.stderr)")
        #expect(text.stderr.contains("too large"), "\(text.stderr)")
        #expect(Date().timeIntervalSince(start) < 5)
    }
}
