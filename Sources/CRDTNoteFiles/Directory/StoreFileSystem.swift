import CRDTNoteSupport
import CRDTNote
import CRDTNoteDurableFiles

/// The directory store's view of the package's file layer (`CRDTNoteDurableFiles`): the real
/// file system, or in tests a `FaultInjectingFileSystem` that cuts the power mid-save. Every
/// failure becomes `.storageFailure` naming the path, the operation and the system's reason.
struct StoreFileSystem: Sendable {
    /// Where the files live.
    let files: any DurableFileSystem

    /// Replaces `path` with `bytes` atomically and durably (see `AtomicFile`).
    func writeAtomically(_ bytes: [UInt8], to path: String) throws(RecordStoreError) {
        do {
            try AtomicFile.write(bytes, to: path, on: files)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Flushes a directory entry change (rename, unlink) to disk.
    func syncDirectory(_ directory: String) throws(RecordStoreError) {
        do {
            try files.syncDirectory(at: directory)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Whether something is at `path`.
    func exists(_ path: String) throws(RecordStoreError) -> Bool {
        do {
            return try files.exists(at: path)
        } catch {
            throw Self.failure(error)
        }
    }

    /// The file's bytes, or nil when it does not exist.
    func read(_ path: String) throws(RecordStoreError) -> [UInt8]? {
        do {
            return try files.readFileIfPresent(at: path)
        } catch {
            throw Self.failure(error)
        }
    }

    /// The file's size, or nil when it does not exist.
    func size(_ path: String) throws(RecordStoreError) -> Int64? {
        do {
            return try files.status(at: path)?.size
        } catch {
            throw Self.failure(error)
        }
    }

    /// Creates `path` and its parents, durably.
    func makeDirectory(_ path: String) throws(RecordStoreError) {
        do {
            try files.createDirectories(at: path)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Renames `source` to `destination` and flushes the destination's folder.
    func rename(_ source: String, to destination: String) throws(RecordStoreError) {
        do {
            try files.rename(source, to: destination)
            try files.syncDirectory(at: DurablePath.directory(of: destination))
            let from = DurablePath.directory(of: source)
            if from != DurablePath.directory(of: destination) { try files.syncDirectory(at: from) }
        } catch {
            throw Self.failure(error)
        }
    }

    /// Removes a file or directory tree; a missing one is fine.
    func remove(_ path: String) throws(RecordStoreError) {
        do {
            try files.removeTree(at: path)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Names in a directory, without hidden (temporary) files; empty when it does not exist or
    /// cannot be listed (callers use it for best-effort pruning).
    func list(_ path: String) -> [String] {
        ((try? files.contentsOfDirectory(at: path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// Names in a directory, without hidden (temporary) files; empty when it does not exist.
    /// Throws when it exists but cannot be listed (for callers that must see every file).
    func listAll(_ path: String) throws(RecordStoreError) -> [String] {
        do {
            return try files.contentsOfDirectory(at: path).filter { !$0.hasPrefix(".") }
        } catch where error.isNotFound {
            return []
        } catch {
            throw Self.failure(error)
        }
    }

    /// Runs `body` holding an exclusive advisory lock on `lockPath` (other processes and other
    /// store values in this process wait).
    func withLock<T>(_ lockPath: String, _ body: () throws(RecordStoreError) -> T) throws(RecordStoreError) -> T {
        let lock: DurableFileLock
        do {
            lock = try files.lockFile(at: lockPath, waiting: true)
        } catch {
            throw Self.failure(error)
        }
        defer { lock.unlock() }
        return try body()
    }

    private static func failure(_ error: DurableFileError) -> RecordStoreError {
        RecordStoreError(.storageFailure, error.description)
    }
}
