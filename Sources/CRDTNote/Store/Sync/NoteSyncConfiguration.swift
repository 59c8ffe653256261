/// How `NoteSyncEngine` behaves: zone, batch sizes, retry bounds and the two policy choices.
public struct NoteSyncConfiguration: Hashable, Sendable {
    /// What happens when a note one device deleted was edited on another that had not seen the
    /// delete.
    public enum DeleteConflictPolicy: Hashable, Sendable {
        /// The edit brings the note back with the editing device's full text (default: text is
        /// never silently lost; the user can delete it again).
        case editResurrects
        /// The delete wins; the unsaved edit is dropped and counted in `NoteSyncStatistics`.
        case deleteWins
    }

    /// What happens when the user deleted the zone (`userDeletedZone`).
    public enum UserDeletedZonePolicy: Hashable, Sendable {
        /// Recreate the zone and upload every local note again (default).
        case recreateAndUpload
        /// Stop and throw `.zoneDeletedByUser`; the app decides (e.g. asks, or wipes local data).
        case stopSyncing
    }

    /// The zone holding the notes.
    public var zone: RecordZoneID
    /// Tries per request before giving up with `.attemptsExhausted` (conflict rounds included).
    public var maxAttempts: Int
    /// Most records per save request (split further on `limitExceeded`).
    public var batchSize: Int
    /// Records per change-feed page.
    public var pageLimit: Int
    /// Seconds to wait before retry n (1-based) when the store gives no retry-after:
    /// `baseBackoffSeconds * 2^(n-1)`, capped at `maxBackoffSeconds`.
    public var baseBackoffSeconds: Double
    /// Longest wait between tries.
    public var maxBackoffSeconds: Double
    /// Delete-versus-edit policy.
    public var deleteConflictPolicy: DeleteConflictPolicy
    /// User-deleted-zone policy.
    public var userDeletedZonePolicy: UserDeletedZonePolicy
    /// The record type of new note records.
    public var recordType: String
    /// Inline-versus-asset limits for writing note records.
    public var recordLimits: NoteRecordLimits

    /// A configuration; the defaults suit CloudKit.
    public init(zone: RecordZoneID = RecordZoneID(zoneName: "Notes"), maxAttempts: Int = 8, batchSize: Int = 200,
                pageLimit: Int = 200, baseBackoffSeconds: Double = 0.5, maxBackoffSeconds: Double = 60,
                deleteConflictPolicy: DeleteConflictPolicy = .editResurrects,
                userDeletedZonePolicy: UserDeletedZonePolicy = .recreateAndUpload, recordType: String = NoteSchema.recordType,
                recordLimits: NoteRecordLimits = .standard) {
        self.zone = zone
        self.maxAttempts = max(maxAttempts, 1)
        self.batchSize = max(batchSize, 1)
        self.pageLimit = max(pageLimit, 1)
        self.baseBackoffSeconds = baseBackoffSeconds
        self.maxBackoffSeconds = maxBackoffSeconds
        self.deleteConflictPolicy = deleteConflictPolicy
        self.userDeletedZonePolicy = userDeletedZonePolicy
        self.recordType = recordType
        self.recordLimits = recordLimits
    }

    /// The wait before retry `attempt` (1-based) when the store suggests none.
    func backoff(attempt: Int) -> Double {
        min(maxBackoffSeconds, baseBackoffSeconds * Double(1 << min(max(attempt - 1, 0), 20)))
    }
}

/// What the sync engine did, cumulatively.
public struct NoteSyncStatistics: Hashable, Sendable {
    /// Records saved and confirmed.
    public var recordsSaved = 0
    /// Records received from the change feed.
    public var recordsFetched = 0
    /// `serverRecordChanged` conflicts resolved by merging.
    public var conflictsMerged = 0
    /// Requests retried after transient failures.
    public var retries = 0
    /// Seconds spent waiting before retries (as passed to the sleep function).
    public var secondsWaited = 0.0
    /// Save batches split after `limitExceeded`.
    public var batchSplits = 0
    /// Notes brought back because an edit met a delete.
    public var notesResurrected = 0
    /// Unsaved edits dropped by `.deleteWins`.
    public var editsDroppedByDelete = 0
    /// Times the zone was found missing and recreated.
    public var zoneRecoveries = 0
    /// Times the change token expired and the feed was read again from the start.
    public var fullRefetches = 0

    /// No activity yet.
    public init() {}
}
