import Foundation
import Testing
@testable import CRDTNoteDurableFiles

/// The real file system through the layer: appends, folders, listing, locks held by a second
/// open, and errors that name the path, the operation and the `errno`.
@Suite struct PosixFileSystemTests {
    let files = PosixFileSystem()

    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "crdtnote-posix-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func appendCreatesThenExtendsAndReadsBack() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/log"
        try files.append(Array("one\n".utf8), to: log)
        try files.append(Array("two\n".utf8), to: log, sync: false)
        try files.syncFile(at: log)
        try files.syncDirectory(at: dir)
        #expect(try files.readFile(at: log) == Array("one\ntwo\n".utf8))
        #expect(FileManager.default.contents(atPath: log) == Data("one\ntwo\n".utf8))
        let status = try #require(try files.status(at: log))
        #expect(status.kind == .regularFile)
        #expect(status.size == 8)
        // Truncating replaces, creating anew refuses an existing file.
        try files.writeFile(at: log, Array("x".utf8), mode: .truncate, permissions: 0o600, sync: true)
        #expect(try files.readFile(at: log) == Array("x".utf8))
        #expect(try files.status(at: log)?.permissions == 0o600)
        #expect(throws: DurableFileError(path: log, operation: .write, errorNumber: EEXIST)) {
            try files.writeFile(at: log, [1], mode: .createNew, permissions: nil, sync: false)
        }
    }

    @Test func aLargeFileReadsBackWhole() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try AtomicFile.write(bytes, to: dir + "/big")
        #expect(try files.readFile(at: dir + "/big") == bytes)
        #expect(try files.readFile(at: dir + "/big").count == 300_000)
    }

    @Test func foldersAreCreatedListedAndRemoved() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try files.createDirectories(at: dir + "/a/b/c")
        try files.createDirectories(at: dir + "/a/b/c") // existing: fine
        try AtomicFile.write([1], to: dir + "/a/b/c/file")
        try files.append([2], to: dir + "/a/.hidden")
        #expect(try files.contentsOfDirectory(at: dir + "/a") == [".hidden", "b"])
        #expect(try files.status(at: dir + "/a/b")?.kind == .directory)
        #expect(try files.status(at: dir + "/a/missing") == nil)
        #expect(try files.status(at: dir + "/a/b/c/file/below") == nil) // ENOTDIR counts as missing
        #expect(try files.readFileIfPresent(at: dir + "/a/missing") == nil)
        try files.removeTree(at: dir + "/a")
        try files.removeTree(at: dir + "/a") // missing: fine
        #expect(try files.contentsOfDirectory(at: dir).isEmpty)
    }

    @Test func removingATreeDoesNotFollowSymbolicLinks() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try files.createDirectories(at: dir + "/outside")
        try AtomicFile.write(Array("keep me".utf8), to: dir + "/outside/precious")
        try files.createDirectories(at: dir + "/tree")
        try FileManager.default.createSymbolicLink(atPath: dir + "/tree/link", withDestinationPath: dir + "/outside")
        #expect(try files.status(at: dir + "/tree/link")?.kind == .symbolicLink)
        try files.removeTree(at: dir + "/tree")
        #expect(try files.status(at: dir + "/tree") == nil)
        #expect(try files.readFile(at: dir + "/outside/precious") == Array("keep me".utf8))
    }

    @Test func aLockHeldByOneOpenFailsASecondOpenUntilReleased() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/.lock"
        let first = try files.lockFile(at: path, waiting: false)
        #expect(first.isHeld)
        do {
            let second = try files.lockFile(at: path, waiting: false)
            Issue.record("a second open got the lock at \(second.path)")
        } catch {
            #expect(error.isLockHeldElsewhere)
            #expect(error.errorNumber == EWOULDBLOCK)
            #expect(error.path == path)
            #expect(error.operation == .lock)
        }
        first.unlock()
        #expect(!first.isHeld)
        let third = try files.lockFile(at: path, waiting: false)
        #expect(third.isHeld)
        // Dropping the value releases the lock too.
        _ = try files.lockFile(at: dir + "/.other", waiting: false)
        let again = try files.lockFile(at: dir + "/.other", waiting: false)
        #expect(again.isHeld)
    }

    @Test func aWaitingLockIsGrantedWhenTheHolderReleases() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/.lock"
        let holder = try files.lockFile(at: path, waiting: false)
        let files = self.files
        let waiter = Task.detached { () throws -> Bool in
            let lock = try files.lockFile(at: path, waiting: true)
            defer { lock.unlock() }
            return lock.isHeld
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        holder.unlock()
        #expect(try await waiter.value)
    }

    @Test func errorsNameThePathTheOperationAndTheErrno() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try files.createDirectories(at: dir + "/full")
        try files.append([1], to: dir + "/full/file")
        let cases: [(DurableFileOperation, String, Int32, () throws(DurableFileError) -> Void)] = [
            (.read, dir + "/missing", ENOENT, { () throws(DurableFileError) in _ = try files.readFile(at: dir + "/missing") }),
            (.read, dir + "/full", EISDIR, { () throws(DurableFileError) in _ = try files.readFile(at: dir + "/full") }),
            (.createDirectory, dir + "/full", EEXIST, { () throws(DurableFileError) in try files.createDirectory(at: dir + "/full") }),
            (.removeDirectory, dir + "/full", ENOTEMPTY, { () throws(DurableFileError) in try files.removeDirectory(at: dir + "/full") }),
            (.removeFile, dir + "/missing", ENOENT, { () throws(DurableFileError) in try files.removeFile(at: dir + "/missing") }),
            (.listDirectory, dir + "/full/file", ENOTDIR, { () throws(DurableFileError) in _ = try files.contentsOfDirectory(at: dir + "/full/file") }),
            (.syncFile, dir + "/missing", ENOENT, { () throws(DurableFileError) in try files.syncFile(at: dir + "/missing") }),
            (.syncDirectory, dir + "/full/file", ENOTDIR, { () throws(DurableFileError) in try files.syncDirectory(at: dir + "/full/file") }),
            (.rename, dir + "/missing", ENOENT, { () throws(DurableFileError) in try files.rename(dir + "/missing", to: dir + "/x") }),
            (.append, dir + "/nowhere/log", ENOENT, { () throws(DurableFileError) in try files.append([1], to: dir + "/nowhere/log") }),
        ]
        for (operation, path, code, body) in cases {
            do {
                try body()
                Issue.record("\(operation) on \(path) succeeded")
            } catch {
                #expect(error.operation == operation)
                #expect(error.path == path)
                #expect(error.errorNumber == code, "\(operation) \(path): \(error)")
                #expect(error.description.hasPrefix("cannot \(operation.verb) \(path): "))
                #expect(error.description.contains(DurableFileError.reason(code)))
            }
        }
    }
}
