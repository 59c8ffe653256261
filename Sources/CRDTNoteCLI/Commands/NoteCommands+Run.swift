import CRDTNote
import CRDTNoteTraces
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// Runs `crdtnote new`: a v2 record whose text is one edit by the given replica, its mirror an
/// ASSET unless `--text-mirror` says otherwise.
func runNew(_ options: NewOptions) throws(CLIError) {
    let text = try TextInput.read(options.textPath)
    var note = NoteText(replica: options.replica)
    try setText(text, of: &note, file: options.textPath)
    let record: NoteRecord
    do {
        record = try NoteRecord(recordName: options.recordName ?? UUID().uuidString, note: note,
                                mirror: options.textMirror ?? .asset,
                                format: options.format ?? .version1)
    } catch {
        throw .noteRecord(error, file: options.recordName)
    }
    try RecordOutput.write(record, to: options.output,
                           assetDirectory: RecordOutput.assetDirectory(for: options.output, assetsFolder: nil))
}

/// Runs `crdtnote edit`: reads the note (a v1 record is upgraded), makes its text the given
/// text as the fewest edits by the given replica, and writes the record back as version 2 with
/// its `text` in the type it had (or `--text-mirror`'s).
func runEdit(_ options: EditOptions) throws(CLIError) {
    let file = try RecordFile.load(options.recordPath, assets: options.assets)
    let text = try TextInput.read(options.textPath)
    var note = try file.read(as: options.replica).note
    if let range = options.utf16Range {
        do {
            try note.replaceUTF16(in: range, with: text)
        } catch {
            throw CLIError(code: .dataError, message: "cannot replace UTF-16 range \(range.lowerBound):\(range.upperBound) of the note (\(note.utf16Count) UTF-16 units): \(error.message); nothing written",
                           file: file.displayName)
        }
    } else {
        try setText(text, of: &note, file: options.recordPath)
    }
    let updated: NoteRecord
    do {
        // The record's own mirror type: one type per field in the container it came from.
        let mirror = options.textMirror ?? NoteTextMirror(of: file.record) ?? .asset
        // The record's own format unless asked: editing never changes who can read it.
        let format = options.format ?? file.record.payloadReaderVersion.flatMap(SnapshotFormat.init(rawValue:)) ?? .version1
        updated = try file.record.writing(note, mirror: mirror, format: format)
    } catch {
        throw .noteRecord(error, file: file.displayName)
    }
    let written = try RecordOutput.write(updated, to: options.output,
                                         assetDirectory: RecordOutput.assetDirectory(for: options.output, assetsFolder: options.assets))
    if case .file(let path) = options.output, EditedAssets.isSameFile(path, options.recordPath) {
        EditedAssets.removeReplaced(before: file.record.record, after: written.record, folder: OutputWriter.directory(of: path))
    }
}

/// Runs `crdtnote text`: the note's text, byte for byte, with nothing added.
func runText(_ options: TextOptions) throws(CLIError) {
    let file = try RecordFile.load(options.recordPath, assets: options.assets)
    let note = try file.read().note
    try OutputWriter.writeToStandardOutput(note.utf8)
}

/// Sets the note's text, failing (instead of silently keeping the old text) when the library
/// refuses it as too large (`file` names the note at fault).
private func setText(_ text: String, of note: inout NoteText, file: String) throws(CLIError) {
    do {
        try note.setText(text)
    } catch {
        throw CLIError(code: .dataError, message: "limit exceeded: the note with this text (\(text.utf8.count) bytes) would be beyond the limits a reader accepts; nothing written",
                       file: RecordFile.displayName(file))
    }
}
