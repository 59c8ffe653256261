import CRDTNoteSupport
import CRDTNote
/// What a `NoteSyncSimulation` run did and found.
public struct NoteSyncSimulationReport: Hashable, Sendable {
    /// Devices simulated.
    public var devices: Int
    /// Notes simulated.
    public var notes: Int
    /// Edits counted: made and contained in a persisted state (edits that died with a crashed
    /// process before a persist are not counted).
    public var edits: Int
    /// Save conflicts resolved by merging.
    public var conflictsMerged = 0
    /// Requests retried after failures.
    public var retries = 0
    /// Faults the simulator injected.
    public var faultsInjected = 0
    /// Faults by kind.
    public var faultCounts = FaultCounts()
    /// Counted insertions nobody deleted that are not on every device exactly once (must be 0).
    public var lostEdits = 0
    /// Counted deletions whose text is still on some device (must be 0).
    public var resurrectedEdits = 0
    /// Markers of the first lost insertions (for debugging a failure).
    public var lostMarkers: [String] = []
    /// Markers of the first resurrected deletions.
    public var resurrectedMarkers: [String] = []
    /// Times a device's process died and restarted from its persisted state.
    public var crashes = 0
    /// Change notifications delivered to devices (push-driven runs).
    public var notificationsDelivered = 0
    /// Change notifications dropped on purpose (push-driven runs).
    public var notificationsDropped = 0
    /// Fetches run because a notification arrived.
    public var notificationSyncs = 0
    /// Whether every device and the server ended with the same notes and text, nothing lost.
    public var converged = false
    /// Notes whose text differed between devices or the server.
    public var divergentNotes: [String] = []
    /// Sync calls that gave up (their edits stayed pending and went out later).
    public var failedSyncs = 0
    /// Sync rounds needed after the edits.
    public var quiescenceRounds = 0
    /// Virtual seconds spent waiting before retries.
    public var secondsWaited = 0.0
    /// Notes brought back by an edit meeting a delete or a reset.
    public var notesResurrected = 0
    /// Zone recoveries after resets or user deletions.
    public var zoneRecoveries = 0
    /// Note records saved before the update (the whole run when there was none), by snapshot
    /// format ("1", "2").
    public var recordsByFormatBeforeUpdate: [String: Int] = [:]
    /// Note records saved after the update, by snapshot format.
    public var recordsByFormatAfterUpdate: [String: Int] = [:]
    /// Note records saved, before the update, in a format a device of the run did not read yet
    /// (must be 0).
    public var unreadableRecordsWritten = 0
    /// Notes whose final copy on the server was compacted: tombstones every device had seen
    /// were dropped from it (Docs/FORMAT.md §4.7).
    public var notesCompacted = 0
    /// Steps of the run itself that failed, each with its error: a device whose engine did not
    /// start (or restart after a crash), a note that could not be created. Any makes the run fail.
    public var setupFailures: [String] = []

    /// An empty report.
    package init(devices: Int, notes: Int, edits: Int) {
        self.devices = devices
        self.notes = notes
        self.edits = edits
    }

    /// Whether the run kept both promises (converged, nothing lost or resurrected) and every
    /// step of it could be carried out (no ``setupFailures``).
    public var succeeded: Bool {
        converged && lostEdits == 0 && resurrectedEdits == 0 && unreadableRecordsWritten == 0 && setupFailures.isEmpty
    }
}

/// How far a running ``NoteSyncSimulation`` has got (see ``NoteSyncSimulation/run(progress:)``).
public struct NoteSyncSimulationProgress: Hashable, Sendable {
    /// Edit steps done so far.
    public var editsDone: Int
    /// Edit steps in the whole run.
    public var edits: Int
    /// Sync calls made so far.
    public var syncs: Int
    /// Faults the database injected so far.
    public var faults: Int
    /// Device crashes so far.
    public var crashes: Int
}
