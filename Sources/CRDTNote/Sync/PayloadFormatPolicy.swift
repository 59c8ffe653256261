/// Which snapshot format the sync engine writes note records in (``NoteSyncConfiguration/payloadFormat``),
/// and with it the layout of their history field (Docs/FORMAT.md §11.2).
public enum PayloadFormatPolicy: Hashable, Sendable {
    /// The newest format every device reads whose device record was modified within the
    /// activity window, never lower than a format this device already saw in use; format 1
    /// while this device has not yet seen the devices in the zone (Docs/FORMAT.md, "Mixed fleets").
    /// Histories are written in version 2 once that number is 4 (every device reads it).
    case automatic
    /// Always this format (e.g. ``SnapshotFormat/version1`` while devices on a release that
    /// does not announce itself may still sync the notes); histories in version 1.
    case pinned(SnapshotFormat)
}
