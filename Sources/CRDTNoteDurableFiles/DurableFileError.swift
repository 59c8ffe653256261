#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// The file-system call a ``DurableFileError`` comes from (or, for ``replace``, the atomic
/// replacement as a whole).
package enum DurableFileOperation: String, Sendable, Hashable, CaseIterable {
    /// Looking up what is at a path (`lstat`).
    case status
    /// Reading a whole file.
    case read
    /// Creating or truncating a file and writing it.
    case write
    /// Appending to a file.
    case append
    /// Flushing a file's contents to disk (`fsync`).
    case syncFile
    /// Flushing a folder's entries to disk (`fsync` of the folder).
    case syncDirectory
    /// Renaming an entry.
    case rename
    /// Removing a file (`unlink`).
    case removeFile
    /// Removing an empty folder (`rmdir`).
    case removeDirectory
    /// Creating one folder (`mkdir`).
    case createDirectory
    /// Listing a folder.
    case listDirectory
    /// Taking an exclusive advisory lock (`flock`).
    case lock
    /// Replacing a file atomically (``AtomicFile``): temporary file, flush, rename, flush folder.
    case replace

    /// The verb of a failure message: "cannot <verb> <path>".
    package var verb: String {
        switch self {
        case .status: "look up"
        case .read: "read"
        case .write: "write"
        case .append: "append to"
        case .syncFile: "flush to disk"
        case .syncDirectory: "flush to disk the folder"
        case .rename: "rename"
        case .removeFile: "remove"
        case .removeDirectory: "remove the folder"
        case .createDirectory: "create the folder"
        case .listDirectory: "list the folder"
        case .lock: "lock"
        case .replace: "replace"
        }
    }
}

/// Why a file operation failed: which path, which operation, the `errno` and a message. The one
/// error type of the file layer; callers map it to their own (the folder store's
/// `.storageFailure`, the CLI's exit 73).
package struct DurableFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path the operation was about (for ``DurableFileOperation/replace``, the target).
    package var path: String
    /// What was being done.
    package var operation: DurableFileOperation
    /// The `errno` value, or 0 when the failure did not come from a system call.
    package var errorNumber: Int32
    /// The reason, in words: the system's text for `errorNumber`, with context where useful.
    package var message: String

    /// An error with all its parts.
    package init(path: String, operation: DurableFileOperation, errorNumber: Int32, message: String) {
        self.path = path
        self.operation = operation
        self.errorNumber = errorNumber
        self.message = message
    }

    /// An error from a system call that set `errno` to `errorNumber`; the message is the
    /// system's text for it.
    package init(path: String, operation: DurableFileOperation, errorNumber: Int32) {
        self.init(path: path, operation: operation, errorNumber: errorNumber, message: Self.reason(errorNumber))
    }

    /// "cannot <verb> <path>: <message>".
    package var description: String { "cannot \(operation.verb) \(path): \(message)" }

    /// Whether nothing is at the path (`ENOENT`) or a folder on the way is a file (`ENOTDIR`).
    package var isNotFound: Bool { errorNumber == ENOENT || errorNumber == ENOTDIR }

    /// Whether a lock taken without waiting is held by another writer (`EWOULDBLOCK`).
    package var isLockHeldElsewhere: Bool { operation == .lock && (errorNumber == EWOULDBLOCK || errorNumber == EAGAIN) }

    /// The C library's text for an `errno` value, e.g. "No such file or directory".
    package static func reason(_ errorNumber: Int32) -> String {
        guard let text = strerror(errorNumber) else { return "error \(errorNumber)" }
        return String(cString: text)
    }
}
