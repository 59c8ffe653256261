@testable import CRDTNote
import CRDTNoteTestSupport
@testable import CRDTNoteTesting
@testable import CRDTNoteTraces
@testable import CRDTNoteFiles
@testable import CRDTNoteSupport

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
