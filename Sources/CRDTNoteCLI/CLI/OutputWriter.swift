import Foundation
import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

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

    /// Replaces the file at `path` with `bytes`: the data goes to a temporary file in the same
    /// directory, is flushed, then renamed over `path`, so readers see the old or the new file,
    /// never a mix. On any failure the temporary file is removed and `path` is untouched.
    /// An existing file keeps its permission bits.
    static func writeAtomically(_ bytes: some ContiguousBytes, to path: String) throws(CLIError) {
        do {
            try AtomicFile.write(bytes.withUnsafeBytes { Array($0) }, to: path)
        } catch {
            throw CLIError(code: .cannotWrite, message: error.message, file: path)
        }
    }

    /// Fails early, before any work, when `destination` is a file that cannot be created:
    /// its directory is missing or not writable, or the path itself is a directory.
    static func checkWritable(_ destination: OutputDestination) throws(CLIError) {
        guard case .file(let path) = destination else { return }
        if case .directory = POSIX.entry(at: path) {
            throw CLIError(code: .cannotWrite, message: "is a directory, expected a file path", file: path)
        }
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

    /// The directory holding `path` ("." for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// A fresh hidden name next to `path`, so the final rename stays on one file system.
    private static func temporaryPath(beside path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? "output"
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return directory(of: path) + "/.\(name).crdtnote-\(getpid())-\(suffix).tmp"
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
