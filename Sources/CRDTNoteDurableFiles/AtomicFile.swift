#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Replaces files so that readers see either the old or the new contents, never a mix, and
/// a crash leaves no half-written file: write a temporary file beside the target, flush it,
/// rename it over the target, flush the directory.
///
/// (Foundation's `Data.write(options: .atomic)` does the same on Apple platforms, but on
/// Linux it leaves a `TemporaryDirectory.*` folder in /tmp behind on every call.)
package enum AtomicFile {
    /// Why a file could not be written; the target is unchanged and no temporary file remains.
    package struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file that was to be written.
        package var path: String
        /// What failed, with the system's reason.
        package var message: String
        /// The `errno` value, or 0 when not from a system call.
        package var errorNumber: Int32

        package var description: String { "\(path): \(message)" }
    }

    /// Writes `bytes` to `path` atomically. An existing file keeps its permission bits; a new
    /// one gets `0644` (narrowed by the umask).
    package static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        try write(bytes, to: path, crashAfter: nil)
    }

    /// Test hook: with `crashAfter`, stops after that many bytes and leaves the temporary
    /// file behind, as a crash would, then throws.
    package static func write(_ bytes: [UInt8], to path: String, crashAfter: Int?) throws(WriteError) {
        func failure(_ message: String, _ code: Int32) -> WriteError {
            WriteError(path: path, message: code == 0 ? message : "\(message): \(String(cString: strerror(code)))", errorNumber: code)
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var mode: mode_t = 0o644
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG { mode = status.st_mode & 0o7777 }
        let temporary = directory + "/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure("cannot create a temporary file in \(directory)", errno) }
        var finished = false
        defer { if !finished && crashAfter == nil { unlink(temporary) } }
        _ = fchmod(fd, mode)
        let limit = crashAfter.map { min(max($0, 0), bytes.count) } ?? bytes.count
        var written = 0
        while written < limit {
            let n = bytes.withUnsafeBytes { buffer in
                posixWrite(fd, buffer.baseAddress.map { $0 + written }, limit - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                throw failure("cannot write", code)
            }
            written += n
        }
        if crashAfter != nil {
            close(fd)
            throw failure("injected crash after \(limit) of \(bytes.count) bytes", 0)
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            throw failure("cannot flush to disk", code)
        }
        guard close(fd) == 0 else { throw failure("cannot write", errno) }
        guard rename(temporary, path) == 0 else { throw failure("cannot replace the file", errno) }
        finished = true
        let dfd = open(directory, O_RDONLY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }
}

/// The POSIX `write`, named apart from this file's `write` functions.
@inline(__always)
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
