import CRDTNote
import CRDTNoteDurableFiles
import CRDTNoteFiles
import CRDTNoteSupport
import Foundation

/// Runs `crdtnote library ACTION DIR ...`. Every action that changes the library flushes it
/// before returning, so exit status 0 means the change is durable.
func runLibrary(_ options: LibraryOptions) async throws(CLIError) {
    if case .initialize = options.action {
        let replica = ReplicaID.random()
        let library = try libraryCall(options.folder) { () throws(NoteLibraryError) in
            try NoteLibrary.create(folder: options.folder, replica: replica)
        }
        try CLIReplica.write(replica, folder: options.folder)
        try libraryCall(options.folder) { () throws(NoteLibraryError) in try library.close() }
        return
    }
    let replica = try CLIReplica.read(folder: options.folder)
    let library = try libraryCall(options.folder) { () throws(NoteLibraryError) in
        try NoteLibrary(folder: options.folder, replica: replica)
    }
    if case .sync(let server, let json) = options.action {
        try await runLibrarySync(library, folder: options.folder, server: server, json: json)
        return
    }
    try run(options.action, on: library, folder: options.folder)
}

private func run(_ action: LibraryOptions.Action, on library: NoteLibrary, folder: String) throws(CLIError) {
    switch action {
    case .initialize, .sync:
        return
    case .list(let json):
        let notes = try libraryCall(folder) { () throws(NoteLibraryError) in try library.list() }
        let output: [UInt8]
        if json {
            let array = notes.map { note -> JSONValue in
                var object = JSONObject()
                object["name"] = .string(note.name)
                object["title"] = .string(note.title)
                object["created"] = .string(ReportDate.iso(milliseconds: note.created))
                object["modified"] = .string(ReportDate.iso(milliseconds: note.modified))
                object["unsaved"] = .bool(note.unsaved)
                return .object(object)
            }
            output = JSONValue.array(array).serialized(pretty: true) + [0x0A]
        } else {
            output = Array(notes.map { "\($0.name)\t\(ReportDate.iso(milliseconds: $0.modified))\t\($0.title)\n" }.joined().utf8)
        }
        try OutputWriter.writeToStandardOutput(output)
    case .text(let name):
        let text = try libraryCall(folder) { () throws(NoteLibraryError) in try library.text(of: name) }
        try OutputWriter.writeToStandardOutput(Array(text.utf8))
    case .edit(let name, let textPath, let range):
        let text = try TextInput.read(textPath)
        try libraryCall(folder) { () throws(NoteLibraryError) in
            if let range {
                if try library.summary(of: name) == nil, range == 0..<0 {
                    try library.setText(text, of: name)  // creates it
                } else {
                    try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.replaceUTF16(in: range, with: text) }
                }
            } else {
                try library.setText(text, of: name)
            }
            try library.flush()
        }
    case .append(let name, let text):
        try libraryCall(folder) { () throws(NoteLibraryError) in
            if try library.summary(of: name) == nil {
                do throws(NoteLibraryError) {
                    try library.create(name, text: text)
                    try library.flush()
                    return
                } catch where error.code == .alreadyExists {
                    // Another process created it in between: append to theirs.
                }
            }
            try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try note.insert(text, atScalarOffset: note.scalarCount) }
            try library.flush()
        }
    case .style(let name, let range, let change):
        try libraryCall(folder) { () throws(NoteLibraryError) in
            try library.edit(name) { (note: inout NoteText) throws(NoteTextError) in try change.apply(to: &note, utf16Range: range) }
            try library.flush()
        }
    case .delete(let name):
        try libraryCall(folder) { () throws(NoteLibraryError) in
            try library.delete(name)
            try library.flush()
        }
    case .verify:
        let problems = try libraryCall(folder) { () throws(NoteLibraryError) in try library.verify() }
        for problem in problems { OutputWriter.writeToStandardError("crdtnote: \(problem)\n") }
        let report = library.openReport
        if report.tornBytesCut > 0 {
            OutputWriter.writeToStandardError("crdtnote: cut \(report.tornBytesCut) bytes of an unfinished write from the journal (\(report.tornReason ?? ""))\n")
        }
        guard problems.isEmpty else {
            throw CLIError(code: .operationFailed, message: "\(problems.count) problem(s) found", file: folder)
        }
        let count = try libraryCall(folder) { () throws(NoteLibraryError) in try library.list().count }
        try OutputWriter.writeToStandardOutput(Array("ok: \(count) notes\n".utf8))
    case .export(let outputFolder, let format):
        try InputReader.checkReadableDirectory(outputFolder)
        let notes = try libraryCall(folder) { () throws(NoteLibraryError) in try library.list() }
        for summary in notes {
            let note = try libraryCall(folder) { () throws(NoteLibraryError) in try library.note(summary.name) }
            let record: NoteRecord
            do {
                record = try NoteRecord(recordName: summary.name, note: note, format: format ?? .version1)
            } catch {
                throw .noteRecord(error, file: summary.name)
            }
            let path = outputFolder + "/" + summary.name + ".json"
            try RecordOutput.write(record, to: .file(path), assetDirectory: outputFolder)
        }
    case .importRecords(let paths, let assets):
        for path in paths {
            let file: RecordFile
            switch try LoadedRecord.load(path, assets: assets) {
            case .note(let note):
                file = note
            case .device(_, let name):
                // A folder of server records holds device records too: nothing to import there.
                OutputWriter.writeToStandardError("crdtnote: note: \(name): skipped: a device record (\(DeviceSchema.recordType)), not a note\n")
                continue
            }
            let note = try file.read(as: library.replica).note
            try libraryCall(folder) { () throws(NoteLibraryError) in
                try library.save(note, as: file.record.recordName)
            }
        }
        try libraryCall(folder) { () throws(NoteLibraryError) in try library.flush() }
    }
}

