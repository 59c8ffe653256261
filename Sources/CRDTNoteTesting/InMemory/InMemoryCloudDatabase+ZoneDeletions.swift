import CRDTNote

/// Zones deleted the ways CloudKit reports (`CKDatabase.DatabaseChange.Deletion.Reason`): by
/// the app (``InMemoryCloudDatabase/deleteZone(_:)``: later requests fail with `zoneNotFound`),
/// by the user in Settings ("delete data from iCloud", a purge: later requests fail with
/// `userDeletedZone` until the zone is saved again), or by an encrypted-data reset (requests
/// fail with `zoneNotFound`). Each deletion is logged for a database-change fetch.
extension InMemoryCloudDatabase {
    /// A zone deletion as a database-change fetch reports it.
    public struct ZoneDeletion: Hashable, Sendable {
        /// The zone deleted.
        public var zone: RecordZoneID
        /// Why.
        public var reason: NoteSyncZoneDeletion.Reason
    }

    /// The user deletes the app's data from iCloud in Settings: the zone, its records and its
    /// subscriptions go, requests fail with `userDeletedZone` until the zone is saved again,
    /// and the database-change log says `.purged`.
    public func purgeZone(_ zone: RecordZoneID) {
        removeZone(zone, reason: .purged)
        userDeletedZones.insert(zone.zoneName)
    }

    /// The user resets their encrypted data (keychain lost): the zone and its records go and
    /// the database-change log says `.encryptedDataReset`.
    public func resetEncryptedData(of zone: RecordZoneID) {
        removeZone(zone, reason: .encryptedDataReset)
    }

    /// The zone deletions since `position` (0: all), and the position to ask from next time,
    /// as `CKFetchDatabaseChangesOperation` reports deletions since a change token.
    public func zoneDeletions(since position: Int) -> (deletions: [ZoneDeletion], position: Int) {
        let start = min(max(position, 0), deletionLog.count)
        return (Array(deletionLog[start...]), deletionLog.count)
    }

    /// Removes `zone` (if it exists) and logs the deletion.
    func removeZone(_ zone: RecordZoneID, reason: NoteSyncZoneDeletion.Reason) {
        guard zones[zone.zoneName] != nil else { return }
        zones[zone.zoneName] = nil
        dropSubscriptions(of: zone.zoneName)
        deletionLog.append(ZoneDeletion(zone: zone, reason: reason))
    }
}
