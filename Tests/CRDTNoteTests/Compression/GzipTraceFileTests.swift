import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

@Suite struct GzipTraceFileTests {
    @Test(.enabled(if: SharedTraces.directory != nil, "editing traces not found (set CRDTNOTE_TRACES to the traces folder)"),
          arguments: ["automerge-paper.json.gz", "seph-blog1.json.gz", "clownschool.concurrent.json.gz"])
    func decompressesRealTraceFiles(_ name: String) throws {
        let path = try #require(SharedTraces.path(name), "\(name) is not installed")
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
