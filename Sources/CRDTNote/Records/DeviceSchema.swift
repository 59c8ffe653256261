/// The CloudKit schema of a device record (record type `CRDTNoteDevice`): one per note library
/// (one app install), in the notes zone, saying what that device reads, so that writers choose
/// the newest payload format every active device reads (Docs/RECORD-FORMAT.md, "Device records";
/// Docs/FORMAT.md, "Mixed fleets").
///
/// | field | type | meaning |
/// | --- | --- | --- |
/// | `version` | INT64 | ``version`` (1,000,000): far above any note schema version, so every release's note gate refuses the record |
/// | `release` | STRING | the crdtnote release the device runs ("0.5.0") |
/// | `reads` | INT64 | the newest payload minimum reader version it reads (2 for this release) |
/// | `capabilities` | LIST of STRING | further features it reads, by name (``encryptedFieldsCapability``); absent when empty |
/// | `lastSync` | TIMESTAMP | when it last announced itself (its own clock; refreshed about once a day) |
/// | `name` | STRING | the name the app gave the device ("Anna's iPhone"); absent when none |
/// | `replicas` | LIST of STRING | the replica ids (decimal) that have written through the device, newest last |
///
/// Readers and writers share the bounds below; a record beyond them is refused as a whole.
public enum DeviceSchema {
    /// The record type of device records.
    public static let recordType = "CRDTNoteDevice"
    /// Device record names start with this (then the device id).
    public static let recordNamePrefix = "CRDTNoteDevice-"
    /// The `version` every device record carries: above anything a note reader takes, so a
    /// release that does not know device records refuses one (`newerVersion`) and leaves it alone.
    public static let version: Int64 = 1_000_000

    /// The capability a device lists when it reads the encrypted note record layout
    /// (``NoteRecordLayout/encrypted``, record `version` 3): writers use that layout only when
    /// every active device lists it.
    public static let encryptedFieldsCapability = "encrypted-fields"

    /// Field names.
    enum Field {
        static let version = "version"
        static let release = "release"
        static let reads = "reads"
        static let capabilities = "capabilities"
        static let lastSync = "lastSync"
        static let name = "name"
        static let replicas = "replicas"
    }

    /// Most UTF-8 bytes of the device name (longer names are cut at a character boundary).
    static let maximumNameBytes = 256
    /// Most UTF-8 bytes of the release string and of each capability.
    static let maximumTokenBytes = 64
    /// Most capabilities one record lists.
    static let maximumCapabilities = 32
    /// Most replicas one record lists (the newest are kept).
    static let maximumReplicas = 64
}
