import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// Runs `crdtnote verify`: checks every record, prints `FILE: ok` (or, for a valid device
/// record, `FILE: device record, ...`) on standard output for each good one and one error line
/// per bad one on standard error, then fails if any was bad.
///
/// Exit status: 0 when all pass; 75 when every failure is a record or payload newer than this
/// crdtnote (nothing is wrong with it, an update can read it); 1 otherwise.
func runVerify(_ options: VerifyOptions) throws(CLIError) {
    var failures: [CLIError] = []
    for path in options.recordPaths {
        do throws(CLIError) {
            let verdict = try verify(path, assets: options.assets)
            try OutputWriter.writeToStandardOutput(Array("\(RecordFile.displayName(path)): \(verdict)\n".utf8))
        } catch {
            if error.code == .cannotWrite { throw error }
            OutputWriter.writeToStandardError(error.rendered)
            failures.append(error)
        }
    }
    guard !failures.isEmpty else { return }
    let onlyNewer = failures.allSatisfy { $0.code == .newerFormat }
    let count = "\(failures.count) of \(options.recordPaths.count) record" + (options.recordPaths.count == 1 ? "" : "s")
    throw CLIError(
        code: onlyNewer ? .newerFormat : .operationFailed,
        message: count + (onlyNewer ? " can only be read by a newer crdtnote" : " failed verification"))
}

/// Checks one record the way every command reads it (JSON, type, assets, version gate,
/// payload checksum and decoding, text, formatting) and says what was found. A device record is checked
/// against the device schema and reported as one.
private func verify(_ path: String, assets: String?) throws(CLIError) -> String {
    try InputReader.checkReadableFile(path)
    let file: RecordFile
    switch try LoadedRecord.load(path, assets: assets) {
    case .note(let note): file = note
    case .device(let record, let name): return try DeviceRecordSummary(record, file: name).verdict
    }
    let summary = try RecordSummary(file)
    var verdict = "ok (schema \(summary.schemaVersion), \(summary.scalars) scalars"
    if file.record.hasFormatting {
        // Formatting a reader cannot decode does not block the text, but verify reports it.
        let reading = try file.read()
        if let error = reading.formattingError { throw .noteRecord(error, file: file.displayName) }
        verdict += ", formatted"
    }
    switch summary.origin {
    case .legacyText: verdict += ", legacy plain text"
    case .payload: break
    case .payloadWithFoldedText: verdict += ", text mirror changed by an older app (folded in on read)"
    }
    return verdict + ")"
}
