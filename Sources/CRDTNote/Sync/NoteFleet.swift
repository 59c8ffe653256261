import Foundation

/// One device syncing the notes, as its device record announces it (for a "devices syncing
/// your notes" list).
public struct SyncDevice: Hashable, Sendable, Identifiable {
    /// The device record's name: stable for the life of the app install.
    public var id: String
    /// The name the app gave the device (``NoteSyncConfiguration/deviceName``), if any.
    public var name: String?
    /// The crdtnote release it runs.
    public var release: String
    /// The newest payload format (minimum reader version) it reads.
    public var reads: UInt16
    /// Further features it reads, by name.
    public var capabilities: [String]
    /// When it last announced itself: the server's modification time of its record, else the
    /// time the device wrote in it.
    public var lastSeen: Date
    /// The replicas that have written through it, newest last.
    public var replicas: [ReplicaID]
    /// Whether this is the device asking.
    public var isThisDevice: Bool
    /// Whether it announced itself within ``NoteSyncConfiguration/activityWindow`` (this device
    /// always is).
    public var isActive: Bool
}

/// The devices syncing the notes and the payload format written for them.
public struct NoteFleet: Hashable, Sendable {
    /// Every device known, this one first, then by id.
    public var devices: [SyncDevice]
    /// The format note records are written in now.
    public var writtenFormat: SnapshotFormat
    /// The record layout note records are written in now (``NoteSyncConfiguration/recordEncryption``).
    public var writtenLayout: NoteRecordLayout
    /// Whether this device has seen the devices in the zone yet (read the change feed from its
    /// start, or watched it for a day); until then the automatic choice is format 1.
    public var knowsDevices: Bool
    /// Active devices that read less than this release writes, or do not announce a capability
    /// it announces (the encrypted layout): the fleet writes the older format or the plain
    /// layout for them, so the app may ask the user to update them.
    public var heldBackBy: [SyncDevice]
}
