import CRDTNote
import Foundation

/// A model of `CKSyncEngine` over an ``InMemoryCloudDatabase``, driving an
/// ``ExternalSyncAdapter`` as `CKSyncEngine` drives its delegate, so the adapter's code runs in
/// tests as it runs on a device.
///
/// What it models: pending record changes (an ordered set) and a pending zone save; batches the
/// adapter builds on request; events in `CKSyncEngine`'s order (`willFetchChanges`, database
/// changes, `willFetchRecordZoneChanges`, pages of record changes, `didFetchRecordZoneChanges`,
/// `didFetchChanges`; `willSendChanges`, zone saves, one `sentRecordZoneChanges` per batch,
/// `didSendChanges`); a state serialization handed over in `stateUpdate` events only every
/// `stateUpdateInterval` changes, so a crash loses the changes since the last one; account
/// changes that clear pending changes and tokens; the database's zone deletions with their
/// reason (`deleteZone`, `purgeZone`, `resetEncryptedData(of:)`), reported once; fetching one
/// record by name. Pending changes of a failed save are dropped unless the failure is transient,
/// as `CKSyncEngine` drops them.
public actor SyncEngineModel: ExternalSyncEngine {
    /// Thrown by ``fetchChanges()`` and ``sendChanges()`` once the model has crashed.
    public struct Crashed: Error {}

    /// The adapter events go to.
    public let adapter: ExternalSyncAdapter
    /// The notes zone.
    public let zone: RecordZoneID
    /// The signed-in account's database (nil: signed out).
    var database: InMemoryCloudDatabase?
    /// The signed-in account.
    var account: String?
    var state: SavedState
    /// The account of the state the model started from (nil: none).
    let restoredAccount: String?
    var started = false
    /// State changes since the last `stateUpdate`.
    var unsavedStateChanges = 0
    let stateUpdateInterval: Int
    var crashAfter: Int?
    /// Events delivered so far, by name, in order.
    public private(set) var eventLog: [String] = []
    /// Records fetched by name (``fetchRecord(named:)``), in order.
    public private(set) var recordsFetchedByName: [String] = []
    /// Whether the model has crashed (it does nothing more).
    public private(set) var crashed = false
    /// Whether conflicts report the server record without its asset bytes (as CloudKit may).
    var conflictsWithoutAssets = false
    /// Runs once, after the next modify request and before its answer is delivered.
    var afterNextRequest: (@Sendable () -> Void)?

    /// What the state serialization holds.
    struct SavedState: Codable {
        var account: String?
        var token: [UInt8]?
        var pending: [Change] = []
        var zoneSave = false
        /// How far the database's zone deletions were read (nil: not yet).
        var databasePosition: Int?

        struct Change: Codable, Hashable {
            var delete: Bool
            var name: String
        }
    }

    /// A model signed into `account` with `database` (both nil: signed out), resuming from
    /// `stateSerialization` (what the adapter saved; nil: a first launch), delivering a state
    /// update every `stateUpdateInterval` changes of its state.
    public init(adapter: ExternalSyncAdapter, database: InMemoryCloudDatabase?, account: String?, zone: RecordZoneID,
                stateSerialization: [UInt8]?, stateUpdateInterval: Int = 4) throws {
        self.adapter = adapter
        self.database = database
        self.account = account
        self.zone = zone
        self.stateUpdateInterval = max(stateUpdateInterval, 1)
        if let bytes = stateSerialization {
            state = try JSONDecoder().decode(SavedState.self, from: Data(bytes))
            restoredAccount = state.account
        } else {
            state = SavedState(account: account)
            restoredAccount = nil
        }
    }

    /// Fills the model's pending changes from the library, as `CloudKitNoteSync.start` does once
    /// it has created its engine: call it once after creating the model.
    public func launch() async {
        await adapter.reconcile(engine: self)
    }

    /// The model crashes when it is about to deliver its `count`-th event from now.
    public func crash(afterEvents count: Int) {
        crashAfter = eventLog.count + count
    }

    /// Runs `body` once, after the next batch reached the server and before the answer is
    /// delivered (an edit typed while a record is in flight).
    package func whenBatchSent(_ body: @escaping @Sendable () -> Void) {
        afterNextRequest = body
    }

    /// Makes conflicts report the server record without its asset bytes.
    package func setConflictsWithoutAssets(_ value: Bool) {
        conflictsWithoutAssets = value
    }

    // MARK: ExternalSyncEngine

    /// The pending record changes, in the order they were added.
    package func pendingRecordChanges() -> [PendingRecordChange] {
        state.pending.map { $0.delete ? .delete($0.name) : .save($0.name) }
    }

    /// Adds changes not yet pending.
    package func addPendingRecordChanges(_ changes: [PendingRecordChange]) {
        for change in changes.map(Self.stored) where !state.pending.contains(change) {
            state.pending.append(change)
            unsavedStateChanges += 1
        }
    }

    /// Removes changes.
    package func removePendingRecordChanges(_ changes: [PendingRecordChange]) {
        let removed = Set(changes.map(Self.stored))
        let before = state.pending.count
        state.pending.removeAll { removed.contains($0) }
        if state.pending.count != before { unsavedStateChanges += 1 }
    }

    /// Adds a save of the zone.
    package func addPendingZoneSave() {
        if !state.zoneSave { unsavedStateChanges += 1 }
        state.zoneSave = true
    }

    /// The record's current version on the server, by name.
    package func fetchRecord(named name: String) async throws(RecordStoreError) -> CloudRecord? {
        recordsFetchedByName.append(name)
        guard let database else { throw RecordStoreError(.unhandledCloudKitError, recordName: name, "not signed in") }
        let results: [String: Result<CloudRecord, CloudKitFailure>]
        do {
            results = try await database.records(named: [name], in: zone)
        } catch {
            if error.code == .zoneNotFound { return nil }
            throw RecordStoreError(cloudKit: error, recordName: name)
        }
        switch results[name] {
        case .success(let record)?: return record
        case .failure(let failure)? where failure.code == .unknownItem: return nil
        case .failure(let failure)?: throw RecordStoreError(cloudKit: failure, recordName: name)
        case nil: return nil
        }
    }

    static func stored(_ change: PendingRecordChange) -> SavedState.Change {
        switch change {
        case .save(let name): SavedState.Change(delete: false, name: name)
        case .delete(let name): SavedState.Change(delete: true, name: name)
        }
    }

    // MARK: Events

    /// Delivers `event` to the adapter, or crashes.
    func emit(_ event: ExternalSyncEvent, _ name: String) async throws(Crashed) {
        if crashed { throw Crashed() }
        if let crashAfter, eventLog.count >= crashAfter {
            crashed = true
            throw Crashed()
        }
        eventLog.append(name)
        await adapter.handle(event, engine: self)
    }

    /// Delivers a state update when enough changes gathered (`CKSyncEngine` batches them).
    func checkpoint() async throws(Crashed) {
        guard unsavedStateChanges >= stateUpdateInterval else { return }
        try await saveState()
    }

    /// Delivers a state update now.
    func saveState() async throws(Crashed) {
        unsavedStateChanges = 0
        let bytes: [UInt8]
        do { bytes = Array(try JSONEncoder().encode(state)) } catch { preconditionFailure("the model's state always encodes: \(error)") }
        try await emit(.stateUpdate(bytes), "stateUpdate")
    }
}
