import Foundation
import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import CRDTNoteDurableFiles

/// Where a command's result goes.
enum OutputDestination: Equatable, Sendable {
    /// Standard output, written as is (no newline added).
    case standardOutput
    /// A file, replaced atomically.
    case file(String)

    /// Parses an `-o` value: `-` means standard output.
    init(argument: String) {
        self = argument == "-" ? .standardOutput : .file(argument)
    }
}

/// Writes results so that a reader never sees half a file and a failure leaves nothing behind.
enum OutputWriter {
    /// Writes `bytes` to `destination`.
    static func write(_ bytes: some ContiguousBytes, to destination: OutputDestination) throws(CLIError) {
        switch destination {
        case .standardOutput: try writeToStandardOutput(bytes)
        case .file(let path): try writeAtomically(bytes, to: path)
        }
    }

    /// Writes `bytes` to standard output exactly, without adding a newline.
    static func writeToStandardOutput(_ bytes: some ContiguousBytes) throws(CLIError) {
        if let code = writeAll(bytes, to: STDOUT_FILENO) {
            throw CLIError(code: .cannotWrite, message: "cannot write to standard output: \(POSIX.describe(code))")
        }
    }

    /// Writes text to standard error; failures are ignored since there is nowhere left to report them.
    static func writeToStandardError(_ text: String) {
        _ = writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Replaces the file at `path` with `bytes` through `AtomicFile` (the package's file layer):
    /// the data goes to a temporary file in the same directory, is flushed, then renamed over
    /// `path` and the directory flushed, so readers see the old or the new file, never a mix.
    /// On any failure the temporary file is removed and `path` is untouched. An existing file
    /// keeps its permission bits.
    static func writeAtomically(_ bytes: some ContiguousBytes, to path: String) throws(CLIError) {
        // Checked again right before the rename: something put there since the early check
        // (a link, a FIFO) is refused, not replaced.
        try checkReplaceable(path)
        do {
            try AtomicFile.write(bytes.withUnsafeBytes { Array($0) }, to: path)
        } catch {
            throw CLIError(code: .cannotWrite, message: error.message, file: path)
        }
    }

    /// Fails early, before any work, when `destination` is a file that cannot be created:
    /// its directory is missing or not writable, or something other than a regular file is
    /// at the path (see ``checkReplaceable(_:)``).
    static func checkWritable(_ destination: OutputDestination) throws(CLIError) {
        guard case .file(let path) = destination else { return }
        try checkReplaceable(path)
        let folder = directory(of: path)
        switch POSIX.entry(at: folder) {
        case .failed(let code):
            throw CLIError(code: .cannotWrite, message: "cannot write into '\(folder)': \(POSIX.describe(code))", file: path)
        case .file:
            throw CLIError(code: .cannotWrite, message: "'\(folder)' is not a directory", file: path)
        case .directory:
            guard access(folder, W_OK | X_OK) == 0 else {
                throw CLIError(code: .cannotWrite, message: "cannot write into '\(folder)': \(POSIX.describe(errno))", file: path)
            }
        }
    }

    /// Fails (73) unless `path` is missing or a regular file, looked at with `lstat`, so a
    /// symbolic link is refused rather than followed or replaced: an output is a regular file,
    /// replaced atomically, or `-`. A device (`/dev/null`), FIFO, socket, directory or link
    /// (`/dev/stdout`) would otherwise be swapped for a regular file by the rename.
    static func checkReplaceable(_ path: String) throws(CLIError) {
        var info = stat()
        // Missing, or its folder is: the folder check (or the write) reports that.
        guard lstat(path, &info) == 0 else { return }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFLNK: kind = "a symbolic link"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a special file"
        }
        throw CLIError(code: .cannotWrite,
                       message: "is \(kind), not a regular file; the output must be a regular file (replaced atomically) or '-' for standard output",
                       file: path)
    }

    /// The directory holding `path` ("." for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// Writes every byte, retrying short writes and interrupts; returns the `errno` on failure.
    private static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
