import Foundation

/// Reads the files and standard input a command was given, with a size limit and errors that
/// tell a missing file from an unreadable one or a directory.
enum InputReader {
    /// The largest input read by default: far above any real note record (CloudKit caps a record
    /// at 1 MB plus assets) yet small enough that a wrong path cannot exhaust memory.
    static let defaultLimit = 64 << 20

    /// The path that means standard input.
    static let standardInputPath = "-"

    /// Reads all bytes of `path` (or standard input for `-`), failing past `limit` bytes.
    static func read(_ path: String, limit: Int = defaultLimit) throws(CLIError) -> Data {
        if path == standardInputPath {
            return try readAll(descriptor: STDIN_FILENO, name: "<stdin>", limit: limit)
        }
        try checkReadableFile(path)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw openFailure(errno, path: path) }
        defer { close(descriptor) }
        // A regular file's size is known up front: refuse an enormous one without reading it.
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) > Int64(limit) {
            throw tooLarge(path, limit: limit)
        }
        return try readAll(descriptor: descriptor, name: path, limit: limit)
    }

    /// Fails unless `path` is `-` or an existing, readable file that is not a directory.
    static func checkReadableFile(_ path: String) throws(CLIError) {
        guard path != standardInputPath else { return }
        switch POSIX.entry(at: path) {
        case .failed(let code):
            throw openFailure(code, path: path)
        case .directory:
            throw CLIError(code: .noInput, message: "is a directory, expected a file", file: path)
        case .file:
            guard access(path, R_OK) == 0 else { throw openFailure(errno, path: path) }
        }
    }

    /// Fails unless `path` is an existing directory that can be listed (the `--assets` folder).
    static func checkReadableDirectory(_ path: String) throws(CLIError) {
        switch POSIX.entry(at: path) {
        case .failed(let code):
            throw openFailure(code, path: path, what: "no such directory")
        case .file:
            throw CLIError(code: .noInput, message: "is a file, expected a directory", file: path)
        case .directory:
            guard access(path, R_OK | X_OK) == 0 else { throw openFailure(errno, path: path) }
        }
    }

    private static func openFailure(_ code: Int32, path: String, what: String = "no such file") -> CLIError {
        let message: String
        switch code {
        case ENOENT, ENOTDIR: message = what
        case EACCES, EPERM: message = "permission denied"
        default: message = "cannot open: \(POSIX.describe(code))"
        }
        return CLIError(code: .noInput, message: message, file: path)
    }

    private static func tooLarge(_ name: String, limit: Int) -> CLIError {
        CLIError(code: .dataError, message: "input is larger than the \(limit >> 20) MiB limit", file: name)
    }

    private static func readAll(descriptor: Int32, name: String, limit: Int) throws(CLIError) -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                Foundation.read(descriptor, raw.baseAddress, raw.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = POSIX.describe(errno)
                throw CLIError(code: .noInput, message: "cannot read: \(reason)", file: name)
            }
            if count == 0 { return result }
            // Checked per chunk so an endless or huge input stops near the limit, not at EOF.
            guard result.count + count <= limit else { throw tooLarge(name, limit: limit) }
            result.append(contentsOf: buffer[0..<count])
        }
    }
}
