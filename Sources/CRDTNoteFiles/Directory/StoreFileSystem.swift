import CRDTNoteSupport
import CRDTNoteDurableFiles
import CRDTNote
// The few POSIX calls the directory store needs (atomic replace, fsync, advisory locks).
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Test hook: decides, for a file about to be written, after how many bytes the write "crashes"
/// (nil: write normally). A crashed write leaves its temporary file behind, like a real crash.
typealias StoreWriteFault = @Sendable (_ path: String) -> Int?

/// File operations of the directory store; every failure becomes `.storageFailure` naming the path.
enum StoreFileSystem {
    /// Replaces `path` with `bytes` atomically (see `AtomicFile`); `fault` can make the write
    /// "crash" part-way for tests, leaving the temporary file behind.
    static func writeAtomically(_ bytes: [UInt8], to path: String, fault: StoreWriteFault? = nil) throws(RecordStoreError) {
        do {
            try AtomicFile.write(bytes, to: path, crashAfter: fault?(path))
        } catch {
            throw RecordStoreError(.storageFailure, "cannot write \(path): \(error.message)")
        }
    }

    /// Flushes a directory entry change (rename, unlink) to disk; best effort.
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// The file's bytes, or nil when it does not exist.
    static func read(_ path: String) throws(RecordStoreError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw RecordStoreError(.storageFailure, "cannot read \(path): \(error)")
        }
    }

    /// Creates `path` and its parents.
    static func makeDirectory(_ path: String) throws(RecordStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw RecordStoreError(.storageFailure, "cannot create directory \(path): \(error)")
        }
    }

    /// Removes a file or directory tree; a missing one is fine.
    static func remove(_ path: String) throws(RecordStoreError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw RecordStoreError(.storageFailure, "cannot remove \(path): \(error)")
        }
    }

    /// Names in a directory, without hidden (temporary) files; empty when it does not exist.
    static func list(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// Runs `body` holding an exclusive advisory lock on `lockPath` (other processes and other
    /// store values in this process wait).
    static func withLock<T>(_ lockPath: String, _ body: () throws(RecordStoreError) -> T) throws(RecordStoreError) -> T {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot open lock file \(lockPath)", errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("cannot lock \(lockPath)", errno) }
        }
        defer { _ = flock(fd, LOCK_UN) }
        return try body()
    }

    private static func failure(_ message: String, _ code: Int32) -> RecordStoreError {
        let reason = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return RecordStoreError(.storageFailure, "\(message): \(reason)")
    }
}

/// File names for record and zone names: letters, digits, `_`, `-` and inner `.` are kept,
/// everything else is `%XX` (UTF-8); very long names are cut and suffixed with a hash.
enum StoreFileName {
    static func escape(_ name: String) -> String {
        var out = ""
        for (index, byte) in name.utf8.enumerated() {
            let keep = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x5F || byte == 0x2D || (byte == 0x2E && index > 0)
            if keep {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        if out.isEmpty { out = "%" }
        if out.utf8.count > 200 { out = String(out.prefix(150)) + "~" + AssetChecksum.fnv1a64Hex(Array(name.utf8)) }
        return out
    }
}
