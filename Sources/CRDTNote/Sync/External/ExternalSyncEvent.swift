/// What an external sync engine tells ``ExternalSyncAdapter``: every case of
/// `CKSyncEngine.Event`, in portable types, records as `CloudRecord`, errors as
/// `RecordStoreError`, the state serialization as bytes.
package enum ExternalSyncEvent: Sendable {
    /// The engine's state changed; `bytes` is its serialization, to be restored at the next launch.
    case stateUpdate([UInt8])
    /// The device's account changed.
    case accountChange(AccountChange)
    /// Zones changed or went away in the database.
    case fetchedDatabaseChanges(modified: [RecordZoneID], deleted: [ZoneDeletion])
    /// Records changed or were deleted in a zone (one page of the change feed).
    case fetchedRecordZoneChanges(modified: [CloudRecord], deleted: [String])
    /// The answer to a batch of zone saves and deletes.
    case sentDatabaseChanges(SentZoneChanges)
    /// The answer to a batch of record saves and deletes.
    case sentRecordZoneChanges(SentRecordChanges)
    /// A fetch begins.
    case willFetchChanges
    /// A zone's changes are about to be fetched.
    case willFetchRecordZoneChanges(RecordZoneID)
    /// A zone's changes were fetched, or failed (`error`).
    case didFetchRecordZoneChanges(RecordZoneID, error: RecordStoreError?)
    /// A fetch ended: every change up to now was delivered.
    case didFetchChanges
    /// A send begins.
    case willSendChanges
    /// A send ended.
    case didSendChanges

    /// How the account changed (`CKSyncEngine.Event.AccountChange.ChangeType`); accounts are
    /// the user record names CloudKit gives.
    package enum AccountChange: Hashable, Sendable {
        /// Signed in (or the engine first saw this account).
        case signIn(current: String)
        /// Signed out.
        case signOut(previous: String)
        /// Signed out of one account and into another.
        case switchAccounts(previous: String, current: String)
    }

    /// A zone that went away, and why (`CKDatabase.DatabaseChange.Deletion`).
    package struct ZoneDeletion: Hashable, Sendable {
        /// The zone.
        package var zone: RecordZoneID
        /// Why it went away.
        package var reason: NoteSyncZoneDeletion.Reason

        /// A zone deletion.
        package init(zone: RecordZoneID, reason: NoteSyncZoneDeletion.Reason) {
            self.zone = zone
            self.reason = reason
        }
    }

    /// The answer to a batch of record saves and deletes.
    package struct SentRecordChanges: Sendable {
        /// Records saved, as the server returned them.
        package var saved: [CloudRecord]
        /// Records that could not be saved: the record sent, and why.
        package var failedSaves: [(record: CloudRecord, error: RecordStoreError)]
        /// Names of the records deleted.
        package var deleted: [String]
        /// Names of the records that could not be deleted, and why.
        package var failedDeletes: [String: RecordStoreError]

        /// The answer to a batch.
        package init(saved: [CloudRecord] = [], failedSaves: [(record: CloudRecord, error: RecordStoreError)] = [],
                    deleted: [String] = [], failedDeletes: [String: RecordStoreError] = [:]) {
            self.saved = saved
            self.failedSaves = failedSaves
            self.deleted = deleted
            self.failedDeletes = failedDeletes
        }
    }

    /// The answer to a batch of zone saves and deletes.
    package struct SentZoneChanges: Sendable {
        /// Zones saved.
        package var saved: [RecordZoneID]
        /// Zones that could not be saved, and why.
        package var failedSaves: [(zone: RecordZoneID, error: RecordStoreError)]
        /// Zones deleted.
        package var deleted: [RecordZoneID]
        /// Zones that could not be deleted, and why.
        package var failedDeletes: [(zone: RecordZoneID, error: RecordStoreError)]

        /// The answer to a batch.
        package init(saved: [RecordZoneID] = [], failedSaves: [(zone: RecordZoneID, error: RecordStoreError)] = [],
                    deleted: [RecordZoneID] = [], failedDeletes: [(zone: RecordZoneID, error: RecordStoreError)] = []) {
            self.saved = saved
            self.failedSaves = failedSaves
            self.deleted = deleted
            self.failedDeletes = failedDeletes
        }
    }
}

/// One batch for the external engine to send (`CKSyncEngine.RecordZoneChangeBatch`).
package struct ExternalSyncBatch: Sendable {
    /// Records to save, built from the library's notes.
    package var recordsToSave: [CloudRecord]
    /// Names of records to delete.
    package var recordNamesToDelete: [String]
}
