@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport
import CRDTNoteDurableFiles

/// Records the waits a sync engine asks for instead of sleeping.
typealias SleepRecorder = RecordingClock

/// A store that runs `beforeSave` inside every save request (e.g. to type while it is in flight).
struct HookedStore: RecordStore {
    let backing: CloudKitStyleRecordStore<InMemoryCloudDatabase>
    let beforeSave: @Sendable () async -> Void

    func createZone(_ zone: RecordZoneID) async throws(RecordStoreError) { try await backing.createZone(zone) }
    func deleteZone(_ zone: RecordZoneID) async throws(RecordStoreError) { try await backing.deleteZone(zone) }
    func fetchRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) -> [String: CloudRecord] {
        try await backing.fetchRecords(named: names, in: zone)
    }
    func saveRecords(_ records: [CloudRecord], in zone: RecordZoneID) async throws(RecordStoreError) -> [CloudRecord] {
        await beforeSave()
        return try await backing.saveRecords(records, in: zone)
    }
    func deleteRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) {
        try await backing.deleteRecords(named: names, in: zone)
    }
    func fetchChanges(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) async throws(RecordStoreError) -> RecordChanges {
        try await backing.fetchChanges(in: zone, since: token, limit: limit)
    }
}

/// Lets a test hand an engine to a hook created before the engine.
actor EngineBox {
    var engine: NoteSyncEngine?
    var fired = false
    func set(_ engine: NoteSyncEngine) { self.engine = engine }
    /// Returns the engine the first time only.
    func takeOnce() -> NoteSyncEngine? {
        guard !fired else { return nil }
        fired = true
        return engine
    }
}

/// One device of a sync test: a ``NoteLibrary`` on the device's own simulated disk (a
/// fault-injecting in-memory file system, so nothing is left behind and power can be cut) and
/// an engine syncing it with `store`.
struct SyncTestDevice {
    static let folder = "/device/notes"
    let disk: FaultInjectingFileSystem
    let store: any RecordStore
    let configuration: NoteSyncConfiguration
    let clock: RecordingClock
    var library: NoteLibrary
    var engine: NoteSyncEngine

    /// A new device with an empty library.
    init(store: any RecordStore, replica: ReplicaID, configuration: NoteSyncConfiguration = NoteSyncConfiguration(),
         clock: RecordingClock = RecordingClock(), disk: FaultInjectingFileSystem = FaultInjectingFileSystem()) throws {
        self.disk = disk
        self.store = store
        self.configuration = configuration
        self.clock = clock
        library = try NoteLibrary.create(folder: Self.folder, replica: replica, fileSystem: disk)
        engine = NoteSyncEngine(library: library, store: store, configuration: configuration, retryClock: clock)
    }

    /// The app starts again on the same disk: the library is opened again from its folder
    /// (after `crash` was applied to the disk), with a new engine.
    mutating func restart(replica: ReplicaID, crash: (FaultInjectingFileSystem) -> Void = { $0.crashProcess() }) throws {
        crash(disk)
        library = try NoteLibrary(folder: Self.folder, replica: replica, fileSystem: disk)
        engine = NoteSyncEngine(library: library, store: store, configuration: configuration, retryClock: clock)
    }

    /// Names of the notes the server lacks changes of, sorted.
    func unsaved() throws -> [String] { try library.list().filter(\.unsaved).map(\.name).sorted() }
    /// Every note's name, sorted.
    func names() throws -> [String] { try library.list().map(\.name).sorted() }
    /// Note `name`'s text, nil when the library has no such note.
    func text(_ name: String) throws -> String? {
        try library.summary(of: name) == nil ? nil : try library.text(of: name)
    }
}

/// True the first time `take()` is called only.
actor OnceFlag {
    private(set) var fired = false
    func take() -> Bool {
        guard !fired else { return false }
        fired = true
        return true
    }
}
