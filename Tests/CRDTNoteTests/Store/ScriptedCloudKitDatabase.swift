@testable import CRDTNote
@testable import CRDTNoteTesting

/// The in-memory database with scripted failures: its next record requests (fetch, save or
/// delete, zone changes) each fail with the next `CloudKitFailure` of the script, then it
/// forwards again. For what a `FaultPlan` does not draw: any `CKError` code, a chosen retry
/// delay, a request-level partial failure with chosen items. Zone and subscription requests
/// are never scripted.
actor ScriptedCloudKitDatabase: CloudKitStyleDatabase {
    let backing: InMemoryCloudDatabase
    private var script: [CloudKitFailure]
    /// Scripted failures thrown so far.
    private(set) var failuresServed = 0

    init(backing: InMemoryCloudDatabase = InMemoryCloudDatabase(), failing script: [CloudKitFailure] = []) {
        self.backing = backing
        self.script = script
    }

    func setScript(_ failures: [CloudKitFailure]) { script = failures }

    private func next() throws(CloudKitFailure) {
        guard !script.isEmpty else { return }
        failuresServed += 1
        throw script.removeFirst()
    }

    func saveZone(_ zone: RecordZoneID) async throws(CloudKitFailure) {
        try await backing.saveZone(zone)
    }

    func deleteZone(_ zone: RecordZoneID) async throws(CloudKitFailure) {
        try await backing.deleteZone(zone)
    }

    func saveZoneSubscription(_ subscriptionID: String, for zone: RecordZoneID) async throws(CloudKitFailure) {
        try await backing.saveZoneSubscription(subscriptionID, for: zone)
    }

    func records(named names: [String], in zone: RecordZoneID) async throws(CloudKitFailure) -> [String: Result<CloudRecord, CloudKitFailure>] {
        try next()
        return try await backing.records(named: names, in: zone)
    }

    func modifyRecords(saving: [CloudRecord], deleting: [String], in zone: RecordZoneID) async throws(CloudKitFailure)
        -> (saveResults: [String: Result<CloudRecord, CloudKitFailure>], deleteResults: [String: Result<Void, CloudKitFailure>]) {
        try next()
        return try await backing.modifyRecords(saving: saving, deleting: deleting, in: zone)
    }

    func recordZoneChanges(in zone: RecordZoneID, since token: ChangeToken?, resultsLimit: Int) async throws(CloudKitFailure)
        -> (modifications: [String: Result<CloudRecord, CloudKitFailure>], deletions: [String], changeToken: ChangeToken, moreComing: Bool) {
        try next()
        return try await backing.recordZoneChanges(in: zone, since: token, resultsLimit: resultsLimit)
    }
}
