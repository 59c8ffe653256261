import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// An in-memory ``DurableFileSystem`` for crash tests: it models the page cache, so tests can
/// prove that every acknowledged (flushed) write survives a power loss and that nothing else is
/// assumed to.
///
/// - Writes are visible at once but durable only after ``syncFile(at:)`` (or `sync: true`).
///   Creations, renames and removals are durable only after ``syncDirectory(at:)`` of the folder
///   they happen in (a file flushed into a folder whose own entry was never flushed is lost with
///   the folder).
/// - ``crash()`` is a power loss: every unflushed write and entry change is dropped.
///   ``crash(using:)`` decides with the generator, per file and per folder: a file's unflushed
///   bytes are dropped or torn — the file keeps the bytes it shares with its flushed contents and
///   then a prefix of the rest, the last up to ``maximumGarbageTail`` of them possibly garbage —
///   and a folder keeps its flushed entries plus a prefix of the changes made since (each
///   rename is one change: it happens whole or not at all).
/// - ``crashProcess()`` is a process crash: the kernel keeps every write, flushed or not; only
///   locks are released.
/// - ``inject(_:onOperation:of:onPath:)`` fails the Nth matching operation with an `errno`
///   (`ENOSPC`, `EIO`, ...) or cuts the power there: that operation and every later one fail
///   with `EIO` until ``crash()`` (a write cut this way reaches the page cache first, so the
///   crash may keep part of it).
///
/// Every call of a protocol method is one operation (a write with `sync` is two: the write, then
/// the flush); ``operationCount`` counts them, so a test can cut the power at each one in turn.
/// Paths are absolute or relative to the root alike; `.` components are ignored, `..` and
/// symbolic links are not modelled. Permission bits are kept as given (no umask) and count as
/// flushed at once. Thread-safe.
package final class FaultInjectingFileSystem: DurableFileSystem, @unchecked Sendable {
    /// A failure to inject.
    package enum Fault: Sendable, Hashable {
        /// The operation fails with this `errno` and changes nothing.
        case error(Int32)
        /// The power fails during the operation (see the type's notes).
        case powerLoss
    }

    /// The most bytes at the end of a torn write that ``crash(using:)`` may turn into garbage.
    package static let maximumGarbageTail = 16

    private let condition = NSCondition()
    private let root = MemoryDirectory()
    private var operations = 0
    private var faults: [ScheduledFault] = []
    private var powerIsOff = false
    private var lockedFiles: [ObjectIdentifier: MemoryFile] = [:]
    private var lockEpoch = 0
    private var temporaryCounter = 0

    /// An empty file system: only the root folder, flushed.
    package init() {}

    /// How many operations have been called so far (failed ones included).
    package var operationCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return operations
    }

    /// Whether an injected power loss has happened and ``crash()`` has not yet been called.
    package var isPoweredOff: Bool {
        condition.lock()
        defer { condition.unlock() }
        return powerIsOff
    }

    /// Makes the `number`th operation from now that matches (`operation`, when given, and
    /// `onPath` for the operation's path — a rename's source) fail with `fault`. When two faults
    /// are due on one operation, the one injected first fires and the other waits for the next
    /// matching operation. Faults not yet reached are forgotten by a crash.
    package func inject(_ fault: Fault, onOperation number: Int = 1, of operation: DurableFileOperation? = nil,
                        onPath: (@Sendable (String) -> Bool)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        faults.append(ScheduledFault(fault: fault, remaining: max(number, 1), operation: operation, path: onPath))
    }

    // MARK: Crashes

    /// A power loss: everything not flushed is dropped, locks are released, injected faults are
    /// forgotten, and the file system works again.
    package func crash() {
        var chooser = DropUnflushed()
        reboot(&chooser)
    }

    /// A power loss in which each file's unflushed bytes are dropped or torn and each folder
    /// keeps a prefix of its unflushed changes, chosen with `generator` (seed it for a
    /// reproducible test). Locks are released and injected faults forgotten.
    package func crash<Generator: RandomNumberGenerator>(using generator: inout Generator) {
        var chooser = TearUnflushed(generator: generator)
        reboot(&chooser)
        generator = chooser.generator
    }

    /// A process crash: the kernel keeps every write, flushed or not; locks are released and
    /// injected faults forgotten (a cut power comes back on, as after a reboot that lost nothing).
    package func crashProcess() {
        condition.lock()
        defer { condition.unlock() }
        resetAfterCrash()
    }

    private func reboot(_ chooser: inout some CrashChooser) {
        condition.lock()
        defer { condition.unlock() }
        var visited = Set<ObjectIdentifier>()
        settle(root, &chooser, &visited)
        resetAfterCrash()
    }

    private func resetAfterCrash() {
        powerIsOff = false
        faults = []
        lockedFiles = [:]
        lockEpoch += 1
        condition.broadcast()
    }

    /// Decides what of `directory` (and, below it, of everything it then holds) survived.
    private func settle(_ directory: MemoryDirectory, _ chooser: inout some CrashChooser, _ visited: inout Set<ObjectIdentifier>) {
        guard visited.insert(ObjectIdentifier(directory)).inserted else { return }
        var entries = directory.durableEntries
        let kept = directory.pending.isEmpty ? 0 : chooser.changesKept(of: directory.pending.count)
        for change in directory.pending.prefix(kept) { change.apply(to: &entries) }
        directory.entries = entries
        directory.durableEntries = entries
        directory.pending = []
        for name in entries.keys.sorted() {
            switch entries[name] {
            case .directory(let child)?:
                settle(child, &chooser, &visited)
            case .file(let file)?:
                guard visited.insert(ObjectIdentifier(file)).inserted else { continue }
                if file.current != file.durable {
                    file.durable = chooser.contentsKept(durable: file.durable, current: file.current)
                    file.current = file.durable
                }
            case nil:
                continue
            }
        }
    }

    // MARK: DurableFileSystem

    /// See ``DurableFileSystem/status(at:)``.
    package func status(at path: String) throws(DurableFileError) -> DurableFileStatus? {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.status, path)
        switch try lookup(path, .status) {
        case .file(let file)?: return DurableFileStatus(kind: .regularFile, size: Int64(file.current.count), permissions: file.permissions)
        case .directory?: return DurableFileStatus(kind: .directory, size: 0, permissions: 0o755)
        case nil: return nil
        }
    }

    /// See ``DurableFileSystem/readFile(at:)``.
    package func readFile(at path: String) throws(DurableFileError) -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.read, path)
        return try existingFile(path, .read).current
    }

    /// See ``DurableFileSystem/readBytes(at:offset:count:)``: a slice of what readers see now
    /// (after a crash, what the crash kept). One operation, like ``readFile(at:)``.
    package func readBytes(at path: String, offset: Int, count: Int) throws(DurableFileError) -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.read, path)
        guard offset >= 0, count >= 0 else { throw DurableFileError(path: path, operation: .read, errorNumber: EINVAL) }
        let contents = try existingFile(path, .read).current
        guard offset < contents.count else { return [] }
        return Array(contents[offset..<min(contents.count, offset + min(count, contents.count))])
    }

    /// See ``DurableFileSystem/writeFile(at:_:mode:permissions:sync:)``.
    package func writeFile(at path: String, _ bytes: [UInt8], mode: DurableWriteMode, permissions: UInt16?, sync: Bool) throws(DurableFileError) {
        let operation: DurableFileOperation = mode == .append ? .append : .write
        condition.lock()
        defer { condition.unlock() }
        let cut = try begin(operation, path)
        let (directory, name) = try parent(of: path, operation)
        let file: MemoryFile
        switch directory.entries[name] {
        case .directory?:
            throw DurableFileError(path: path, operation: operation, errorNumber: EISDIR)
        case .file(let existing)?:
            if mode == .createNew { throw DurableFileError(path: path, operation: operation, errorNumber: EEXIST) }
            file = existing
        case nil:
            file = MemoryFile(permissions: permissions ?? 0o644)
            directory.change(.set(name, .file(file)))
        }
        if let permissions { file.permissions = permissions }
        switch mode {
        case .truncate, .createNew: file.current = bytes
        case .append: file.current += bytes
        }
        if cut { throw cutPower(path, operation) }
        guard sync else { return }
        _ = try begin(.syncFile, path)
        file.durable = file.current
    }

    /// See ``DurableFileSystem/syncFile(at:)``.
    package func syncFile(at path: String) throws(DurableFileError) {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.syncFile, path)
        switch try lookup(path, .syncFile) {
        case .file(let file)?: file.durable = file.current
        case .directory(let directory)?: directory.flush()
        case nil: throw DurableFileError(path: path, operation: .syncFile, errorNumber: ENOENT)
        }
    }

    /// See ``DurableFileSystem/syncDirectory(at:)``.
    package func syncDirectory(at path: String) throws(DurableFileError) {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.syncDirectory, path)
        try existingDirectory(path, .syncDirectory).flush()
    }

    /// See ``DurableFileSystem/rename(_:to:)``.
    package func rename(_ source: String, to destination: String) throws(DurableFileError) {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.rename, source)
        func failure(_ code: Int32) -> DurableFileError {
            DurableFileError(path: source, operation: .rename, errorNumber: code,
                             message: "\(DurableFileError.reason(code)) (renaming to \(destination))")
        }
        let (from, fromName) = try parent(of: source, .rename)
        guard let moving = from.entries[fromName] else { throw failure(ENOENT) }
        let (to, toName): (MemoryDirectory, String)
        do {
            (to, toName) = try parent(of: destination, .rename)
        } catch {
            throw failure(error.errorNumber)
        }
        if from === to && fromName == toName { return }
        switch (moving, to.entries[toName]) {
        case (.file, .directory?): throw failure(EISDIR)
        case (.directory, .file?): throw failure(ENOTDIR)
        case (.directory, .directory(let replaced)?) where !replaced.entries.isEmpty: throw failure(ENOTEMPTY)
        default: break
        }
        if case .directory(let folder) = moving, contains(folder, to) { throw failure(EINVAL) }
        if from === to {
            from.change(.move(fromName, toName))
        } else {
            from.change(.remove(fromName))
            to.change(.set(toName, moving))
        }
    }

    /// See ``DurableFileSystem/removeFile(at:)``.
    package func removeFile(at path: String) throws(DurableFileError) {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.removeFile, path)
        let (directory, name) = try parent(of: path, .removeFile)
        switch directory.entries[name] {
        case .file?: directory.change(.remove(name))
        case .directory?: throw DurableFileError(path: path, operation: .removeFile, errorNumber: EISDIR)
        case nil: throw DurableFileError(path: path, operation: .removeFile, errorNumber: ENOENT)
        }
    }

    /// See ``DurableFileSystem/removeDirectory(at:)``.
    package func removeDirectory(at path: String) throws(DurableFileError) {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.removeDirectory, path)
        let (directory, name) = try parent(of: path, .removeDirectory)
        switch directory.entries[name] {
        case .directory(let folder)?:
            guard folder.entries.isEmpty else { throw DurableFileError(path: path, operation: .removeDirectory, errorNumber: ENOTEMPTY) }
            directory.change(.remove(name))
        case .file?: throw DurableFileError(path: path, operation: .removeDirectory, errorNumber: ENOTDIR)
        case nil: throw DurableFileError(path: path, operation: .removeDirectory, errorNumber: ENOENT)
        }
    }

    /// See ``DurableFileSystem/createDirectory(at:)``.
    package func createDirectory(at path: String) throws(DurableFileError) {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.createDirectory, path)
        let (directory, name) = try parent(of: path, .createDirectory)
        guard directory.entries[name] == nil else { throw DurableFileError(path: path, operation: .createDirectory, errorNumber: EEXIST) }
        directory.change(.set(name, .directory(MemoryDirectory())))
    }

    /// See ``DurableFileSystem/contentsOfDirectory(at:)``.
    package func contentsOfDirectory(at path: String) throws(DurableFileError) -> [String] {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.listDirectory, path)
        return try existingDirectory(path, .listDirectory).entries.keys.sorted()
    }

    /// See ``DurableFileSystem/lockFile(at:waiting:)``: one holder per file; a crash of either
    /// kind releases every lock.
    package func lockFile(at path: String, waiting: Bool) throws(DurableFileError) -> DurableFileLock {
        condition.lock()
        defer { condition.unlock() }
        _ = try begin(.lock, path)
        let (directory, name) = try parent(of: path, .lock)
        let file: MemoryFile
        switch directory.entries[name] {
        case .file(let existing)?: file = existing
        case .directory?: throw DurableFileError(path: path, operation: .lock, errorNumber: EISDIR)
        case nil:
            file = MemoryFile(permissions: 0o644)
            directory.change(.set(name, .file(file)))
        }
        let key = ObjectIdentifier(file)
        while lockedFiles[key] != nil {
            guard waiting else {
                throw DurableFileError(path: path, operation: .lock, errorNumber: EWOULDBLOCK,
                                       message: "\(DurableFileError.reason(EWOULDBLOCK)): another writer holds the lock")
            }
            condition.wait()
            if powerIsOff { throw cutPower(path, .lock) }
        }
        lockedFiles[key] = file
        let epoch = lockEpoch
        return DurableFileLock(path: path) { [self] in self.release(key, epoch: epoch) }
    }

    /// See ``DurableFileSystem/temporaryPath(beside:)``: `.<name>.tmp-<n>`, numbered in order so
    /// runs are reproducible.
    package func temporaryPath(beside path: String) -> String {
        condition.lock()
        defer { condition.unlock() }
        temporaryCounter += 1
        return DurablePath.join(DurablePath.directory(of: path), ".\(DurablePath.name(of: path)).tmp-\(temporaryCounter)")
    }

    // MARK: Helpers (called holding the lock)

    private func release(_ key: ObjectIdentifier, epoch: Int) {
        condition.lock()
        defer { condition.unlock() }
        if epoch == lockEpoch { lockedFiles[key] = nil }
        condition.broadcast()
    }

    /// Counts the operation and fires a due fault: throws for an error or, after a power cut,
    /// for every operation; returns true when the power is cut by this operation and it is a
    /// write, which then reaches the page cache before failing.
    private func begin(_ operation: DurableFileOperation, _ path: String) throws(DurableFileError) -> Bool {
        operations += 1
        if powerIsOff { throw cutPower(path, operation) }
        var due: Int?
        for index in faults.indices {
            if let only = faults[index].operation, only != operation { continue }
            if let matches = faults[index].path, !matches(path) { continue }
            faults[index].remaining -= 1
            if faults[index].remaining <= 0 {
                if due == nil { due = index } else { faults[index].remaining = 1 }
            }
        }
        guard let due else { return false }
        let fault = faults.remove(at: due)
        switch fault.fault {
        case .error(let code):
            throw DurableFileError(path: path, operation: operation, errorNumber: code,
                                   message: "\(DurableFileError.reason(code)) (injected fault)")
        case .powerLoss:
            if operation == .write || operation == .append { return true }
            throw cutPower(path, operation)
        }
    }

    private func cutPower(_ path: String, _ operation: DurableFileOperation) -> DurableFileError {
        powerIsOff = true
        condition.broadcast()
        return DurableFileError(path: path, operation: operation, errorNumber: EIO,
                                message: "\(DurableFileError.reason(EIO)) (simulated power loss; call crash())")
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    /// What is at `path`; nil when nothing is. A file on the way is `ENOTDIR`.
    private func lookup(_ path: String, _ operation: DurableFileOperation) throws(DurableFileError) -> MemoryEntry? {
        var entry = MemoryEntry.directory(root)
        for component in Self.components(path) {
            guard case .directory(let directory) = entry else {
                throw DurableFileError(path: path, operation: operation, errorNumber: ENOTDIR)
            }
            guard let next = directory.entries[component] else { return nil }
            entry = next
        }
        return entry
    }

    /// The folder `path` is in and its last component; the folder must exist.
    private func parent(of path: String, _ operation: DurableFileOperation) throws(DurableFileError) -> (MemoryDirectory, String) {
        let parts = Self.components(path)
        guard let name = parts.last else { throw DurableFileError(path: path, operation: operation, errorNumber: EINVAL) }
        let folder = "/" + parts.dropLast().joined(separator: "/")
        switch try lookup(folder, operation) {
        case .directory(let directory)?: return (directory, name)
        case .file?: throw DurableFileError(path: path, operation: operation, errorNumber: ENOTDIR)
        case nil: throw DurableFileError(path: path, operation: operation, errorNumber: ENOENT)
        }
    }

    private func existingFile(_ path: String, _ operation: DurableFileOperation) throws(DurableFileError) -> MemoryFile {
        switch try lookup(path, operation) {
        case .file(let file)?: return file
        case .directory?: throw DurableFileError(path: path, operation: operation, errorNumber: EISDIR)
        case nil: throw DurableFileError(path: path, operation: operation, errorNumber: ENOENT)
        }
    }

    private func existingDirectory(_ path: String, _ operation: DurableFileOperation) throws(DurableFileError) -> MemoryDirectory {
        switch try lookup(path, operation) {
        case .directory(let directory)?: return directory
        case .file?: throw DurableFileError(path: path, operation: operation, errorNumber: ENOTDIR)
        case nil: throw DurableFileError(path: path, operation: operation, errorNumber: ENOENT)
        }
    }

    /// Whether `inner` is `outer` or below it.
    private func contains(_ outer: MemoryDirectory, _ inner: MemoryDirectory) -> Bool {
        if outer === inner { return true }
        for entry in outer.entries.values {
            if case .directory(let child) = entry, contains(child, inner) { return true }
        }
        return false
    }
}

