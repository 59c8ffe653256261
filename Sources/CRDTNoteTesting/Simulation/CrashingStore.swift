import CRDTNote
/// A device's view of the database in a simulation (the CloudKit-shaped store over the in-memory
/// database, as an app has over CloudKit), which can make the device's process die:
/// armed, it lets a number of requests through, then kills the process at the next one, either
/// before the request reaches the server or after the server applied it (the response never
/// arrives). A dead process makes no more requests: every later call fails at once, so the
/// engine's sync stops and the simulation restarts the device from its last persisted state.
actor CrashingStore: RecordZoneSubscribing {
    let base: CloudKitStyleRecordStore<InMemoryCloudDatabase>
    private var countdown: Int?
    private var applyFatal = false
    /// Whether the process died.
    private(set) var dead = false

    init(base: CloudKitStyleRecordStore<InMemoryCloudDatabase>) { self.base = base }

    /// Dies at request number `after` (0: the next one), after applying it when `applying`.
    func arm(after: Int, applying: Bool) {
        countdown = max(after, 0)
        applyFatal = applying
    }

    private static let deadError = RecordStoreError(.storageFailure, "simulated: the process died")

    private func perform<T: Sendable>(_ body: () async throws(RecordStoreError) -> T) async throws(RecordStoreError) -> T {
        if dead { throw Self.deadError }
        guard let left = countdown else { return try await body() }
        if left > 0 {
            countdown = left - 1
            return try await body()
        }
        countdown = nil
        dead = true
        if applyFatal { _ = try? await body() }
        throw Self.deadError
    }

    func createZone(_ zone: RecordZoneID) async throws(RecordStoreError) {
        try await perform { () async throws(RecordStoreError) in try await base.createZone(zone) }
    }

    func deleteZone(_ zone: RecordZoneID) async throws(RecordStoreError) {
        try await perform { () async throws(RecordStoreError) in try await base.deleteZone(zone) }
    }

    func fetchRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) -> [String: CloudRecord] {
        try await perform { () async throws(RecordStoreError) in try await base.fetchRecords(named: names, in: zone) }
    }

    func saveRecords(_ records: [CloudRecord], in zone: RecordZoneID) async throws(RecordStoreError) -> [CloudRecord] {
        try await perform { () async throws(RecordStoreError) in try await base.saveRecords(records, in: zone) }
    }

    func deleteRecords(named names: [String], in zone: RecordZoneID) async throws(RecordStoreError) {
        try await perform { () async throws(RecordStoreError) in try await base.deleteRecords(named: names, in: zone) }
    }

    func fetchChanges(in zone: RecordZoneID, since token: ChangeToken?, limit: Int) async throws(RecordStoreError) -> RecordChanges {
        try await perform { () async throws(RecordStoreError) in try await base.fetchChanges(in: zone, since: token, limit: limit) }
    }

    func saveZoneSubscription(_ subscriptionID: String, for zone: RecordZoneID) async throws(RecordStoreError) {
        try await perform { () async throws(RecordStoreError) in try await base.saveZoneSubscription(subscriptionID, for: zone) }
    }
}
