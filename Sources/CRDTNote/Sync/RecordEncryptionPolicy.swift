/// Whether the sync engine writes note records in the encrypted layout
/// (``NoteRecordLayout/encrypted``: the snapshot in a field CloudKit encrypts;
/// ``NoteSyncConfiguration/recordEncryption``; Docs/FORMAT.md, "Mixed fleets").
public enum RecordEncryptionPolicy: Hashable, Sendable {
    /// Once every device whose device record was modified within the activity window announces
    /// that it reads it (and from then on: once written or received here, it stays); the plain
    /// layout while this device has not yet seen the devices in the zone.
    case automatic
    /// Always, whatever the devices say: for apps none of whose installs run a release without
    /// the encrypted layout (those refuse the records and cannot open the notes until updated).
    case always
    /// Never: the plain layout, even over records written encrypted (e.g. while installs on a
    /// release that does not announce itself may still sync the notes).
    case never
}

/// How the sync engine writes a note record now: snapshot format, history layout and record layout.
struct RecordForm: Hashable, Sendable {
    var format: SnapshotFormat
    /// The history payload's layout (version 2 once every active device reads it).
    var history: HistoryFormat
    var layout: NoteRecordLayout
}
