import CRDTNoteDurableFiles
import Foundation

/// Every note of an app on this device, kept durably in one folder: each edit appends what
/// changed to a journal, one call (``flush()``: one `fsync` on Linux, `F_FULLFSYNC` on Apple
/// platforms, so it survives a power loss) makes everything before it durable, and
/// opening reads only the index, so launch and memory do not grow with the notes' text.
///
/// ```swift
/// let library = try NoteLibrary.create(folder: folder, replica: replica)  // or NoteLibrary(folder:replica:)
/// try library.create("groceries", text: "Milk")
/// try library.edit("groceries") { note in try note.insert(", eggs", atScalarOffset: 4) }
/// try library.flush()                                   // durable when this returns
/// for summary in try library.list() { print(summary.title) }
/// ```
///
/// Each process (the app, each extension, the `crdtnote` tool) opens the library with its own
/// ``ReplicaID``; the library stores none. Processes may share the folder: every call takes an
/// advisory lock on the folder's `lock` file and first reads what other processes appended, so
/// an edit always builds on every edit on disk (Docs/LIBRARY.md, "Two processes").
///
/// A `NoteLibrary` is safe to use from any thread; calls are serialized.
public final class NoteLibrary: @unchecked Sendable {
    /// How a library behaves; the defaults suit an app.
    public struct Options: Sendable, Hashable {
        /// How long a call waits for another process to release the library before failing
        /// with ``NoteLibraryError/Code/busy``.
        public var lockTimeout: Duration = .seconds(2)
        /// Notes kept decoded in memory after use (least recently used go first).
        public var cachedNotes: Int = 64
        /// Journal size past which ``NoteLibrary/flush()`` compacts the library.
        public var compactionThreshold: Int = 4 << 20
        /// How much history the library keeps of each note (Docs/LIBRARY.md, "History"): with a
        /// policy, every deletion made through the library is logged with its time and text,
        /// kept within the policy's window and cap, and synced, so ``NoteText/text(at:)``,
        /// ``NoteText/versions(pause:)`` and ``NoteText/restore(to:)`` reach back on its notes.
        /// ``HistoryRetention/default`` (30 days, at most max(64 KB, 2 × the visible text) of
        /// deleted text per note) unless set; nil keeps no history of this library's own
        /// deletions. History received from other devices is kept and synced either way, and
        /// notes with history compact like any other (what a compaction drops leaves a shadow
        /// in the history, Docs/FORMAT.md §11.6).
        public var historyRetention: HistoryRetention? = .default
        /// Options with the defaults.
        public init() {}
    }

    /// What opening found and repaired.
    public struct OpenReport: Sendable, Hashable {
        /// Bytes cut from the end of the journal: a write that never completed (a crash or power
        /// loss before ``NoteLibrary/flush()`` returned), found by its length or checksum.
        public var tornBytesCut = 0
        /// Why they were cut, when any were.
        public var tornReason: String?
        /// Notes whose data could not be read, with why; every other note is usable.
        public var damagedNotes: [String: String] = [:]
    }

    /// The library's folder.
    public let folder: String
    /// The replica this process's edits are attributed to.
    public let replica: ReplicaID
    /// Behaviour settings.
    public let options: Options

    let disk: LibraryDisk
    let mutex = NSLock()
    var state: LibraryState
    var observers: [UInt64: AsyncStream<NoteLibraryChange>.Continuation] = [:]
    /// Stamps app-field changes (``setField(_:to:of:)``).
    var fieldClock = HybridLogicalClock()
    var nextObserver: UInt64 = 0
    /// Where the notes' clocks read the time (tests set a manual clock before the first call).
    package var physicalClock: PhysicalClock = .system

