import CRDTNote
import CRDTNoteFiles

/// What `crdtnote show` and `verify` report about a device record (`CRDTNoteDevice`): the
/// record's identity and what the device announced (``DeviceAnnouncement``).
struct DeviceRecordSummary: Sendable {
    /// Which record it is.
    var identity: RecordIdentity
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
        identity = RecordIdentity(record, file: file)
    }

    /// The `verify` verdict: what the device reads, in a few words.
    var verdict: String {
        "device record, not a note (release \(announcement.release), reads format \(announcement.reads))"
    }
}
