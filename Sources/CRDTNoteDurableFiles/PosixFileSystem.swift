#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// The real file system, through the C library's POSIX calls: what the app, the CLI and the
/// folder store use. Stateless; every call opens, works and closes.
package struct PosixFileSystem: DurableFileSystem {
    /// The file system of this process.
    package init() {}

    /// See ``DurableFileSystem/status(at:)``.
    package func status(at path: String) throws(DurableFileError) -> DurableFileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw DurableFileError(path: path, operation: .status, errorNumber: code)
        }
        let kind: DurableFileStatus.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return DurableFileStatus(kind: kind, size: Int64(info.st_size), permissions: UInt16(truncatingIfNeeded: info.st_mode & 0o7777))
    }

    /// See ``DurableFileSystem/readFile(at:)``.
    package func readFile(at path: String) throws(DurableFileError) -> [UInt8] {
        let fd = try Self.open(path, O_RDONLY | O_CLOEXEC, operation: .read)
        defer { close(fd) }
        var info = stat()
        let hint = fstat(fd, &info) == 0 && info.st_size > 0 ? Int(info.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: max(hint + 1, 4096))
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let n = bytes.withUnsafeMutableBytes { buffer in
                cRead(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw DurableFileError(path: path, operation: .read, errorNumber: errno)
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// See ``DurableFileSystem/readBytes(at:offset:count:)``: `pread` from `offset` until
    /// `count` bytes or the end of the file.
    package func readBytes(at path: String, offset: Int, count: Int) throws(DurableFileError) -> [UInt8] {
        guard offset >= 0, count >= 0 else { throw DurableFileError(path: path, operation: .read, errorNumber: EINVAL) }
        let fd = try Self.open(path, O_RDONLY | O_CLOEXEC, operation: .read)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                cPread(fd, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw DurableFileError(path: path, operation: .read, errorNumber: errno)
            }
            if n == 0 { break }
            done += n
        }
        bytes.removeLast(count - done)
        return bytes
    }

    /// See ``DurableFileSystem/writeFile(at:_:mode:permissions:sync:)``.
    package func writeFile(at path: String, _ bytes: [UInt8], mode: DurableWriteMode, permissions: UInt16?, sync: Bool) throws(DurableFileError) {
        let operation: DurableFileOperation = mode == .append ? .append : .write
        let flags: Int32
        switch mode {
        case .truncate: flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        case .createNew: flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        case .append: flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC
        }
        let fd = try Self.open(path, flags, operation: operation)
        var closed = false
        defer { if !closed { close(fd) } }
        if let permissions, fchmod(fd, mode_t(permissions)) != 0 {
            throw DurableFileError(path: path, operation: operation, errorNumber: errno)
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                cWrite(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw DurableFileError(path: path, operation: operation, errorNumber: errno)
            }
            written += n
        }
        if sync { try Self.flush(fd, path: path, operation: .syncFile) }
        closed = true
        // close can report a delayed write error (NFS); the bytes may not have arrived.
        guard close(fd) == 0 else { throw DurableFileError(path: path, operation: operation, errorNumber: errno) }
    }

    /// See ``DurableFileSystem/syncFile(at:)``.
    package func syncFile(at path: String) throws(DurableFileError) {
        let fd = try Self.open(path, O_RDONLY | O_CLOEXEC, operation: .syncFile)
        defer { close(fd) }
        try Self.flush(fd, path: path, operation: .syncFile)
    }

    /// See ``DurableFileSystem/syncDirectory(at:)``. A file system that cannot flush folders
    /// (`EINVAL`, `ENOTSUP`: nothing to flush) counts as flushed.
    package func syncDirectory(at path: String) throws(DurableFileError) {
        let fd = try Self.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, operation: .syncDirectory)
        defer { close(fd) }
        do {
            try Self.flush(fd, path: path, operation: .syncDirectory)
        } catch where error.errorNumber == EINVAL || error.errorNumber == ENOTSUP {
            return
        }
    }

    /// See ``DurableFileSystem/rename(_:to:)``.
    package func rename(_ source: String, to destination: String) throws(DurableFileError) {
        guard cRename(source, destination) == 0 else {
            let code = errno
            throw DurableFileError(path: source, operation: .rename, errorNumber: code,
                                   message: "\(DurableFileError.reason(code)) (renaming to \(destination))")
        }
    }

    /// See ``DurableFileSystem/removeFile(at:)``.
    package func removeFile(at path: String) throws(DurableFileError) {
        guard unlink(path) == 0 else { throw DurableFileError(path: path, operation: .removeFile, errorNumber: errno) }
    }

    /// See ``DurableFileSystem/removeDirectory(at:)``.
    package func removeDirectory(at path: String) throws(DurableFileError) {
        guard rmdir(path) == 0 else { throw DurableFileError(path: path, operation: .removeDirectory, errorNumber: errno) }
    }

    /// See ``DurableFileSystem/createDirectory(at:)``.
    package func createDirectory(at path: String) throws(DurableFileError) {
        guard mkdir(path, 0o755) == 0 else { throw DurableFileError(path: path, operation: .createDirectory, errorNumber: errno) }
    }

    /// See ``DurableFileSystem/contentsOfDirectory(at:)``.
    package func contentsOfDirectory(at path: String) throws(DurableFileError) -> [String] {
        guard let directory = opendir(path) else {
            throw DurableFileError(path: path, operation: .listDirectory, errorNumber: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw DurableFileError(path: path, operation: .listDirectory, errorNumber: errno) }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// See ``DurableFileSystem/lockFile(at:waiting:)``: `flock`, which locks the open file, so a
    /// second open of the same file (in this process or another) does not get it.
    package func lockFile(at path: String, waiting: Bool) throws(DurableFileError) -> DurableFileLock {
        let fd = try Self.open(path, O_RDWR | O_CREAT | O_CLOEXEC, operation: .lock)
        while flock(fd, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(fd)
            let message = code == EWOULDBLOCK
                ? "\(DurableFileError.reason(code)): another writer holds the lock"
                : DurableFileError.reason(code)
            throw DurableFileError(path: path, operation: .lock, errorNumber: code, message: message)
        }
        // Closing the descriptor releases the lock.
        return DurableFileLock(path: path) { close(fd) }
    }

    /// See ``DurableFileSystem/temporaryPath(beside:)``: `.<name>.tmp-<pid>-<random>`.
    package func temporaryPath(beside path: String) -> String {
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return DurablePath.join(DurablePath.directory(of: path), ".\(DurablePath.name(of: path)).tmp-\(getpid())-\(suffix)")
    }

    // MARK: Helpers

    /// `open`, retried on `EINTR`; a failure is an error of `operation` on `path`.
    private static func open(_ path: String, _ flags: Int32, operation: DurableFileOperation) throws(DurableFileError) -> Int32 {
        while true {
            let fd = cOpen(path, flags, 0o644)
            if fd >= 0 { return fd }
            let code = errno
            if code != EINTR { throw DurableFileError(path: path, operation: operation, errorNumber: code) }
        }
    }

    /// Flushes an open file or folder to stable storage. On Apple platforms `fsync` leaves the
    /// data in the drive's cache; `F_FULLFSYNC` pushes it through, and `fsync` remains the
    /// fallback where a file system does not support it.
    private static func flush(_ fd: Int32, path: String, operation: DurableFileOperation) throws(DurableFileError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(fd) != 0 {
            let code = errno
            if code != EINTR { throw DurableFileError(path: path, operation: operation, errorNumber: code) }
        }
    }
}

// The C calls whose names this file's methods reuse, named apart.

@inline(__always)
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

@inline(__always)
private func cPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int { pread(fd, buffer, count, offset) }

@inline(__always)
private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

@inline(__always)
private func cRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }

@inline(__always)
private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
