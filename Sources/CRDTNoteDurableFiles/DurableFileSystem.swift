#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// The file operations the package's durable storage is built from: the folder store
/// (`DirectoryRecordStore`), the CLI's outputs, the benchmarks, and the note library to come.
/// Every file the package writes goes through one of these.
///
/// Two implementations: ``PosixFileSystem`` (the real one) and ``FaultInjectingFileSystem`` (in
/// memory, for tests: it models the page cache, loses or tears what was not flushed when it
/// "crashes", and fails chosen operations).
///
/// Durability follows POSIX: bytes written are visible at once but survive a power loss only
/// after ``syncFile(at:)`` (or `sync: true`); a new, renamed or removed entry survives only after
/// ``syncDirectory(at:)`` of its folder. ``AtomicFile`` combines them into a crash-safe replace.
///
/// Paths are plain strings, as given to the system calls. Every failure is a
/// ``DurableFileError`` naming the path, the operation and the `errno`.
package protocol DurableFileSystem: Sendable {
    /// What is at `path`, not following a final symbolic link (`lstat`); nil when nothing is
    /// (`ENOENT`, or `ENOTDIR` when a folder on the way is a file).
    func status(at path: String) throws(DurableFileError) -> DurableFileStatus?

    /// The whole contents of the file at `path`.
    func readFile(at path: String) throws(DurableFileError) -> [UInt8]

    /// Up to `count` bytes of the file at `path` from byte `offset` on (`pread`): fewer when the
    /// file ends first, none when it ends at or before `offset`. A negative `offset` or `count`
    /// fails with `EINVAL`.
    func readBytes(at path: String, offset: Int, count: Int) throws(DurableFileError) -> [UInt8]

    /// Writes `bytes` to the file at `path` as `mode` says (truncate, create only, append).
    /// `permissions`, when given, become the file's permission bits exactly; nil keeps an
    /// existing file's bits and creates a new file as `0644` narrowed by the umask. With `sync`
    /// the file is flushed to disk (as ``syncFile(at:)``) before this returns.
    func writeFile(at path: String, _ bytes: [UInt8], mode: DurableWriteMode, permissions: UInt16?, sync: Bool) throws(DurableFileError)

    /// Flushes the contents of the file at `path` to disk (`fsync`; `F_FULLFSYNC` on Apple
    /// platforms, which `fsync` alone does not push through the drive's cache).
    func syncFile(at path: String) throws(DurableFileError)

    /// Flushes the entries of the folder at `path` to disk, so creations, renames and removals
    /// in it survive a power loss.
    func syncDirectory(at path: String) throws(DurableFileError)

    /// Renames `source` to `destination`, atomically replacing a file there (`rename`).
    func rename(_ source: String, to destination: String) throws(DurableFileError)

    /// Removes the file (or symbolic link) at `path` (`unlink`).
    func removeFile(at path: String) throws(DurableFileError)

    /// Removes the empty folder at `path` (`rmdir`).
    func removeDirectory(at path: String) throws(DurableFileError)

    /// Creates one folder at `path` (`mkdir`, mode `0755`); fails with `EEXIST` when something is there.
    func createDirectory(at path: String) throws(DurableFileError)

    /// The names in the folder at `path`, hidden ones included, without `.` and `..`, sorted.
    func contentsOfDirectory(at path: String) throws(DurableFileError) -> [String]

    /// Takes an exclusive advisory lock on the file at `path` (created if missing), for one
    /// writer per folder across processes and across open files in this process (`flock`). With
    /// `waiting` false, a lock held elsewhere fails at once with `EWOULDBLOCK`
    /// (``DurableFileError/isLockHeldElsewhere``); with `waiting` true this waits for it.
    func lockFile(at path: String, waiting: Bool) throws(DurableFileError) -> DurableFileLock

    /// A fresh hidden name in the folder of `path` (`.<name>.tmp-…`), for a temporary file that a
    /// rename then moves over `path` on the same file system.
    func temporaryPath(beside path: String) -> String
}

