import Foundation
import Testing
@testable import CRDTNote

/// The shared editing traces, found relative to this package (`../shared/traces`) or at `/work/shared/traces`.
let traceDirectory: String? = {
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
        ProcessInfo.processInfo.environment["CRDTNOTE_TRACES"],
        packageRoot.appendingPathComponent("../shared/traces").standardizedFileURL.path,
        packageRoot.appendingPathComponent("../../shared/traces").standardizedFileURL.path,
        "/work/shared/traces",
    ].compactMap { $0 }
    return candidates.first { FileManager.default.fileExists(atPath: $0 + "/automerge-paper.json.gz") }
}()

@Suite struct GzipTraceFileTests {
    @Test(.enabled(if: traceDirectory != nil, "editing traces not found (set CRDTNOTE_TRACES to the traces folder)"),
          arguments: ["automerge-paper.json.gz", "seph-blog1.json.gz", "clownschool.concurrent.json.gz"])
    func decompressesRealTraceFiles(_ name: String) throws {
        let path = try #require(traceDirectory) + "/" + name
        let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
        let bytes = [UInt8](data)
        let n = bytes.count
        let isize = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
        let start = ContinuousClock.now
        let json = try Gzip.decompress(bytes)
        let elapsed = ContinuousClock.now - start
        print("\(name): \(n) -> \(json.count) bytes in \(elapsed)")
        #expect(json.first == UInt8(ascii: "{"))
        #expect(json.count == isize)
        #expect(json.last == UInt8(ascii: "}") || json.last == UInt8(ascii: "\n"))
    }
}