/// Runs a library call, turning its error into the tool's.
@discardableResult
func libraryCall<R>(_ folder: String, _ body: () throws(NoteLibraryError) -> R) throws(CLIError) -> R {
    do {
        return try body()
    } catch {
        throw .library(error, folder: folder)
    }
}

/// The replica id the tool edits a library as: made by `library init` and kept in the
/// library's folder (`crdtnote-cli-replica`), so scripts need not pass one. Several tool
/// processes share it; the library keeps their edits apart (Docs/LIBRARY.md).
enum CLIReplica {
    static let fileName = "crdtnote-cli-replica"

    static func write(_ replica: ReplicaID, folder: String) throws(CLIError) {
        do {
            try AtomicFile.write(Array("\(replica.rawValue)\n".utf8), to: folder + "/" + fileName)
        } catch {
            throw CLIError(code: .cannotWrite, message: error.description, file: folder)
        }
    }

    /// The tool's replica for `folder`; a library made by an app gets one now.
    static func read(folder: String) throws(CLIError) -> ReplicaID {
        let path = folder + "/" + fileName
        let bytes: [UInt8]?
        let isLibrary: Bool
        do {
            bytes = try PosixFileSystem().readFileIfPresent(at: path)
            isLibrary = try PosixFileSystem().exists(at: folder + "/index")
        } catch {
            throw CLIError(code: .noInput, message: error.description, file: folder)
        }
        guard let bytes else {
            // Only in a folder that is a library (made by an app): never leave files elsewhere.
            guard isLibrary else {
                throw CLIError(code: .noInput, message: "\(folder) holds no note library (crdtnote library init makes one)", file: folder)
            }
            let replica = ReplicaID.random()
            try write(replica, folder: folder)
            return replica
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = UInt64(text) else {
            throw CLIError(code: .dataError, message: "\(fileName) does not hold a replica id", file: path)
        }
        return ReplicaID(rawValue: value)
    }
}
