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
    try writeBack(note, into: file, output: options.output, assets: options.assets, format: options.format, mirror: options.textMirror)
}

/// Writes `note` into the record of `file` and the record to `output`: the record's own
/// mirror type and snapshot format unless `format` or `mirror` say otherwise, asset files
/// beside the output, assets the record no longer uses removed when it is rewritten in place.
func writeBack(_ note: NoteText, into file: RecordFile, output: OutputDestination, assets: String?,
               format: SnapshotFormat? = nil, mirror: NoteTextMirror? = nil) throws(CLIError) {
    let updated: NoteRecord
    do {
        // The record's own mirror type: one type per field in the container it came from.
        let mirror = mirror ?? NoteTextMirror(of: file.record) ?? .asset
        // The record's own format unless asked: editing never changes who can read it.
        let format = format ?? file.record.payloadReaderVersion.flatMap(SnapshotFormat.init(rawValue:)) ?? .version1
        updated = try file.record.writing(note, mirror: mirror, format: format)
    } catch {
        throw .noteRecord(error, file: file.displayName)
    }
    let written = try RecordOutput.write(updated, to: output,
                                         assetDirectory: RecordOutput.assetDirectory(for: output, assetsFolder: assets))
    if case .file(let path) = output, EditedAssets.isSameFile(path, file.path) {
        EditedAssets.removeReplaced(before: file.record.record, after: written.record, folder: OutputWriter.directory(of: path))
    }
}

/// Runs `crdtnote text`: the note's text, byte for byte, with nothing added.
func runText(_ options: TextOptions) throws(CLIError) {
    let file = try RecordFile.load(options.recordPath, assets: options.assets)
    let reading = try file.read()
    if let at = options.at {
        let past: String
        do {
            past = try reading.note.text(at: at)
        } catch {
            throw historyError(error, file: file)
        }
        try OutputWriter.writeToStandardOutput(Array(past.utf8))
        return
    }
    switch options.rendering {
    case .plain:
        try OutputWriter.writeToStandardOutput(reading.note.utf8)
    case .spans, .markdown:
        if let error = reading.formattingError { throw .noteRecord(error, file: file.displayName) }
        let spans: [FormattedSpan]
        do {
            spans = try reading.note.formattedSpans()
        } catch {
            throw CLIError(code: .dataError, message: "the note cannot be read: \(error.message)", file: file.displayName)
        }
        let out = options.rendering == .spans ? FormattedOutput.json(spans) : FormattedOutput.markdown(spans)
        try OutputWriter.writeToStandardOutput(Array(out.utf8))
    }
}

/// Runs `crdtnote style`: one formatting operation by the given replica on a UTF-16 range,
/// the record written back with its text, format and mirror as they were.
func runStyle(_ options: StyleOptions) throws(CLIError) {
    let file = try RecordFile.load(options.recordPath, assets: options.assets)
    let reading = try file.read(as: options.replica)
    var note = reading.note
    do {
        try options.change.apply(to: &note, utf16Range: options.utf16Range)
    } catch {
        let range = options.utf16Range
        throw CLIError(code: .dataError, message: "cannot format UTF-16 range \(range.lowerBound):\(range.upperBound) of the note (\(note.utf16Count) UTF-16 units): \(error.message); nothing written",
                       file: file.displayName)
    }
    try writeBack(note, into: file, output: options.output, assets: options.assets)
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

extension StyleOptions.Change {
    /// Makes this formatting operation on `utf16Range` of `note`.
    func apply(to note: inout NoteText, utf16Range: Range<Int>) throws(NoteTextError) {
        switch self {
        case .add(let mark): try note.setMark(mark, utf16Range: utf16Range)
        case .remove(let kind): try note.removeMark(kind, utf16Range: utf16Range)
        case .paragraph(let attribute): try note.setParagraphAttribute(attribute, utf16Range: utf16Range)
        }
    }
}
