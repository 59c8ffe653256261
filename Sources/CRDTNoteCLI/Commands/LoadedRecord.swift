import CRDTNote
import CRDTNoteFiles

/// A record file as `show`, `verify` and `library import` take it: a note record, or a device
/// record (`CRDTNoteDevice`, one per note library in the notes zone), which is no note.
enum LoadedRecord: Sendable {
    /// A note record with its asset files.
    case note(RecordFile)
    /// A device record, not yet checked against the device schema, and the file as named in
    /// messages.
    case device(CloudRecord, file: String)

    /// Reads `path`: a device record by its record type, any other record as every command reads
    /// a note (so records of other types are refused as before).
    static func load(_ path: String, assets: String?) throws(CLIError) -> LoadedRecord {
        let cloudRecord = try RecordFile.readRecord(path)
        if cloudRecord.recordType == DeviceSchema.recordType {
            return .device(cloudRecord, file: RecordFile.displayName(path))
        }
        return .note(try RecordFile.note(cloudRecord, path: path, assets: assets))
    }
}
