/// Which snapshot format the sync engine writes note records in (``NoteSyncConfiguration/payloadFormat``).
public enum PayloadFormatPolicy: Hashable, Sendable {
    /// The newest format every device reads whose device record was modified within the
    /// activity window, never lower than a format this device already saw in use; format 1
    /// while this device has not yet seen the devices in the zone (Docs/FORMAT.md, "Mixed fleets").
    case automatic
    /// Always this format (e.g. ``SnapshotFormat/version1`` while devices on a release that
    /// does not announce itself may still sync the notes).
    case pinned(SnapshotFormat)
}
