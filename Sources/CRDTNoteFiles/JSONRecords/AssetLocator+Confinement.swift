import Foundation

/// Keeps asset references inside their folders: path normalisation, canonical folders, and a
/// component-by-component walk that follows symbolic links only while they stay inside.
///
/// Nothing outside the folders is ever passed to a system call: a reference is first compared
/// with the folders as text, and the walk `lstat`s only paths beneath a folder, refusing a link
/// whose target leaves it before looking at that target.
enum Confinement {
    /// Where a candidate leads, before it is resolved.
    enum Target {
        /// A normalised absolute path, as components.
        case path([String])
        /// Relative to a folder that does not exist: nothing to find.
        case folderMissing
        /// Not a usable local path (a `file://` URL of another host, bad percent escapes, a NUL).
        case invalid
    }

    /// A folder references may lead into: its canonical path, and the path as given (made
    /// absolute), both as components.
    struct Root {
        var canonical: [String]
        var alias: [String]

        /// What follows the folder in `path`, when `path` is the folder or inside it.
        func remainder(of path: [String]) -> [String]? {
            for prefix in [canonical, alias] where path.count >= prefix.count && Array(path[..<prefix.count]) == prefix {
                return Array(path[prefix.count...])
            }
            return nil
        }
    }

    /// What a candidate resolved to.
    enum Resolution: Equatable {
        /// A regular file (by `lstat`) at `components` beneath the folder `root` (both canonical:
        /// no symbolic link, `.` or `..` in them); ``openFile(_:beneath:)`` opens it.
        case file(root: [String], components: [String])
        /// Nothing there (inside the folders).
        case missing
        /// The reference leads outside every folder.
        case outside
        /// Something other than a regular file: a directory, FIFO, device or socket.
        case notRegular(String, kind: String)
        /// A system call failed with this `errno`.
        case failed(String, Int32)
    }

    /// Symbolic links followed at most in one resolution (Linux's own limit).
    static let maxLinks = 40

    /// Resolves `target` inside one of `roots`.
    static func resolve(_ target: Target, roots: [Root]) -> Resolution {
        switch target {
        case .folderMissing: return .missing
        case .invalid: return .outside
        case .path(let components):
            for root in roots {
                if let rest = root.remainder(of: components) { return walk(rest, beneath: root) }
            }
            return .outside
        }
    }

    /// Walks `rest` beneath `root.canonical` one component at a time with `lstat`; a symbolic
    /// link's target is spliced in only when it stays beneath the root.
    static func walk(_ rest: [String], beneath root: Root) -> Resolution {
        var pending = Array(rest.reversed())
        var current: [String] = []
        var links = 0
        func path(_ parts: [String]) -> String { "/" + (root.canonical + parts).joined(separator: "/") }
        while let component = pending.popLast() {
            if component.isEmpty || component == "." { continue }
            if component == ".." {
                guard !current.isEmpty else { return .outside }
                current.removeLast()
                continue
            }
            let here = path(current + [component])
            var info = stat()
            guard lstat(here, &info) == 0 else {
                let code = errno
                return code == ENOENT || code == ENOTDIR ? .missing : .failed(here, code)
            }
            let isLast = pending.allSatisfy { $0.isEmpty || $0 == "." }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                links += 1
                guard links <= maxLinks else { return .failed(here, ELOOP) }
                guard let target = readLink(here) else { return .failed(here, errno) }
                if target.hasPrefix("/") {
                    guard let inside = root.remainder(of: components(target, normalising: false)) else { return .outside }
                    current = []
                    pending.append(contentsOf: inside.reversed())
                } else {
                    pending.append(contentsOf: components(target, normalising: false).reversed())
                }
            case S_IFDIR:
                current.append(component)
            case S_IFREG:
                return isLast ? .file(root: root.canonical, components: current + [component]) : .missing
            default:
                return isLast ? .notRegular(here, kind: describe(info.st_mode)) : .missing
            }
        }
        return .notRegular(path(current), kind: "a directory")
    }

    /// The absolute path of `components` beneath `root`, for messages.
    static func path(_ components: [String], beneath root: [String]) -> String {
        "/" + (root + components).joined(separator: "/")
    }

    /// Opens the file a walk resolved, without trusting that nothing changed since: the folder is
    /// opened, then each component with `openat` and `O_NOFOLLOW` (directories with
    /// `O_DIRECTORY`), so a component replaced by a symbolic link after the walk (which could
    /// lead anywhere) fails to open instead of being followed. The file is opened read-only and
    /// without blocking. Returns the descriptor, or `errno` (`ELOOP` or `ENOTDIR` when a
    /// component became a link).
    static func openFile(_ components: [String], beneath root: [String]) -> Result<Int32, OpenFailure> {
        guard let name = components.last else { return .failure(OpenFailure(code: EISDIR)) }
        var directory = open(path([], beneath: root), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return .failure(OpenFailure(code: errno)) }
        for component in components.dropLast() {
            let next = openat(directory, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            close(directory)
            guard next >= 0 else { return .failure(OpenFailure(code: code)) }
            directory = next
        }
        let file = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        let code = errno
        close(directory)
        return file >= 0 ? .success(file) : .failure(OpenFailure(code: code))
    }

    /// Why ``openFile(_:beneath:)`` failed: an `errno` value.
    struct OpenFailure: Error {
        var code: Int32
    }

    /// The components of `path`; with `normalising`, `.` dropped and `..` applied (at the
    /// root, `..` stays at the root, as in the kernel).
    static func components(_ path: String, normalising: Bool = true) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard normalising else { return parts.filter { $0 != "." } }
        var out: [String] = []
        for part in parts {
            if part == "." { continue }
            if part == ".." {
                if !out.isEmpty { out.removeLast() }
                continue
            }
            out.append(part)
        }
        return out
    }

    /// The canonical absolute path of an existing folder (`realpath`), or nil.
    static func canonical(_ folder: String) -> String? {
        guard !folder.contains("\0"), let resolved = realpath(folder.isEmpty ? "." : folder, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The current directory, or nil.
    static func currentDirectory() -> String? { canonical(".") }

    /// The local path of a `file://` URL (empty or `localhost` host, percent escapes decoded,
    /// query and fragment dropped), or nil when it names no local path.
    static func fileURLPath(_ url: String) -> String? {
        var rest = Substring(url.dropFirst("file://".count))
        if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/") else { return nil }
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        guard let path = String(rest).removingPercentEncoding, !path.contains("\0") else { return nil }
        return path
    }

    /// The target of the symbolic link at `path`, or nil with `errno` set.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "a FIFO", "a character device", ... for messages.
    static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        default: "a special file"
        }
    }

    /// `text` quoted for a message: at most 200 characters, control characters escaped.
    static func quoted(_ text: String) -> String {
        var shown = ""
        for (n, scalar) in text.unicodeScalars.enumerated() {
            if n == 200 {
                shown += "..."
                break
            }
            shown += scalar.value < 0x20 || scalar.value == 0x7F || scalar == "'" ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return "'" + shown + "'"
    }
}
