import Foundation
import Testing
@testable import CRDTNoteDurableFiles

/// `readBytes(at:offset:count:)` on both file systems: the bytes asked for, fewer at the end of
/// the file, none past it, errors naming the path; on the fault-injecting one, what its model
/// says is on disk (before and after a crash) and a cut power failing it like any read.
@Suite struct RangedReadTests {
    static let contents: [UInt8] = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    /// The same expectations on any file system holding `contents` at `path`.
    static func expectRanges(_ files: any DurableFileSystem, _ path: String) throws {
        #expect(try files.readBytes(at: path, offset: 0, count: 200) == contents)
        #expect(try files.readBytes(at: path, offset: 17, count: 40) == Array(contents[17..<57]))
        #expect(try files.readBytes(at: path, offset: 190, count: 40) == Array(contents[190...]))
        #expect(try files.readBytes(at: path, offset: 200, count: 1) == [])
        #expect(try files.readBytes(at: path, offset: 5_000, count: 10) == [])
        #expect(try files.readBytes(at: path, offset: 3, count: 0) == [])
        #expect { try files.readBytes(at: path, offset: -1, count: 3) } throws: { ($0 as? DurableFileError)?.errorNumber == EINVAL }
        let missing = DurablePath.join(DurablePath.directory(of: path), "missing")
        #expect { try files.readBytes(at: missing, offset: 0, count: 3) } throws: { error in
            guard let error = error as? DurableFileError else { return false }
            return error.isNotFound && error.path == missing && error.operation == .read
        }
    }

    @Test func posixReadsTheRangeAskedFor() throws {
        let dir = NSTemporaryDirectory() + "crdtnote-ranged-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = PosixFileSystem()
        try AtomicFile.write(Self.contents, to: dir + "/f", on: files)
        try Self.expectRanges(files, dir + "/f")
        // Larger than one read call may return.
        let large = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        try AtomicFile.write(large, to: dir + "/large", on: files)
        #expect(try files.readBytes(at: dir + "/large", offset: 1_000_001, count: 1_999_999) == Array(large[1_000_001...]))
    }

    @Test func faultInjectingReadsWhatItsModelHolds() throws {
        let files = FaultInjectingFileSystem()
        try files.createDirectories(at: "/d")
        try AtomicFile.write(Self.contents, to: "/d/f", on: files)
        try Self.expectRanges(files, "/d/f")
        // Unflushed bytes are read until a power loss drops them.
        try files.append([1, 2, 3], to: "/d/f", sync: false)
        #expect(try files.readBytes(at: "/d/f", offset: 199, count: 10) == [Self.contents[199], 1, 2, 3])
        files.crash()
        #expect(try files.readBytes(at: "/d/f", offset: 199, count: 10) == [Self.contents[199]])
        // A cut power fails it, and it counts as one operation.
        let before = files.operationCount
        _ = try files.readBytes(at: "/d/f", offset: 0, count: 1)
        #expect(files.operationCount == before + 1)
        files.inject(.powerLoss, of: .read)
        #expect { try files.readBytes(at: "/d/f", offset: 0, count: 1) } throws: { ($0 as? DurableFileError)?.errorNumber == EIO }
        #expect(files.isPoweredOff)
        files.crash()
        #expect(try files.readBytes(at: "/d/f", offset: 0, count: 2) == Array(Self.contents[0..<2]))
    }
}
