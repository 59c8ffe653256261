/// How a note record holds the note (Docs/RECORD-FORMAT.md, "Schema"): which fields, and
/// whether the snapshot is encrypted. Readers take both; writers choose.
public enum NoteRecordLayout: Hashable, Sendable {
    /// `version` 2: the inline snapshot in the plain BYTES field `payload`. Every release reads it.
    case plain
    /// `version` 3: the inline snapshot in the encrypted BYTES field `encryptedPayload`
    /// (`CKRecord.encryptedValues`), no STRING text mirror. Releases before it (those whose
    /// device records do not list ``DeviceSchema/encryptedFieldsCapability``, and 0.1.0, which
    /// has none) refuse the record at their version gate and leave it alone, so the sync engine
    /// writes it only once every active device announces that it reads it
    /// (``NoteSyncConfiguration/recordEncryption``).
    case encrypted

    /// The record `version` of this layout.
    public var schemaVersion: Int64 {
        self == .encrypted ? NoteSchema.encryptedVersion : NoteSchema.currentVersion
    }

    /// The field holding an inline snapshot in this layout.
    var inlinePayloadField: String {
        self == .encrypted ? NoteSchema.Field.encryptedPayload : NoteSchema.Field.payload
    }
}
