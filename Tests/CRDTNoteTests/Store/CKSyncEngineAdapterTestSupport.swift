import Foundation
import Testing
@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
import CRDTNoteToolSupport
import CRDTNoteDurableFiles

/// One device of the CKSyncEngine adapter tests: a note library on a crashable file system, an
/// `ExternalSyncAdapter` and the `SyncEngineModel` driving it, relaunched after a crash from
/// what the library kept, as an app is.
struct EngineDevice {
    let id: UInt64
    let fileSystem = FaultInjectingFileSystem()
    let configuration: NoteSyncConfiguration
    var database: InMemoryCloudDatabase?
    var account: String?
    var library: NoteLibrary
    var adapter: ExternalSyncAdapter
    var model: SyncEngineModel
    var launches: UInt64 = 1
    /// Everything the adapter reported, over every launch.
    var errors: [NoteSyncError] = []
    var failures: [String: NoteSyncError] = [:]
    static let folder = "/notes"

    init(_ id: UInt64, database: InMemoryCloudDatabase?, account: String? = "alice",
         configuration: NoteSyncConfiguration = NoteSyncConfiguration(), stateUpdateInterval: Int = 3) throws {
        self.id = id
        self.configuration = configuration
        self.database = database
        self.account = account
        library = try NoteLibrary.create(folder: Self.folder, replica: ReplicaID(rawValue: id << 16 | 1), fileSystem: fileSystem)
        (adapter, model) = try Self.launch(library, database, account, configuration, stateUpdateInterval)
    }

    /// The adapter and model an app creates at launch, from the state the library kept.
    static func launch(_ library: NoteLibrary, _ database: InMemoryCloudDatabase?, _ account: String?,
                       _ configuration: NoteSyncConfiguration, _ interval: Int) throws -> (ExternalSyncAdapter, SyncEngineModel) {
        let saved = try ExternalSyncAdapter.savedEngineState(in: library)
        let adapter = ExternalSyncAdapter(library: library, configuration: configuration, startedWithoutState: saved == nil)
        let model = try SyncEngineModel(adapter: adapter, database: database, account: account, zone: configuration.zone,
                                        stateSerialization: saved, stateUpdateInterval: interval)
        return (adapter, model)
    }

    /// What the app does at launch after creating the engine.
    func start() async {
        await model.launch()
    }

    /// The process dies: unflushed library writes and the engine's unsaved state are lost;
    /// the app launches again.
    mutating func crashAndRelaunch(stateUpdateInterval: Int = 3) async throws {
        await collectReport()
        fileSystem.crash()
        launches += 1
        library = try NoteLibrary(folder: Self.folder, replica: ReplicaID(rawValue: id << 16 | launches), fileSystem: fileSystem)
        (adapter, model) = try Self.launch(library, database, account, configuration, stateUpdateInterval)
        await start()
    }

    /// A fetch then a send; false when the model crashed on the way.
    @discardableResult
    mutating func sync() async -> Bool {
        do {
            try await model.fetchChanges()
            try await model.sendChanges()
        } catch {
            return false
        }
        await collectReport()
        return true
    }

    /// Keeps what the adapter reported.
    mutating func collectReport() async {
        let report = await adapter.takeReport()
        errors += report.notes.errors
        failures.merge(report.notes.failures) { $1 }
    }

    /// Types `text` at the end of note `name` (creating it), durably: the user saw it saved.
    func type(_ text: String, into name: String) async throws {
        if try library.summary(of: name) == nil {
            try library.create(name, text: text)
        } else {
            try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in
                try note.insert(text, atScalarOffset: note.scalarCount)
            }
        }
        try library.flush()
        await adapter.notesChanged([name], engine: model)
    }

    /// Deletes note `name`, as the app does.
    func delete(_ name: String) async throws {
        try library.delete(name)
        await adapter.notesChanged([name], engine: model)
    }
}

/// The text of every note record in `database`'s notes zone, by name.
func serverNotes(_ database: InMemoryCloudDatabase, zone: RecordZoneID = NoteSyncConfiguration().zone) async throws -> [String: String] {
    var notes: [String: String] = [:]
    for record in await database.allRecords(in: zone) where record.recordType == NoteSchema.recordType {
        notes[record.recordName] = try NoteSyncCore.text(from: record, replica: .test(999)).string
    }
    return notes
}

/// Every note's text in `library`, by name.
func libraryNotes(_ library: NoteLibrary) throws -> [String: String] {
    var notes: [String: String] = [:]
    for summary in try library.list() { notes[summary.name] = try library.text(of: summary.name) }
    return notes
}

/// How often `token` occurs in `text`.
func occurrences(of token: String, in text: String) -> Int {
    text.components(separatedBy: token).count - 1
}

/// A database with the notes zone and two devices that both hold note `name` with `text`.
func twoDevices(sharing name: String, text: String, configuration: NoteSyncConfiguration = NoteSyncConfiguration()) async throws
    -> (InMemoryCloudDatabase, EngineDevice, EngineDevice) {
    let database = InMemoryCloudDatabase()
    try await database.saveZone(configuration.zone)
    var a = try EngineDevice(1, database: database, configuration: configuration)
    var b = try EngineDevice(2, database: database, configuration: configuration)
    await a.start()
    await b.start()
    try await a.type(text, into: name)
    await a.sync()
    await b.sync()
    return (database, a, b)
}
