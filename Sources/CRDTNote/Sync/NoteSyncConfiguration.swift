/// How `NoteSyncEngine` behaves: zone, batch sizes, retry bounds, the policy choices, and what
/// this device tells the others (its name) and writes for them (the payload format).
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

    /// What happens when the zone was deleted: a request fails with `userDeletedZone`, or the
    /// server reports the zone deleted (``NoteSyncZoneDeletion/Reason/deleted``). A purged
    /// zone always removes the local notes; a zone that vanished (`zoneNotFound`, a server
    /// reset) is always saved again.
    public enum UserDeletedZonePolicy: Hashable, Sendable {
        /// Keep the local notes, send nothing and do not create the zone again until the app
        /// consents (``NoteSyncCore/consentToRecreateZone()``); until then syncing throws
        /// `.zoneDeletedByUser` (default: re-creating a zone the user deleted needs the user).
        case waitForConsent
        /// Create the zone again and send every local note into it.
        case recreateAndUpload
    }

    /// The zone holding the notes.
    public var zone: RecordZoneID
    /// Tries per request before giving up with `.attemptsExhausted` (conflict rounds included).
    public var maxAttempts: Int
    /// Most records per save request (split further on `limitExceeded`).
    public var batchSize: Int
    /// Records per change-feed page.
    public var pageLimit: Int
    /// The wait before retry n (1-based) when the store gives no retry-after:
    /// `baseBackoff * 2^(n-1)`, capped at `maxBackoff`.
    public var baseBackoff: Duration
    /// Longest wait between tries.
    public var maxBackoff: Duration
    /// Delete-versus-edit policy.
    public var deleteConflictPolicy: DeleteConflictPolicy
    /// User-deleted-zone policy.
    public var userDeletedZonePolicy: UserDeletedZonePolicy
    /// The record type of new note records.
    public var recordType: String
    /// Inline-versus-asset limits for writing note records.
    public var recordLimits: NoteLimits
    /// The one CloudKit type of the `text` mirror in this container's note records (ASSET by
    /// default, as the classic note app's containers have it; see ``NoteTextMirror``).
    public var textMirror: NoteTextMirror
    /// The id of the change-notification subscription on the zone (silent pushes when any
    /// device changes a note), saved once by the engine when the store supports it
    /// (`RecordZoneSubscribing`), remembered in the note library and saved again after the zone
    /// was recreated; nil: no subscription (the app polls).
    public var subscriptionID: String?
    /// Which snapshot format note records are written in: ``PayloadFormatPolicy/automatic``
    /// (default: the newest every active device reads, Docs/FORMAT.md "Mixed fleets") or pinned.
    public var payloadFormat: PayloadFormatPolicy
    /// Whether note records are written in the encrypted layout (``NoteRecordLayout/encrypted``):
    /// ``RecordEncryptionPolicy/automatic`` (default: once every active device announces that it
    /// reads it, Docs/FORMAT.md "Mixed fleets"), `always` or `never`.
    public var recordEncryption: RecordEncryptionPolicy
    /// How recently a device must have announced itself (the server's modification time of its
    /// device record, else the time it wrote in it) to count when the automatic format is
    /// chosen: 30 days by default, at least 2 days (twice the ``announcementInterval``). A
    /// device quiet for longer no longer holds the fleet back; if it comes back it meets the
    /// version gate, keeps its edits and reports the notes it needs an update for.
    public var activityWindow: Duration
    /// The name of this device in its device record ("Anna's iPhone"), for apps that list the
    /// devices syncing the notes; nil: none. Cut to 256 UTF-8 bytes.
    public var deviceName: String?
    /// The newest payload minimum reader this device reads and announces: this release's, or
    /// lower where the simulation plays a device on an older release.
    package var readerVersion: UInt16 = NoteFormat.readerVersion
    /// Whether this device reads (and announces) the encrypted record layout: true for this
    /// release, false where a test plays a device on a release before it (0.2.0 and earlier).
    package var readsEncryptedLayout = true
    /// Most records remembered as passed over for needing a newer reader (each one rewrites the
    /// library's fleet state); beyond it the change feed is read again from its start instead.
    package var maximumRecordsRemembered = 1_000

    /// How often a device record is written again when nothing in it changed: once a day.
    public static let announcementInterval: Duration = .seconds(86_400)

    /// A configuration; the defaults suit CloudKit.
    public init(zone: RecordZoneID = RecordZoneID(zoneName: "Notes"), maxAttempts: Int = 8, batchSize: Int = 200,
                pageLimit: Int = 200, baseBackoff: Duration = .milliseconds(500), maxBackoff: Duration = .seconds(60),
                deleteConflictPolicy: DeleteConflictPolicy = .editResurrects,
                userDeletedZonePolicy: UserDeletedZonePolicy = .waitForConsent, recordType: String = NoteSchema.recordType,
                recordLimits: NoteLimits = .default, textMirror: NoteTextMirror = .asset,
                payloadFormat: PayloadFormatPolicy = .automatic, activityWindow: Duration = .seconds(30 * 86_400),
                deviceName: String? = nil, recordEncryption: RecordEncryptionPolicy = .automatic) {
        self.zone = zone
        self.maxAttempts = max(maxAttempts, 1)
        self.batchSize = max(batchSize, 1)
        self.pageLimit = max(pageLimit, 1)
        self.baseBackoff = baseBackoff
        self.maxBackoff = maxBackoff
        self.deleteConflictPolicy = deleteConflictPolicy
        self.userDeletedZonePolicy = userDeletedZonePolicy
        self.recordType = recordType
        self.recordLimits = recordLimits
        self.textMirror = textMirror
        self.subscriptionID = nil
        self.payloadFormat = payloadFormat
        self.activityWindow = max(activityWindow, Self.announcementInterval * 2)
        self.deviceName = deviceName
        self.recordEncryption = recordEncryption
    }

    /// The wait before retry `attempt` (1-based) when the store suggests none.
    func backoff(attempt: Int) -> Duration {
        min(maxBackoff, baseBackoff * (1 << min(max(attempt - 1, 0), 20)))
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
    /// Time spent waiting before retries (as asked of the retry clock).
    public var timeWaited: Duration = .zero
    /// Save batches split after `limitExceeded`.
    public var batchSplits = 0
    /// Notes brought back because an edit met a delete.
    public var notesResurrected = 0
    /// Unsaved edits dropped by `.deleteWins`.
    public var editsDroppedByDelete = 0
    /// Times the zone was found missing and recreated.
    public var zoneRecoveries = 0
    /// Times the change token expired (or was not accepted) and the feed was read again from the start.
    public var fullRefetches = 0
    /// Saved records that came back with only some keys and were completed from the record sent.
    public var savedRecordsCompleted = 0
    /// Records fetched again because the copy at hand lacked an asset file.
    public var recordsRefetched = 0
    /// Records of the change feed that could not be read and were passed over (reported).
    public var recordsPassedOver = 0

    /// No activity yet.
    package init() {}
}