/// An injected fault waiting for its operation.
private struct ScheduledFault {
    var fault: FaultInjectingFileSystem.Fault
    var remaining: Int
    var operation: DurableFileOperation?
    var path: (@Sendable (String) -> Bool)?
}

/// A file: what readers see and what a power loss keeps.
private final class MemoryFile {
    var current: [UInt8] = []
    var durable: [UInt8] = []
    var permissions: UInt16

    init(permissions: UInt16) { self.permissions = permissions }
}

/// A folder: its entries now, its entries as last flushed, and the changes since, in order.
private final class MemoryDirectory {
    var entries: [String: MemoryEntry] = [:]
    var durableEntries: [String: MemoryEntry] = [:]
    var pending: [EntryChange] = []

    func change(_ change: EntryChange) {
        change.apply(to: &entries)
        pending.append(change)
    }

    func flush() {
        durableEntries = entries
        pending = []
    }
}

/// What a folder entry names.
private enum MemoryEntry {
    case file(MemoryFile)
    case directory(MemoryDirectory)
}

/// One change to a folder's entries; a rename inside one folder is one change.
private enum EntryChange {
    case set(String, MemoryEntry)
    case remove(String)
    case move(String, String)

    func apply(to entries: inout [String: MemoryEntry]) {
        switch self {
        case .set(let name, let entry): entries[name] = entry
        case .remove(let name): entries[name] = nil
        case .move(let from, let to):
            guard let entry = entries.removeValue(forKey: from) else { return }
            entries[to] = entry
        }
    }
}

