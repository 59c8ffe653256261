import CRDTNoteDurableFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// A note library's files, through the package's one durable-file layer
/// (`CRDTNoteDurableFiles`): paths relative to the library's folder, failures as
/// ``NoteLibraryError``s naming the file.
struct LibraryDisk: Sendable {
    let folder: String
    let fileSystem: any DurableFileSystem

    func path(_ name: String) -> String {
        name.isEmpty ? folder : DurablePath.join(folder, name)
    }

    /// A storage error for `error`, naming the file.
    func error(_ error: DurableFileError) -> NoteLibraryError {
        NoteLibraryError(.storage, error.description, path: error.path)
    }

    /// A library error for a file whose contents are wrong.
    func error(_ error: LibraryFileError, file: String) -> NoteLibraryError {
        switch error {
        case .newer(let reader):
            NoteLibraryError(.newerFormat, "\(path(file)) needs library reader version \(reader); this crdtnote reads up to \(LibraryFormat.version): update crdtnote (the library is left as it is)", path: path(file))
        case .damaged(let why):
            NoteLibraryError(.corrupt, "\(path(file)) is damaged: \(why)", path: path(file))
        }
    }

    /// Makes the folder (when missing) an empty library: the notes folder, the first journal,
    /// then the index, which makes it a library. Refuses a folder holding anything but the lock file.
    func createLibrary() throws(NoteLibraryError) {
        do {
            try fileSystem.createDirectories(at: folder)
            let present = try fileSystem.contentsOfDirectory(at: folder).filter { $0 != LibraryFormat.lockFile }
            guard present.isEmpty else {
                throw NoteLibraryError(.alreadyExists, "\(folder) is not empty (it holds \(present.prefix(3).joined(separator: ", "))); a library needs a folder of its own", path: folder)
            }
            let lock = try fileSystem.lockFile(at: path(LibraryFormat.lockFile), waiting: true)
            defer { lock.unlock() }
            try fileSystem.createDirectories(at: path(LibraryFormat.notesFolder))
            let index = LibraryIndex()
            try AtomicFile.write(JournalFraming.header(generation: index.generation), to: path(LibraryFormat.journalFile(index.generation)), on: fileSystem)
            try AtomicFile.write(index.encoded(), to: path(LibraryFormat.indexFile), on: fileSystem)
        } catch let failure as DurableFileError {
            throw error(failure)
        } catch let failure as NoteLibraryError {
            throw failure
        } catch {
            throw NoteLibraryError(.storage, "\(error)", path: folder)
        }
    }

    /// Takes the folder's lock, waiting up to `timeout` for another process to release it.
    func lock(timeout: Duration) throws(NoteLibraryError) -> DurableFileLock {
        let lockPath = path(LibraryFormat.lockFile)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause: UInt32 = 200  // microseconds, doubling to 20 ms
        while true {
            do {
                return try fileSystem.lockFile(at: lockPath, waiting: false)
            } catch where error.isLockHeldElsewhere {
                guard clock.now < deadline else {
                    throw NoteLibraryError(.busy, "another process has held \(lockPath) for more than \(timeout); try again", path: lockPath)
                }
                usleep(pause)
                pause = min(pause * 2, 20_000)
            } catch where error.isNotFound {
                throw NoteLibraryError(.notALibrary, "\(folder) holds no note library", path: folder)
            } catch {
                throw self.error(error)
            }
        }
    }

    /// The file's bytes, or nil when it does not exist.
    func read(_ name: String) throws(NoteLibraryError) -> [UInt8]? {
        do { return try fileSystem.readFileIfPresent(at: path(name)) } catch { throw self.error(error) }
    }

    /// Up to `count` bytes of the file from `offset` (fewer where it ends), or nil when it does
    /// not exist.
    func read(_ name: String, offset: Int, count: Int) throws(NoteLibraryError) -> [UInt8]? {
        do {
            return try fileSystem.readBytes(at: path(name), offset: offset, count: count)
        } catch where error.isNotFound {
            return nil
        } catch {
            throw self.error(error)
        }
    }

    /// The file's size, or nil when it does not exist.
    func size(_ name: String) throws(NoteLibraryError) -> Int? {
        do { return try fileSystem.status(at: path(name)).map { Int($0.size) } } catch { throw self.error(error) }
    }

    /// Appends `bytes` to the file (not flushed).
    func append(_ bytes: [UInt8], to name: String) throws(NoteLibraryError) {
        do { try fileSystem.append(bytes, to: path(name), sync: false) } catch { throw self.error(error) }
    }

    /// Writes `bytes` to the file, which must not exist yet (not flushed).
    func writeNew(_ bytes: [UInt8], to name: String) throws(NoteLibraryError) {
        do { try fileSystem.writeFile(at: path(name), bytes, mode: .createNew, permissions: nil, sync: false) } catch { throw self.error(error) }
    }

    /// A fresh hidden name beside `name` (same folder), for a file a rename then moves over it.
    func temporaryName(beside name: String) -> String {
        let temporary = DurablePath.name(of: fileSystem.temporaryPath(beside: path(name)))
        let folder = DurablePath.directory(of: name)
        return folder == "." ? temporary : DurablePath.join(folder, temporary)
    }

    /// Renames a file over another (not flushed: sync the folder).
    func rename(_ name: String, to destination: String) throws(NoteLibraryError) {
        do { try fileSystem.rename(path(name), to: path(destination)) } catch { throw self.error(error) }
    }

    /// Flushes the file's contents to disk.
    func sync(_ name: String) throws(NoteLibraryError) {
        do { try fileSystem.syncFile(at: path(name)) } catch { throw self.error(error) }
    }

    /// Replaces the file atomically and durably (temporary file, flush, rename, flush folder).
    func writeAtomically(_ bytes: [UInt8], to name: String) throws(NoteLibraryError) {
        do { try AtomicFile.write(bytes, to: path(name), on: fileSystem) } catch { throw self.error(error) }
    }

    /// The names in a folder of the library ("" for the library's own folder).
    func list(_ name: String) throws(NoteLibraryError) -> [String] {
        do { return try fileSystem.contentsOfDirectory(at: path(name)) } catch { throw self.error(error) }
    }

    /// Removes a file; one already gone is fine.
    func remove(_ name: String) throws(NoteLibraryError) {
        do {
            try fileSystem.removeFile(at: path(name))
        } catch where error.isNotFound {
            return
        } catch {
            throw self.error(error)
        }
    }

    /// Flushes a folder's entries to disk.
    func syncFolder(_ name: String) throws(NoteLibraryError) {
        do { try fileSystem.syncDirectory(at: path(name)) } catch { throw self.error(error) }
    }
}
