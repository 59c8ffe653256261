import Foundation
import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteDurableFiles
import CRDTNoteToolSupport

/// File helpers for the benchmarks that go through the file system (`records`); every call goes
/// through the package's file layer (`PosixFileSystem`, `AtomicFile`).
enum BenchFiles {
    /// A fresh directory under the system temporary directory.
    static func temporaryDirectory(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("crdtnote-bench-\(label)-\(UUID().uuidString)").path
        try PosixFileSystem().createDirectories(at: path)
        return path
    }

    /// Removes `path` and everything below it; best effort (a leftover scratch folder is harmless).
    static func remove(_ path: String) {
        try? PosixFileSystem().removeTree(at: path)
    }

    /// The whole file at `path`.
    static func read(_ path: String) throws -> [UInt8] {
        try PosixFileSystem().readFile(at: path)
    }

    /// Replaces the file at `path` with `bytes`, atomically and durably.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try AtomicFile.write(bytes, to: path)
    }
}
