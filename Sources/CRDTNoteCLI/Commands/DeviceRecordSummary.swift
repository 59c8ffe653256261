import CRDTNote
import CRDTNoteFiles

/// What `crdtnote show` and `verify` report about a device record (`CRDTNoteDevice`): the
/// record's identity and what the device announced (``DeviceAnnouncement``).
struct DeviceRecordSummary: Sendable {
    /// The file as named in messages.
    var file: String
    /// CloudKit record name (`CRDTNoteDevice-` and the device id).
    var recordName: String
    /// CloudKit record type (always `CRDTNoteDevice`).
    var recordType: String
    /// The server's change tag, if the record has one.
    var changeTag: String?
    /// The record zone's name, if given.
    var zoneName: String?
    /// Whether the record is marked deleted.
    var deleted: Bool
    /// What the device says about itself.
    var announcement: DeviceAnnouncement

    /// Reads and checks the device record `record` from `file`; a field that breaks the device
    /// schema fails as invalid data, naming the field.
    init(_ record: CloudRecord, file: String) throws(CLIError) {
        do {
            announcement = try DeviceAnnouncement(record: record)
        } catch {
            throw .noteRecord(error, file: file)
        }
        self.file = file
        recordName = record.recordName
        recordType = record.recordType
        changeTag = record.recordChangeTag
        zoneName = record.zoneID?.zoneName
        deleted = record.deleted ?? false
    }

    /// The `verify` verdict: what the device reads, in a few words.
    var verdict: String {
        "device record, not a note (release \(announcement.release), reads format \(announcement.reads))"
    }
}