    /// Opens the library in `folder` for `replica`'s edits. Reads the index and the journal's
    /// entries (not the notes' states); cuts a torn journal end and says so in ``openReport``.
    /// Throws ``NoteLibraryError/Code/notALibrary`` when the folder holds none,
    /// ``NoteLibraryError/Code/newerFormat`` when a newer crdtnote wrote it.
    public convenience init(folder: String, replica: ReplicaID, options: Options = Options()) throws(NoteLibraryError) {
        try self.init(folder: folder, replica: replica, options: options, fileSystem: PosixFileSystem())
    }

    /// Opens the library on `fileSystem` (tests pass a fault-injecting one).
    package init(folder: String, replica: ReplicaID, options: Options = Options(), fileSystem: any DurableFileSystem) throws(NoteLibraryError) {
        self.folder = folder
        self.replica = replica
        self.options = options
        self.disk = LibraryDisk(folder: folder, fileSystem: fileSystem)
        self.state = LibraryState()
        let lock = try disk.lock(timeout: options.lockTimeout)
        defer { lock.unlock() }
        // Opening reads; it does not list the notes folder. Files a crash left (an unfinished
        // compaction's pack, an old journal) are removed by the next compaction.
        try reload(cleaning: false)
    }

    /// Makes a new, empty library in `folder` (created when missing; it must be empty
    /// otherwise) and opens it. Durable when it returns.
    public static func create(folder: String, replica: ReplicaID, options: Options = Options()) throws(NoteLibraryError) -> NoteLibrary {
        try create(folder: folder, replica: replica, options: options, fileSystem: PosixFileSystem())
    }

    /// Makes a new library on `fileSystem` (tests pass a fault-injecting one).
    package static func create(folder: String, replica: ReplicaID, options: Options = Options(),
                               fileSystem: any DurableFileSystem) throws(NoteLibraryError) -> NoteLibrary {
        try LibraryDisk(folder: folder, fileSystem: fileSystem).createLibrary()
        return try NoteLibrary(folder: folder, replica: replica, options: options, fileSystem: fileSystem)
    }

    /// What opening found and repaired (and, after calls that read other processes' appends,
    /// what they found).
    public var openReport: OpenReport { locked { state.report } }

    /// Runs `body` holding this process's mutex (no file lock: for reading this process's view).
    func locked<R>(_ body: () throws(NoteLibraryError) -> R) throws(NoteLibraryError) -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }

    func locked<R>(_ body: () -> R) -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return body()
    }

    /// Runs `body` holding the mutex and the folder's lock, after reading what other processes
    /// appended since this one last looked.
    func withAccess<R>(_ body: () throws(NoteLibraryError) -> R) throws(NoteLibraryError) -> R {
        try withAccess({ $0 }, body)
    }

    /// ``withAccess(_:)`` for a body that throws its own errors; the library's become `E`s.
    func withAccess<R, E: Error>(_ wrap: (NoteLibraryError) -> E, _ body: () throws(E) -> R) throws(E) -> R {
        mutex.lock()
        defer { mutex.unlock() }
        guard !state.closed else { throw wrap(NoteLibraryError(.closed, "the library at \(folder) is closed")) }
        let lock: DurableFileLock
        do { lock = try disk.lock(timeout: options.lockTimeout) } catch { throw wrap(error) }
        defer { lock.unlock() }
        do { try catchUp() } catch { throw wrap(error) }
        return try body()
    }
}

/// Everything a library holds in memory: the listing of every note, the journal's bytes and
/// the notes decoded lately.
struct LibraryState {
    var index = LibraryIndex()
    /// Every note by number (the index's notes, kept current by the journal's entries).
    var notes: [UInt32: LibraryNote] = [:]
    var numbers: [String: UInt32] = [:]
    /// The current journal's bytes as far as they have been read or written.
    var journal: [UInt8] = []
    /// The current journal's file name.
    var journalName = ""
    /// `journal.count` when the last flush returned.
    var syncedEnd = 0
    var cache: [UInt32: NoteText] = [:]
    var cacheOrder: [UInt32] = []
    var report = NoteLibrary.OpenReport()
    var closed = false
}