/// How ``DurableFileSystem/writeFile(at:_:mode:permissions:sync:)`` opens the file.
package enum DurableWriteMode: Sendable, Hashable {
    /// Create the file or truncate it, then write (`O_CREAT | O_TRUNC`).
    case truncate
    /// Create the file; fail with `EEXIST` when something is at the path (`O_CREAT | O_EXCL`).
    case createNew
    /// Append at the end, creating the file when missing (`O_CREAT | O_APPEND`).
    case append
}

/// What is at a path: its kind, size and permission bits.
package struct DurableFileStatus: Sendable, Hashable {
    /// The kinds of entries.
    package enum Kind: Sendable, Hashable {
        /// A regular file.
        case regularFile
        /// A folder.
        case directory
        /// A symbolic link (not followed).
        case symbolicLink
        /// A device, FIFO or socket.
        case other
    }

    /// The entry's kind.
    package var kind: Kind
    /// Its size in bytes.
    package var size: Int64
    /// Its permission bits (`st_mode & 0o7777`).
    package var permissions: UInt16

    /// A status with all its parts.
    package init(kind: Kind, size: Int64, permissions: UInt16) {
        self.kind = kind
        self.size = size
        self.permissions = permissions
    }
}

extension DurableFileSystem {
    /// The contents of the file at `path`, or nil when there is none (``DurableFileError/isNotFound``).
    package func readFileIfPresent(at path: String) throws(DurableFileError) -> [UInt8]? {
        do {
            return try readFile(at: path)
        } catch where error.isNotFound {
            return nil
        }
    }

    /// Appends `bytes` to the file at `path` (created if missing) and, with `sync` (the default),
    /// flushes it to disk before returning: once this returns, the bytes survive a power loss
    /// (a newly created file also needs ``syncDirectory(at:)`` of its folder).
    package func append(_ bytes: [UInt8], to path: String, sync: Bool = true) throws(DurableFileError) {
        try writeFile(at: path, bytes, mode: .append, permissions: nil, sync: sync)
    }

    /// Whether something is at `path`.
    package func exists(at path: String) throws(DurableFileError) -> Bool {
        try status(at: path) != nil
    }

    /// Creates the folder at `path` and any missing parents (`mkdir -p`); every folder it creates
    /// is flushed into its parent, so the chain survives a power loss. An existing folder is fine;
    /// an existing file fails with `ENOTDIR` (or `EEXIST` for the last component).
    package func createDirectories(at path: String) throws(DurableFileError) {
        if let existing = try status(at: path) {
            guard existing.kind == .directory else {
                throw DurableFileError(path: path, operation: .createDirectory, errorNumber: EEXIST)
            }
            return
        }
        let parent = DurablePath.directory(of: path)
        if parent != path { try createDirectories(at: parent) }
        do {
            try createDirectory(at: path)
        } catch where error.errorNumber == EEXIST {
            // Created by someone else since the check: fine if it is a folder.
            guard try status(at: path)?.kind == .directory else { throw error }
            return
        }
        try syncDirectory(at: parent)
    }

    /// Removes `path` and, for a folder, everything in it (symbolic links are removed, not
    /// followed). Nothing at `path` is fine. Removals are not flushed; sync the parent folder
    /// when they must survive a power loss.
    package func removeTree(at path: String) throws(DurableFileError) {
        guard let found = try status(at: path) else { return }
        guard found.kind == .directory else {
            try removeFile(at: path)
            return
        }
        for name in try contentsOfDirectory(at: path) {
            try removeTree(at: DurablePath.join(path, name))
        }
        try removeDirectory(at: path)
    }
}

/// Path helpers shared by the implementations and their callers.
package enum DurablePath {
    /// The folder holding `path` ("." for a bare name, "/" for a top-level entry).
    package static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let folder = trimmed[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The last component of `path`.
    package static func name(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `directory/name`, without doubling a slash.
    package static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
