// The few C library calls the CLI makes directly, behind one import so other files stay portable.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Helpers over raw POSIX results.
enum POSIX {
    /// The C library's description of an `errno` value, e.g. "No such file or directory".
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// The kind of a file system entry, or the `errno` of the failed `stat`.
    enum Entry: Equatable {
        /// A directory.
        case directory
        /// A regular file (or something else that is not a directory: a FIFO, a device).
        case file(mode: mode_t)
        /// `stat` failed with this `errno`.
        case failed(Int32)
    }

    /// Looks up what is at `path`, following symbolic links.
    static func entry(at path: String) -> Entry {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failed(errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        return .file(mode: info.st_mode & 0o7777)
    }
}
