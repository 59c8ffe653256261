import Foundation
import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteDurableFiles
import CRDTNoteToolSupport

/// File helpers for the benchmarks that go through the file system (`records`).
enum BenchFiles {
    /// A fresh directory under the system temporary directory.
    static func temporaryDirectory(_ label: String) throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("crdtnote-bench-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read \(path)")
        }
        return [UInt8](data)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try AtomicFile.write(bytes, to: path)
    }
}
