#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Replaces files so that readers see either the old or the new contents, never a mix, and a
/// crash leaves the old or the new file, never a torn one: write a temporary file beside the
/// target and flush it, rename it over the target, flush the folder. When ``write(_:to:on:)``
/// returns, the new contents survive a power loss.
///
/// Every file the package writes whole goes through here, on the ``DurableFileSystem`` given
/// (the real one by default; ``FaultInjectingFileSystem`` in crash tests).
///
/// (Foundation's `Data.write(options: .atomic)` does the same on Apple platforms, but on
/// Linux it leaves a `TemporaryDirectory.*` folder in /tmp behind on every call, and it does
/// not flush the folder.)
package enum AtomicFile {
    /// Writes `bytes` to `path` atomically and durably. An existing regular file keeps its
    /// permission bits; a new one gets `0644` narrowed by the umask.
    ///
    /// On failure the error is a ``DurableFileOperation/replace`` error naming `path`, with the
    /// `errno` of the step that failed. The target is then unchanged and the temporary file
    /// removed, except when flushing the folder after the rename fails: the new contents are
    /// in place but not known to be on disk.
    package static func write(_ bytes: [UInt8], to path: String, on fileSystem: any DurableFileSystem = PosixFileSystem()) throws(DurableFileError) {
        func failure(_ step: String, _ error: DurableFileError) -> DurableFileError {
            DurableFileError(path: path, operation: .replace, errorNumber: error.errorNumber, message: "\(step): \(error.message)")
        }
        let folder = DurablePath.directory(of: path)
        // An unreadable target is no reason to fail here: its bits are then unknown, and the
        // rename reports whatever really stands in the way.
        let existing = try? fileSystem.status(at: path)
        let permissions = existing?.kind == .regularFile ? existing?.permissions : nil
        let temporary = fileSystem.temporaryPath(beside: path)
        do {
            try fileSystem.writeFile(at: temporary, bytes, mode: .createNew, permissions: permissions, sync: true)
        } catch {
            // EEXIST: the name is someone else's file, not ours to remove.
            if error.errorNumber != EEXIST { try? fileSystem.removeFile(at: temporary) }
            let step = error.operation == .syncFile ? "cannot flush the temporary file \(temporary) to disk"
                : "cannot write the temporary file \(temporary)"
            throw failure(step, error)
        }
        do {
            try fileSystem.rename(temporary, to: path)
        } catch {
            try? fileSystem.removeFile(at: temporary)
            throw failure("cannot rename the temporary file \(temporary) over it", error)
        }
        do {
            try fileSystem.syncDirectory(at: folder)
        } catch {
            throw failure("replaced, but cannot flush the folder \(folder) to disk", error)
        }
    }
}
