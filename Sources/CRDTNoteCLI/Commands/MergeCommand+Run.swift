import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport

/// Runs `crdtnote merge` with validated options.
///
/// Every input is read and checked on its own first, so an error names the file at fault;
/// only then are the records merged. Notes about the merge (a legacy side upgraded, a
/// two-way merge) go to standard error as `crdtnote: note:` lines.
func runMerge(_ options: MergeOptions) throws(CLIError) {
    var merger = RecordMerger()
    let result: RecordMergeResult
    switch options.inputs {
    case let .conflict(serverPath, clientPath, ancestorPath):
        let server = try RecordFile.load(serverPath, assets: options.assets)
        let client = try RecordFile.load(clientPath, assets: options.assets)
        let ancestor = try ancestorPath.map { (path) throws(CLIError) in try RecordFile.load(path, assets: options.assets) }
        try checkMergeable([ancestor, client, server].compactMap { $0 })
        merger.mirror = mirror(options, inputs: [server, client] + (ancestor.map { [$0] } ?? []))
        merger.format = options.format ?? newestFormat([server, client] + (ancestor.map { [$0] } ?? []))
        _ = try client.read()
        _ = try server.read()
        do {
            try ancestor?.record.checkVersion()
        } catch {
            throw .noteRecord(error, file: ancestor?.displayName)
        }
        do {
            result = try merger.merge(ancestor: ancestor?.record, client: client.record, server: server.record)
        } catch {
            // Client and server were read above, so a refusal by the version gate is the ancestor's.
            throw .noteRecord(error, file: error.code == .newerVersion ? ancestor?.displayName : nil)
        }
    case let .versions(paths):
        var files: [RecordFile] = []
        for path in paths { files.append(try RecordFile.load(path, assets: options.assets)) }
        try checkMergeable(files)
        merger.mirror = mirror(options, inputs: files.reversed())
        merger.format = options.format ?? newestFormat(files)
        for file in files { _ = try file.read() }
        do {
            result = try merger.merge(records: files.map(\.record))
        } catch {
            throw .noteRecord(error, file: nil)
        }
    }
    for note in result.notes {
        OutputWriter.writeToStandardError("crdtnote: note: \(note)\n")
    }
    if result.serverUnchanged {
        OutputWriter.writeToStandardError("crdtnote: note: the base record already holds every edit; nothing new to save\n")
    }
    let folder = RecordOutput.assetDirectory(for: options.output, assetsFolder: options.assets)
    try RecordOutput.write(result.record, to: options.output, assetDirectory: folder)
}

/// Refuses records that are not live versions of one note, naming the file at fault.
private func checkMergeable(_ files: [RecordFile]) throws(CLIError) {
    guard let first = files.first else { return }
    for file in files {
        if file.record.record.deleted == true {
            throw CLIError(code: .operationFailed, message: "merge refused: the record is marked deleted; there is no note to merge",
                           file: file.displayName, location: "deleted")
        }
        if file.record.recordName != first.record.recordName {
            throw CLIError(
                code: .operationFailed,
                message: "merge refused: not a version of the same note: record name '\(file.record.recordName)', "
                    + "but \(first.displayName) has '\(first.record.recordName)'",
                file: file.displayName, location: "recordName")
        }
    }
}

/// The merged record's mirror type: `--text-mirror`, else that of the first input (the record
/// the merge is built on first) whose type shows, else ASSET. So a merge never changes the type
/// of `text` in the container its records come from.
private func mirror(_ options: MergeOptions, inputs: [RecordFile]) -> NoteTextMirror {
    options.textMirror ?? inputs.lazy.compactMap { NoteTextMirror(of: $0.record) }.first ?? .asset
}

/// The newest snapshot format among the inputs' payloads (format 1 when none has a payload):
/// a merge never writes a format older than one its inputs were already in.
func newestFormat(_ inputs: [RecordFile]) -> SnapshotFormat {
    inputs.compactMap { $0.record.payloadReaderVersion.flatMap(SnapshotFormat.init(rawValue:)) }.max { $0.rawValue < $1.rawValue } ?? .version1
}