/// What a crash keeps of unflushed state.
private protocol CrashChooser {
    /// How many of a folder's `count` unflushed changes survive (a prefix).
    mutating func changesKept(of count: Int) -> Int
    /// The contents a file has after the crash.
    mutating func contentsKept(durable: [UInt8], current: [UInt8]) -> [UInt8]
}

/// Keeps nothing unflushed.
private struct DropUnflushed: CrashChooser {
    func changesKept(of count: Int) -> Int { 0 }
    func contentsKept(durable: [UInt8], current: [UInt8]) -> [UInt8] { durable }
}

/// Drops or tears, as the generator decides.
private struct TearUnflushed<Generator: RandomNumberGenerator>: CrashChooser {
    var generator: Generator

    mutating func changesKept(of count: Int) -> Int { Int.random(in: 0...count, using: &generator) }

    mutating func contentsKept(durable: [UInt8], current: [UInt8]) -> [UInt8] {
        // One time in three the unflushed bytes are dropped; otherwise torn.
        if generator.next() % 3 == 0 { return durable }
        var shared = 0
        while shared < durable.count, shared < current.count, durable[shared] == current[shared] { shared += 1 }
        let length = Int.random(in: shared...current.count, using: &generator)
        var kept = Array(current[..<length])
        if length > shared, Bool.random(using: &generator) {
            let garbage = Int.random(in: 1...min(length - shared, FaultInjectingFileSystem.maximumGarbageTail), using: &generator)
            for index in (length - garbage)..<length { kept[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        return kept
    }
}
